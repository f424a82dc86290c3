/**
 * A saved exchange sent again from its run (a curl command pasted without its answer): the request as saved, with
 * the client secret the redaction hid put back when the explorer knows it (the sandbox's own client), and whether
 * anything else hidden remains, which would make the request a different one.
 */
import type { RecordedRequest } from '$lib/http/exchange';
import { MASK } from '$lib/http/exchange';
import { base64DecodeUtf8, base64EncodeUtf8, encodeComponent } from '$lib/http/encoding';
import { decodeQueryComponent, mapFormPairs, mapQueryPairs } from '$lib/http/form';

/** Headers a sender sets itself for the request it sends (outbound.ts adds Host, Content-Length, Connection). */
const SENDERS_OWN = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

const masked = (value: string) => decodeQueryComponent(value).includes(MASK);

/** The request with each hidden `client_secret` (parameter, form field, Basic credentials) set to `secret`. */
export function withClientSecret(request: RecordedRequest, secret: string): RecordedRequest {
	const fill = (name: string, value: string) => (name === 'client_secret' && masked(value) ? encodeComponent(secret) : undefined);
	return {
		...request,
		url: mapQueryPairs(request.url, fill),
		body: request.body === null ? null : mapFormPairs(request.body, fill),
		headers: request.headers.map((h) => {
			const basic = /^(Basic|Bearer)(\s+)(\S+)$/i.exec(h.value);
			const decoded = h.name.toLowerCase() === 'authorization' && basic ? base64DecodeUtf8(basic[3]!) : null;
			const colon = decoded?.indexOf(':') ?? -1;
			if (!basic || decoded === null || colon === -1 || !decoded.slice(colon + 1).includes(MASK)) return h;
			return { ...h, value: `${basic[1]}${basic[2]}${base64EncodeUtf8(`${decoded.slice(0, colon)}:${secret}`)}` };
		})
	};
}

/** What of the request is still hidden (a token, a cookie…): named for a person, empty when it can be sent as it was. */
export function hiddenParts(request: RecordedRequest): string[] {
	const parts: string[] = [];
	if (masked(request.url)) parts.push('its URL');
	if (request.body !== null && masked(request.body)) parts.push('its body');
	for (const h of request.headers) {
		const decoded = /^(?:Basic|Bearer)\s+(\S+)$/i.exec(h.value)?.[1];
		if (h.value.includes(MASK) || (decoded && base64DecodeUtf8(decoded)?.includes(MASK))) parts.push(`its ${h.name} header`);
	}
	return parts;
}

/** The request's headers as a sender passes them on: without those it sets itself. */
export function headersToSend(request: RecordedRequest): RecordedRequest['headers'] {
	return request.headers.filter((h) => !SENDERS_OWN.has(h.name.toLowerCase()));
}
