/**
 * The explorer's SvelteKit hooks that guard its responses: framing headers, and a log that only 5xx reach.
 */
import type { Handle, HandleServerError } from '@sveltejs/kit';

/**
 * The explorer's pages may not be framed (clickjacking): `X-Frame-Options` for every response, alongside the
 * Content-Security-Policy `frame-ancestors 'none'` SvelteKit sends with each page (svelte.config.js).
 */
export const refuseFraming: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	if (!response.headers.has('x-frame-options')) response.headers.set('X-Frame-Options', 'DENY');
	return response;
};

/**
 * SvelteKit's error hook: a malformed request (a path that is not valid percent-encoding, an unknown route) is the
 * client's mistake, answered with its 4xx and not logged, so a flood of them cannot fill the log with stack
 * traces. A 5xx is a fault of ours: its cause goes to the log, one entry per failure.
 */
export const logServerFaultsOnly: HandleServerError = ({ error, status, event }) => {
	if (status < 500) return;
	console.error(`${event.request.method} ${event.url.pathname} failed:`, error);
};
