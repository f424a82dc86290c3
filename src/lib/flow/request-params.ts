/** Reading what a recorded request carried: a header, a parameter (query or form body), me.json's credential. */
import { base64DecodeUtf8, uriParts } from '$lib/http/encoding';
import { decodeQueryComponent, splitRawQuery } from '$lib/http/form';
import type { RecordedRequest } from '$lib/http/exchange';
import { headerValue } from '$lib/http/headers';
import { jsonParse } from '$lib/http/json';

export function requestHeader(request: RecordedRequest, name: string): string | undefined {
	return headerValue(request.headers, name);
}

function isFormBody(request: RecordedRequest): boolean {
	const body = request.body ?? '';
	return /x-www-form-urlencoded/i.test(requestHeader(request, 'content-type') ?? '') || /^[^\s=&]+=\S*$/.test(body);
}

/** A parameter from the query string, else from a form body: the two places 4.2 and the sandbox read. */
export function requestParam(request: RecordedRequest, name: string): string | undefined {
	const fromQuery = splitRawQuery(uriParts(request.url).query).find((p) => p.name === name);
	const fromBody = isFormBody(request) ? splitRawQuery(request.body ?? '').find((p) => p.name === name) : undefined;
	return (fromQuery ?? fromBody)?.value;
}

/**
 * The string fields of a JSON object body (a Content-Type naming JSON, or a body that parses as an object), else
 * null: what a client meant to send when it sent JSON, which the token endpoint does not read (4.2).
 */
export function jsonBodyFields(request: RecordedRequest): Record<string, string> | null {
	const body = request.body ?? '';
	if (!/[/+]json\b/i.test(requestHeader(request, 'content-type') ?? '') && !/^\s*\{/.test(body)) return null;
	try {
		const value: unknown = jsonParse(body);
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
		return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
	} catch {
		return null;
	}
}

/** A parameter as the client meant it: where the endpoint reads it, else in a JSON body (to tell whose request it is). */
export function sentParam(request: RecordedRequest, name: string): string | undefined {
	return requestParam(request, name) ?? jsonBodyFields(request)?.[name];
}

/** The credential a me.json request carried: the Bearer header's, else the `access_token` parameter. */
export function meCredential(request: RecordedRequest): string | undefined {
	const bearer = /^Bearer\s+(\S+)$/i.exec(requestHeader(request, 'authorization') ?? '')?.[1];
	return bearer ?? requestParam(request, 'access_token');
}

/** The client ID a token request carried: from Basic/Bearer `base64(id:secret)` credentials, else a parameter. */
export function requestClientId(request: RecordedRequest): string | undefined {
	const credentials = /^(?:Basic|Bearer)\s+(\S+)$/i.exec(requestHeader(request, 'authorization') ?? '')?.[1];
	const decoded = credentials ? base64DecodeUtf8(credentials) : null;
	if (decoded?.includes(':')) return decodeQueryComponent(decoded.slice(0, decoded.indexOf(':')));
	return sentParam(request, 'client_id');
}
