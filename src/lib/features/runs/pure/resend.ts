/**
 * A saved exchange sent again from its run (a curl command pasted without its answer): the request as saved, with
 * the client secret the redaction hid put back when the explorer knows it (the sandbox's own client) and the request
 * is that client's own token exchange with the sandbox, and whether anything else hidden remains, which would make
 * the request a different one.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import { requestClientId } from '$lib/flow/request-params';
import type { RecordedRequest } from '$lib/http/exchange';
import { MASK } from '$lib/http/exchange';
import { base64DecodeUtf8, base64EncodeUtf8, encodeComponent } from '$lib/http/encoding';
import { decodeQueryComponent, mapFormPairs, mapQueryPairs } from '$lib/http/form';

/** Headers a sender sets itself for the request it sends (outbound.ts adds Host, Content-Length, Connection). */
const SENDERS_OWN = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** Whether a value, or any `&`-separated piece of a URL or form body, holds the mask, encoded or not. */
const masked = (text: string) => text.split('&').some((piece) => decodeQueryComponent(piece).includes(MASK));

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

/** The sandbox's client whose secret the explorer knows, and where the sandbox's token endpoint is. */
export interface SecretHolder {
	clientId: string;
	secret: string;
	/** The sandbox's accounts origin, e.g. `http://localhost:3002`. */
	accountsOrigin: string;
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/**
 * Why the holder's secret may not go into this request, or null when it may: only into a token exchange sent to the
 * sandbox's own accounts host by that very client. Anything else (another host the allowlist permits, another
 * client) would hand the secret to whoever the saved request names.
 */
function secretRefusal(exchange: Pick<RecordedExchange, 'step' | 'request'>, holder: SecretHolder): string | null {
	const again = 'Paste it again under "Add evidence" with "send it now", with the secret you mean it to carry.';
	if (exchange.step !== 'token')
		return `The explorer puts the sandbox client's secret back only into a token exchange, and this request is a ${exchange.step} request. ${again}`;
	const origin = originOf(exchange.request.url);
	if (origin !== holder.accountsOrigin)
		return `This request goes to ${origin}, not to the sandbox's accounts host (${holder.accountsOrigin}): the explorer puts the sandbox client's secret back only into requests to the sandbox's own token endpoint. ${again}`;
	const sent = requestClientId(exchange.request);
	if (sent !== holder.clientId)
		return `This request names ${sent === undefined ? 'no client' : `client ${sent}`}, not the run's sandbox client ${holder.clientId}, whose secret the redaction hid: the explorer puts a secret back only for the client it belongs to. ${again}`;
	return null;
}

const changed = (a: RecordedRequest, b: RecordedRequest) => a.url !== b.url || a.body !== b.body || a.headers.some((h, i) => h !== b.headers[i]);

export type Resendable = { ok: true; request: RecordedRequest; secretPutBack: boolean } | { ok: false; message: string };

/**
 * A saved exchange's request as it can be sent again: with the holder's secret back where the redaction hid it (when
 * the request is the holder's own token exchange with the sandbox), or why it cannot be sent as it was.
 */
export function requestToResend(exchange: Pick<RecordedExchange, 'step' | 'request'>, holder: SecretHolder | undefined): Resendable {
	const filled = holder ? withClientSecret(exchange.request, holder.secret) : exchange.request;
	const secretPutBack = changed(filled, exchange.request);
	if (holder && secretPutBack) {
		const refusal = secretRefusal(exchange, holder);
		if (refusal !== null) return { ok: false, message: refusal };
	}
	const hidden = hiddenParts(filled);
	if (hidden.length > 0)
		return {
			ok: false,
			message: `This request was redacted when it was saved (${hidden.join(', ')}), so the explorer cannot send it as it was. Paste it again under "Add evidence" with "send it now".`
		};
	return { ok: true, request: filled, secretPutBack };
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
