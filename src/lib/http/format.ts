/**
 * Recorded requests and responses as HTTP/1.1 message text, for display (lines end in \n rather than CRLF). The
 * request is shown exactly as recorded but for masks, shown as the mask rather than percent-encoded; a JSON response
 * body is pretty-printed so a person can read it.
 */
import { readableMasks, type HttpHeader, type RecordedRequest, type RecordedResponse } from '$lib/http/exchange';
import { headerValue } from '$lib/http/headers';
import { jsonParse } from './json';

const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The request target of the request line: path and query (origin-form, RFC 9112 3.2.1), cut from the URL's text
 * rather than parsed, so the query stays byte for byte as sent (URL parsing would re-encode it).
 */
function requestTarget(url: string): string {
	const authority = SCHEME_AND_AUTHORITY.exec(url);
	if (!authority) return url; // not an absolute URL: show what was recorded rather than nothing
	const target = url.slice(authority[0].length).split('#')[0] ?? '';
	return target.startsWith('/') ? target : `/${target}`;
}

function headerLines(headers: HttpHeader[]): string[] {
	return headers.map((h) => `${h.name}: ${h.value}`);
}

function message(startLine: string, headers: HttpHeader[], body: string | null): string {
	const head = [startLine, ...headerLines(headers)].join('\n');
	return readableMasks(body ? `${head}\n\n${body}` : `${head}\n`);
}

/** `application/json`, `application/problem+json` and the like. */
function isJsonContentType(contentType: string | undefined): boolean {
	const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
	return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The body indented when it is JSON by its content type and parses; otherwise unchanged. */
function readableBody(res: RecordedResponse): string {
	if (res.truncated || !isJsonContentType(headerValue(res.headers, 'content-type'))) return res.body;
	try {
		return JSON.stringify(jsonParse(res.body), null, 2);
	} catch {
		return res.body; // says JSON, is not: show it as it came
	}
}

export function formatRequest(req: RecordedRequest): string {
	return message(`${req.method} ${requestTarget(req.url)} HTTP/1.1`, req.headers, req.body);
}

export function formatResponse(res: RecordedResponse): string {
	const statusLine = `HTTP/1.1 ${res.status} ${res.statusText}`.trimEnd();
	return message(statusLine, res.headers, readableBody(res));
}
