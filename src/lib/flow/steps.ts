/**
 * Which step of the flow a request is, from its method and URL alone: one reading for imports (any request a
 * browser or a server made) and the sandbox's live log (requests to the service's own hosts).
 */
import { uriParts } from '$lib/http/encoding';
import { ENDPOINT_PATHS } from '$lib/protocol/endpoints';
import type { StepId } from './exchange';

const { token: TOKEN_PATH, me: ME_PATH, link: LINK_PATH, signInPage: SIGN_IN_PAGE_PATH } = ENDPOINT_PATHS;

function endpointStep(verb: string, path: string): 'token' | 'me' | null {
	if (verb === 'OPTIONS') return null; // a CORS preflight is the browser's, not the flow's
	if (TOKEN_PATH.test(path)) return 'token';
	return ME_PATH.test(path) ? 'me' : null;
}

/**
 * Of any request: the token endpoint, me.json, or the authorisation link (a GET of /sso/{supergroup} carrying
 * `response_type` or `client_id`, since other sites have /sso/ paths too). Null for anything else.
 */
export function stepOfRequest(method: string, url: string): Exclude<StepId, 'sign-in' | 'arrival'> | null {
	const verb = method.toUpperCase();
	const parsed = URL.canParse(url) ? new URL(url) : null;
	if (!parsed) return null;
	const endpoint = endpointStep(verb, parsed.pathname);
	if (endpoint !== null || verb === 'OPTIONS') return endpoint;
	const isLink = LINK_PATH.test(parsed.pathname) && (parsed.searchParams.has('response_type') || parsed.searchParams.has('client_id'));
	return verb === 'GET' && isLink ? 'link' : null;
}

/** Of a request to the service's own hosts: also a link without parameters, and the sandbox's sign-in pages. */
export function flowStepOf(method: string, url: string): StepId | null {
	const verb = method.toUpperCase();
	const { path } = uriParts(url);
	const endpoint = endpointStep(verb, path);
	if (endpoint !== null || verb === 'OPTIONS') return endpoint;
	if (LINK_PATH.test(path)) return verb === 'GET' ? 'link' : null;
	return SIGN_IN_PAGE_PATH.test(path) ? 'sign-in' : null;
}
