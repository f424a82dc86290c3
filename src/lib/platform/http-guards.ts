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
 * Whether `error` is the request's body failing because its client went away (closed the connection mid-upload, or
 * was cut for taking longer than REQUEST_TIMEOUT_MS): node's `aborted` / ECONNRESET, surfacing in whatever read the
 * body. Nobody is left to answer, and nothing of ours failed.
 */
export function isClientAbort(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	const code = (error as { code?: unknown }).code;
	return code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
}

/**
 * SvelteKit's error hook: a malformed request (a path that is not valid percent-encoding, an unknown route) is the
 * client's mistake, answered with its 4xx and not logged, so a flood of them cannot fill the log with stack
 * traces; so is a client that went away mid-request. A 5xx is a fault of ours: its cause goes to the log, one entry
 * per failure.
 */
export const logServerFaultsOnly: HandleServerError = ({ error, status, event }) => {
	if (status < 500 || isClientAbort(error)) return;
	console.error(`${event.request.method} ${event.url.pathname} failed:`, error);
};
