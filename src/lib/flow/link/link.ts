/**
 * The authorisation link (interface 4.1): building it, and taking it apart for the link table.
 */
import { encodeComponent, encodeQuery, uriParts } from '../../http/encoding';
import { splitRawQuery } from '../../http/form';

export interface LinkInput {
	authUrl: string;
	supergroup: string;
	responseType: string;
	clientId: string;
	redirectUri: string;
	country: string;
	extraLinkParams?: [string, string][];
}

/** One part of a link as the link table shows it: as written in the URL, and after one decode. */
export interface LinkPart {
	name: string;
	/** `path` for the supergroup segment, `query` for a parameter. */
	location: 'path' | 'query';
	raw: string;
	decoded: string;
}

/**
 * `GET {auth_url}/sso/{supergroup}?response_type&client_id&redirect_uri&country[&extras]`, every name and value
 * encoded as a URI component, so the redirect URI and its own query string travel as one value (4.1.1).
 */
export function buildAuthorisationLink(input: LinkInput): string {
	const base = input.authUrl.trim().replace(/\/+$/, '');
	const params: [string, string][] = [
		['response_type', input.responseType],
		['client_id', input.clientId],
		['redirect_uri', input.redirectUri],
		['country', input.country],
		...(input.extraLinkParams ?? [])
	];
	return `${base}/sso/${encodeComponent(input.supergroup)}?${encodeQuery(params)}`;
}

/**
 * The parts of a link: the `supergroup` path segment (the segment after `/sso/`; when the path has no such
 * segment, the whole path as `path`), then each query parameter in order. Raw text is taken from the URL as
 * written, so an unencoded redirect URI shows exactly how it split.
 */
export function linkParts(url: string): LinkPart[] {
	const { path, query } = uriParts(url.trim());
	const segments = path.split('/');
	const last = segments.at(-1) ?? '';
	const pathPart: LinkPart =
		segments.length >= 2 && segments.at(-2) === 'sso' && last !== ''
			? { name: 'supergroup', location: 'path', raw: last, decoded: safeDecodePath(last) }
			: { name: 'path', location: 'path', raw: path, decoded: safeDecodePath(path) };
	const queryParts = splitRawQuery(query).map(
		(p): LinkPart => ({ name: p.name, location: 'query', raw: p.rawValue, decoded: p.value })
	);
	return [pathPart, ...queryParts];
}

/** A path segment decoded, or as written when its `%` escapes are malformed (a link as a customer's app built it). */
export function safeDecodePath(raw: string): string {
	try {
		return decodeURIComponent(raw);
	} catch {
		return raw;
	}
}

/**
 * Adds query parameters to a redirect URI (before any fragment), keeping what it already carries. These are the
 * "extra parameters" of 4.1.1 that the service must bring back on the redirect.
 */
export function appendQueryParams(uri: string, params: [string, string][]): string {
	if (params.length === 0) return uri;
	const hash = uri.indexOf('#');
	const beforeHash = hash === -1 ? uri : uri.slice(0, hash);
	const fragment = hash === -1 ? '' : uri.slice(hash);
	const separator = !beforeHash.includes('?') ? '?' : /[?&]$/.test(beforeHash) ? '' : '&';
	return `${beforeHash}${separator}${encodeQuery(params)}${fragment}`;
}

