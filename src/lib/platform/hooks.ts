/** Request hooks of the explorer: CSRF protection for state-changing requests, and the server-side session. */
import { error, type Handle } from '@sveltejs/kit';
import { services } from './services';
import { SessionsFull, VisitorSessionsFull } from './session';
import { requestVisitor } from './client-address';
import { errorBody, errorResponse, forbidden, tooManyRequests, unavailable } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser sent from another site. SvelteKit's own check covers form
 * posts only; the explorer's JSON API needs the same protection. Requests without Origin and Sec-Fetch-Site do
 * not come from a browser page and carry no ambient authority worth forging.
 */
export const refuseCrossSiteWrites: Handle = async ({ event, resolve }) => {
	if (SAFE_METHODS.has(event.request.method)) return resolve(event);
	const origin = event.request.headers.get('origin');
	const fetchSite = event.request.headers.get('sec-fetch-site');
	const crossSite = origin !== null ? !sameOrigin(origin, event.request.headers.get('host'), event.url.protocol) : fetchSite === 'cross-site' || fetchSite === 'same-site';
	if (crossSite) {
		return errorResponse(forbidden(`Cross-site request refused: ${event.request.method} ${event.url.pathname} only accepts requests from the explorer's own pages.`));
	}
	return resolve(event);
};

/**
 * Compares the Origin header with the Host the browser addressed (the explorer may be reached as localhost,
 * 127.0.0.1 or a public name) and with the scheme the explorer is served over: adapter-node takes it from
 * ORIGIN, which scripts/start.js always sets (PUBLIC_ORIGIN behind a TLS proxy).
 */
function sameOrigin(origin: string, host: string | null, protocol: string): boolean {
	if (host === null || !URL.canParse(origin)) return false;
	const parsed = new URL(origin);
	return parsed.protocol === protocol && parsed.host === host.toLowerCase();
}

/**
 * The request's session, if its cookie names one; `locals.session()` makes one for a route that writes to it.
 * Reads never make sessions, so traffic without cookies (a flood of /health) leaves the store alone.
 */
export const handleSession: Handle = async ({ event, resolve }) => {
	const { sessions } = await services();
	event.locals.sessionId = sessions.find(event.cookies);
	event.locals.session = () => {
		try {
			event.locals.sessionId ??= sessions.ensure(event.cookies, requestVisitor(event));
		} catch (problem) {
			// Thrown inside a route or a page's load: SvelteKit's error(), which both answer, with the one body shape.
			if (problem instanceof SessionsFull) error(503, errorBody(unavailable(problem.message)));
			if (problem instanceof VisitorSessionsFull) {
				// Headers set here are added to the error response too (SvelteKit's resolve adds them to every response).
				event.setHeaders({ 'retry-after': String(Math.ceil(problem.retryAfterMs / 1000)) });
				error(429, errorBody(tooManyRequests(problem.message)));
			}
			throw problem;
		}
		return event.locals.sessionId;
	};
	return resolve(event);
};
