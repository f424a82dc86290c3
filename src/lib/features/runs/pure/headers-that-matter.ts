/**
 * The headers of a recorded exchange that matter to the service, which the exports keep: the curl script replays
 * only these, and the Markdown report shows these and any its diagnosis names. A browser's own headers
 * (Accept-Encoding, Origin, Sec-Fetch-*, cookies, …) change nothing the service answers (sections 4.2, 4.3, 5), and
 * replayed by curl some break the replay (`Accept-Encoding: br, zstd` without `--compressed` gives bytes, not JSON).
 */
import type { HttpHeader } from '$lib/http/exchange';

/** What the service reads of a request: how the body is encoded, the credentials, and the User-Agent (403 without). */
const REQUEST = new Set(['content-type', 'authorization', 'user-agent']);

/** What a person reads of an answer: what it is, where it sends the browser, and why a credential was refused. */
const RESPONSE = new Set(['content-type', 'location', 'www-authenticate']);

/** Accept matters where it asks for JSON, as an API client's does; a browser's `text/html,…` or its any-type says nothing. */
const jsonAccept = (h: HttpHeader) => h.name.toLowerCase() === 'accept' && /json/i.test(h.value);

/** The request headers the service reads, and those named in `named` (lower case). */
export function requestHeadersThatMatter(headers: HttpHeader[], named: ReadonlySet<string> = new Set()): HttpHeader[] {
	return headers.filter((h) => REQUEST.has(h.name.toLowerCase()) || jsonAccept(h) || named.has(h.name.toLowerCase()));
}

/** The response headers a person needs, and those named in `named` (lower case). */
export function responseHeadersThatMatter(headers: HttpHeader[], named: ReadonlySet<string> = new Set()): HttpHeader[] {
	return headers.filter((h) => RESPONSE.has(h.name.toLowerCase()) || named.has(h.name.toLowerCase()));
}
