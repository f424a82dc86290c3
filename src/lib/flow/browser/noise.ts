/**
 * Requests a recording holds that are no part of the sign-in: a debugger's own files served at the app's URLs
 * (Werkzeug's, which Flask shows on an error, are fetched from the page's own path with `__debugger__=yes`), and
 * the browser's own requests to its vendor's services (Chromium's autofill, optimisation hints, updates, safe
 * browsing). They are left out of the flow: never arrivals at the redirect URI, never refused requests of the app.
 */

/** Hosts Chromium calls by itself, whatever page is open. */
const BROWSER_OWN_HOSTS: readonly string[] = [
	'content-autofill.googleapis.com',
	'optimizationguide-pa.googleapis.com',
	'update.googleapis.com',
	'safebrowsing.googleapis.com',
	'clientservices.googleapis.com',
	'clients1.google.com',
	'clients2.google.com',
	'android.clients.google.com',
	'edgedl.me.gvt1.com',
	'redirector.gvt1.com'
];

/** Whether the browser made the request for itself (its host is one of its vendor's services). */
export function isBrowserOwnRequest(url: string): boolean {
	if (!URL.canParse(url)) return false;
	const host = new URL(url).hostname;
	return BROWSER_OWN_HOSTS.some((own) => host === own || host.endsWith(`.${own}`));
}

/** Whether the request fetches a debugger's own files (Werkzeug: `?__debugger__=yes&cmd=resource&f=…`). */
export function isDebuggerRequest(url: string): boolean {
	if (!URL.canParse(url)) return false;
	const parsed = new URL(url);
	return parsed.searchParams.has('__debugger__') || parsed.pathname.includes('/__debugger__');
}

/** Whether a recorded request is no part of the flow: a debugger's file or the browser's own call. */
export function isNotOfTheFlow(url: string): boolean {
	return isDebuggerRequest(url) || isBrowserOwnRequest(url);
}
