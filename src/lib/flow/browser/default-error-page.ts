/**
 * A web framework's default error page: what an app shows when an error reached the framework unhandled, as
 * opposed to a page the app wrote for the case. Read from the page's visible text: nothing at all, a bare status
 * phrase (Express, Go's `http.Error`, Starlette, Rack), or the fixed sentences of Werkzeug (Flask), Express's
 * finalhandler and Rails. A page of the app's own says what happened to the user in words of its own.
 */

/** The reason phrases servers print alone as a default page, optionally after the status code. */
const BARE_PHRASE =
	/^(?:\d{3}\s*)?(?:[-:]\s*)?(?:internal server error|bad request|unauthori[sz]ed|forbidden|not found|bad gateway|service unavailable|server error|error|\d{3} page not found)\.?$/i;

/** Fixed sentences of well-known frameworks' default error pages. */
const DEFAULT_SENTENCES: readonly RegExp[] = [
	/The server encountered an internal error and was unable to complete your request/i, // Werkzeug 500
	/The browser \(or proxy\) sent a request that this server could not understand/i, // Werkzeug 400
	/The server could not verify that you are authorized to access the URL requested/i, // Werkzeug 401
	/You don't have the permission to access the requested resource/i, // Werkzeug 403
	/The requested URL was not found on the server/i, // Werkzeug 404
	/^Cannot (?:GET|POST) \//, // Express's finalhandler, no route
	/^\s*(?:\w*Error|InternalOAuthError): /, // Express's finalhandler in development: the error's own message
	/We're sorry, but something went wrong/i, // Rails
	/Error response\s+Error code: \d{3}/i // Python's http.server
];

/** The page's visible text: scripts, styles, the title and tags dropped, whitespace evened out. */
function visibleText(body: string): string {
	return body
		.replace(/<(script|style|title)\b[\s\S]*?<\/\1\s*>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/&nbsp;/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

/** Whether an error answer (4xx or 5xx) is a framework's default page rather than one the app wrote. */
export function isDefaultErrorPage(body: string): boolean {
	const text = visibleText(body);
	return text === '' || BARE_PHRASE.test(text) || DEFAULT_SENTENCES.some((pattern) => pattern.test(text));
}
