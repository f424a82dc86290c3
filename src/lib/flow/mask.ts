/**
 * Hides the client secret and tokens in a recorded exchange before it leaves the server. Every form a value can
 * take (`encodedForms`: encoded for a URL, HTML or JSON, in another Unicode spelling, in base64) is hidden, and
 * inside a base64 `Basic`/`Bearer` credentials payload the value is hidden once decoded. The client secret is replaced by MASK alone; tokens keep their last 4 characters as a
 * hint, so a person can tell two tokens apart.
 */
import { base64DecodeUtf8, base64EncodeUtf8, uriParts } from '../http/encoding';
import { splitRawQuery } from '../http/form';
import { headerValue } from '../http/headers';
import { TAIL_LENGTH, encodedForms, hideForms, holdsForm, showing } from '../http/secrets';
import type { MaskedValue, RecordedExchange } from './exchange';
import { MASK, type HttpHeader } from '../http/exchange';
import type { Frozen } from '../frozen';
import { jsonParse } from '../http/json';

export interface SecretsToMask {
	clientSecret?: string;
	accessTokens?: string[];
	refreshTokens?: string[];
	/** A sandbox workspace's key, or the sandbox's admin or internal-work credential: hidden whole, named as such. */
	sandboxKeys?: string[];
}

interface Needle {
	kind: MaskedValue['kind'];
	value: string;
	forms: readonly string[];
	hint: string;
}

/** Below this length a token's last 4 characters would give away too much of it, so no hint is shown. */
const MIN_TOKEN_LENGTH_FOR_HINT = 16;

/** What the walk's view shows of a value of `kind`: a tail only if the vocabulary says so and the value is long. */
function hint(kind: Needle['kind'], value: string): string {
	return showing(kind, 'view') === 'tail' && value.length >= MIN_TOKEN_LENGTH_FOR_HINT ? `…${value.slice(-TAIL_LENGTH)}` : '';
}

const needle = (kind: Needle['kind'], value: string): Needle => ({ kind, value, forms: encodedForms(value), hint: hint(kind, value) });

function needlesOf(secrets: SecretsToMask): Needle[] {
	const needles: Needle[] = [
		...(secrets.clientSecret ? [needle('client_secret', secrets.clientSecret)] : []),
		...(secrets.accessTokens ?? []).map((value) => needle('access_token', value)),
		...(secrets.refreshTokens ?? []).map((value) => needle('refresh_token', value)),
		...(secrets.sandboxKeys ?? []).map((value) => needle('sandbox_key', value))
	];
	// Longest first, so a value that contains another is hidden whole.
	return needles.filter((n) => n.value !== '').sort((a, b) => b.value.length - a.value.length);
}

/** How a text is structured, to say where in it a value was found. */
type Shape = 'query' | 'form' | 'json' | 'plain';

/** Where in a text a value sits, for the "what was masked" note. */
function whereIn(text: string, { value, forms }: Needle, shape: Shape, place: string): string {
	if (shape === 'query' || shape === 'form') {
		const params = splitRawQuery(shape === 'query' ? uriParts(text).query : text);
		const param = params.find((p) => holdsForm(p.rawValue, forms) || p.value.includes(value));
		if (param) return `${shape === 'query' ? 'query' : 'form'} parameter ${param.name}`;
	}
	if (shape === 'json') {
		const key = jsonKeyHolding(text, value);
		if (key) return `${place} field ${key}`;
	}
	return place;
}

function jsonKeyHolding(text: string, value: string): string | undefined {
	try {
		const parsed: unknown = jsonParse(text);
		if (parsed === null || typeof parsed !== 'object') return undefined;
		return Object.entries(parsed).find(([, v]) => typeof v === 'string' && v.includes(value))?.[0];
	} catch {
		return undefined;
	}
}

function bodyShape(headers: readonly Frozen<HttpHeader>[], body: string): Shape {
	const type = headerValue(headers, 'content-type')?.toLowerCase() ?? '';
	if (type.includes('json') || /^\s*[{[]/.test(body)) return 'json';
	if (type.includes('x-www-form-urlencoded')) return 'form';
	return 'plain';
}

const CREDENTIALS_HEADER = /^(Basic|Bearer)(\s+)(\S+)$/i;

class Masker {
	readonly masked: MaskedValue[] = [];
	constructor(private readonly needles: Needle[]) {}

	/** `text` with every needle hidden, noting where each was found. */
	text(text: string, shape: Shape, place: string): string {
		let result = text;
		for (const needle of this.needles) {
			if (!holdsForm(result, needle.forms)) continue;
			this.note(needle, whereIn(result, needle, shape, place));
			result = hideForms(result, needle.forms, MASK + needle.hint);
		}
		return result;
	}

	/**
	 * A header value. A `Basic`/`Bearer` payload is searched after base64 decoding first, and written again with
	 * the value hidden inside, rather than hidden as a run of base64 (which would leave no payload to read).
	 */
	header(header: Frozen<HttpHeader>, place: string): HttpHeader {
		const match = CREDENTIALS_HEADER.exec(header.value);
		const decoded = match?.[3] ? base64DecodeUtf8(match[3]) : null;
		if (match && decoded !== null) {
			const payload = this.text(decoded, 'plain', `${place} ${header.name} (inside its base64 payload)`);
			if (payload !== decoded) return { ...header, value: `${match[1]}${match[2]}${base64EncodeUtf8(payload)}` };
		}
		return { ...header, value: this.text(header.value, 'plain', `${place} ${header.name}`) };
	}

	private note(needle: Needle, where: string): void {
		const seen = this.masked.some((m) => m.kind === needle.kind && m.where === where && m.hint === needle.hint);
		if (!seen) this.masked.push({ kind: needle.kind, where, hint: needle.hint });
	}
}

export function maskExchange(exchange: Frozen<RecordedExchange>, secrets: SecretsToMask): RecordedExchange {
	const masker = new Masker(needlesOf(secrets));
	const { request, response, failure } = exchange;
	const maskedRequest = {
		...request,
		url: masker.text(request.url, 'query', 'URL'),
		headers: request.headers.map((h) => masker.header(h, 'request header')),
		body: request.body === null ? null : masker.text(request.body, bodyShape(request.headers, request.body), 'request body')
	};
	const maskedResponse = response && {
		...response,
		headers: response.headers.map((h) => masker.header(h, 'response header')),
		body: masker.text(response.body, bodyShape(response.headers, response.body), 'response')
	};
	const maskedFailure = failure && { ...failure, message: masker.text(failure.message, 'plain', 'error message') };
	return {
		...exchange,
		request: maskedRequest,
		response: maskedResponse,
		failure: maskedFailure,
		masked: [...exchange.masked, ...masker.masked]
	};
}
