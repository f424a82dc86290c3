/**
 * Redaction of a run before it is stored or exported. Removes client secrets, access and refresh tokens,
 * passwords, cookies and Authorization payloads wherever they appear: by name (query and form parameters, JSON
 * fields, headers), then every other occurrence of each value found, in any encoding (raw, URI-component, form,
 * JSON-escaped, encoded twice). Grant codes are kept, because they are single use and short-lived and a diagnosis
 * needs them (the same code exchanged twice, a code sent to me.json), but each place is marked.
 *
 * Each redaction is recorded as what and where, never the value. Redacting a redacted run changes nothing.
 */
import { base64DecodeUtf8, base64EncodeUtf8, decodeQueryComponent, encodedForms, formEncode, memoizeByString } from '$lib/flow/encoding';
import { MASK, type HttpHeader, type RecordedExchange } from '$lib/flow/exchange';
import type { Redaction, Run } from './run';

export interface KnownSecrets {
	clientSecrets?: string[];
	tokens?: string[];
}

export const WHAT = {
	clientSecret: 'client secret',
	accessToken: 'access token',
	refreshToken: 'refresh token',
	password: 'password',
	token: 'token',
	cookie: 'cookie',
	credentials: 'Authorization header payload',
	code: 'grant code (kept)'
} as const;

/** Parameters and JSON fields whose value is always hidden. */
const SENSITIVE_NAMES: Readonly<Record<string, string>> = {
	client_secret: WHAT.clientSecret,
	access_token: WHAT.accessToken,
	refresh_token: WHAT.refreshToken,
	password: WHAT.password
};

/** Words of the protocol a found value must not be part of, or hiding the value would mangle them. */
const PROTOCOL_WORDS = [
	...Object.keys(SENSITIVE_NAMES),
	'grant_type authorization_code redirect_uri client_id response_type code Bearer Basic Authorization'
].join(' ');

/** Below this length a found value is hidden only where it was found by name; elsewhere it may be ordinary text. */
const MIN_SEARCHED_LENGTH = 4;

export const LINK_PLACE = 'the authorisation link';
export const CALLBACK_PLACE = 'the callback URL';

export function exchangePlace(index: number, exchange: Pick<RecordedExchange, 'step'>): string {
	return `exchange ${index + 1} (${exchange.step})`;
}

/* ------------------------------------------------------------------ visiting every text of a run */

type Field =
	| { kind: 'url' }
	| { kind: 'header'; name: string }
	| { kind: 'body'; contentType: string }
	| { kind: 'text' };

type TextMap = (text: string, where: string, field: Field) => string;

function contentTypeOf(headers: HttpHeader[]): string {
	return headers.find((h) => h.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
}

function mapHeaders(headers: HttpHeader[], where: string, fn: TextMap): HttpHeader[] {
	return headers.map((h) => ({ ...h, value: fn(h.value, `${where} header ${h.name}`, { kind: 'header', name: h.name }) }));
}

function mapExchange(exchange: RecordedExchange, where: string, fn: TextMap): RecordedExchange {
	const { request, response, failure } = exchange;
	const text: Field = { kind: 'text' };
	return {
		...exchange,
		label: fn(exchange.label, `${where} label`, text),
		request: {
			...request,
			url: fn(request.url, `${where} URL`, { kind: 'url' }),
			headers: mapHeaders(request.headers, `${where} request`, fn),
			body:
				request.body === null
					? null
					: fn(request.body, `${where} request body`, { kind: 'body', contentType: contentTypeOf(request.headers) })
		},
		response: response && {
			...response,
			headers: mapHeaders(response.headers, `${where} response`, fn),
			body: fn(response.body, `${where} response body`, { kind: 'body', contentType: contentTypeOf(response.headers) })
		},
		failure: failure && { ...failure, message: fn(failure.message, `${where} error message`, text) }
	};
}

/** The run with `fn` applied to every text that could hold a secret: URLs, headers, bodies, labels, messages. */
function mapRunText(run: Run, fn: TextMap): Run {
	return {
		...run,
		title: fn(run.title, 'the title', { kind: 'text' }),
		link: run.link === null ? null : fn(run.link, LINK_PLACE, { kind: 'url' }),
		callback: run.callback && { ...run.callback, url: fn(run.callback.url, CALLBACK_PLACE, { kind: 'url' }) },
		exchanges: run.exchanges.map((e, i) => mapExchange(e, exchangePlace(i, e), fn))
	};
}

/* ------------------------------------------------------------------ query strings and form bodies */

/** `fn` over each `name=value` pair; a returned string replaces the raw value, everything else is kept as written. */
function mapPairs(text: string, fn: (name: string, value: string) => string | undefined): string {
	return text
		.split('&')
		.map((pair) => {
			const eq = pair.indexOf('=');
			if (eq === -1) return pair;
			const rawName = pair.slice(0, eq);
			const replaced = fn(decodeQueryComponent(rawName), decodeQueryComponent(pair.slice(eq + 1)));
			return replaced === undefined ? pair : `${rawName}=${replaced}`;
		})
		.join('&');
}

function mapUrlQuery(url: string, fn: (name: string, value: string) => string | undefined): string {
	const q = url.indexOf('?');
	if (q === -1) return url;
	const hash = url.indexOf('#', q);
	const end = hash === -1 ? url.length : hash;
	return url.slice(0, q + 1) + mapPairs(url.slice(q + 1, end), fn) + url.slice(end);
}

const isMasked = (value: string) => value.includes(MASK);

const looksLikeUrl = (text: string) => /^https?:\/\//i.test(text.trim());

/** A body of `name=value` pairs with no whitespace, as form bodies are. */
const looksLikeForm = (body: string) => /^[^\s=&]+=\S*$/.test(body);

const looksLikeJson = (body: string) => /^\s*[{[]/.test(body);

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Every `[key, value]` with a string value, at any depth of a parsed JSON document. */
function jsonStringEntries(value: unknown): [string, string][] {
	if (Array.isArray(value)) return value.flatMap(jsonStringEntries);
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value).flatMap(([k, v]): [string, string][] =>
		typeof v === 'string' ? [[k, v]] : jsonStringEntries(v)
	);
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every way a value can be written where it would be found again: each encoding, and each encoded once more. */
const searchForms = memoizeByString((value: string): readonly string[] => {
	const forms = new Set([
		...encodedForms(value),
		...encodedForms(encodeURIComponent(value)),
		...encodedForms(formEncode(value))
	]);
	return Object.freeze([...forms].sort((a, b) => b.length - a.length));
});

/* ------------------------------------------------------------------ the redactor */

interface Needle {
	what: string;
	value: string;
}

const CREDENTIALS = /^(\S+)(\s+)(.*)$/s;

/** Printable text with a colon: the `id:secret` payload of a Basic (or the sandbox's Bearer) credentials header. */
function credentialsPayload(encoded: string): { id: string; secret: string } | null {
	const decoded = base64DecodeUtf8(encoded);
	if (decoded === null || /[\u0000-\u001f]/.test(decoded)) return null;
	const colon = decoded.indexOf(':');
	return colon === -1 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

class Redactor {
	readonly redactions: Redaction[];
	private readonly needles: Needle[] = [];

	constructor(
		private readonly codes: ReadonlySet<string>,
		earlier: Redaction[]
	) {
		this.redactions = [...earlier];
	}

	record(what: string, where: string): void {
		if (!this.redactions.some((r) => r.what === what && r.where === where)) this.redactions.push({ what, where });
	}

	/** A value to hide everywhere else it appears. Passwords only where found: they are often ordinary words. */
	addNeedle(what: string, value: string): void {
		if (value.length < MIN_SEARCHED_LENGTH || isMasked(value) || PROTOCOL_WORDS.includes(value)) return;
		if (!this.needles.some((n) => n.value === value)) this.needles.push({ what, value });
	}

	/** First pass: hide values by their name, and learn them as needles for the second pass. */
	readonly structural: TextMap = (text, where, field) => {
		switch (field.kind) {
			case 'url':
				return mapUrlQuery(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
			case 'header':
				return this.header(field.name.toLowerCase(), text, where);
			case 'body':
				return this.body(text, where, field.contentType);
			case 'text':
				return text;
		}
	};

	/** Second pass: every form of every value learnt, wherever it is. */
	readonly searched: TextMap = (text, where) => {
		let result = text;
		for (const needle of [...this.needles].sort((a, b) => b.value.length - a.value.length)) {
			for (const form of searchForms(needle.value)) {
				if (!result.includes(form)) continue;
				this.record(needle.what, where);
				result = result.split(form).join(MASK);
			}
		}
		return result;
	};

	/** A parameter's new raw value, or undefined to keep it. */
	private param(name: string, value: string, where: string): string | undefined {
		if (value === '' || isMasked(value)) return undefined;
		if (name === 'code' || (name === 'access_token' && this.codes.has(value))) {
			this.record(WHAT.code, where);
			return undefined;
		}
		const what = SENSITIVE_NAMES[name];
		if (what === undefined) return undefined;
		this.record(what, where);
		if (what !== WHAT.password) this.addNeedle(what, value);
		return MASK;
	}

	private header(name: string, value: string, where: string): string {
		if (name === 'cookie') return this.cookies(value, where);
		if (name === 'set-cookie') return this.setCookies(value, where);
		if (name === 'authorization' || name === 'proxy-authorization') return this.authorization(value, where);
		if (looksLikeUrl(value)) return this.structural(value, where, { kind: 'url' });
		return value;
	}

	/** `a=1; b=2`: each value hidden, names kept (they help a diagnosis and are not secret). */
	private cookies(value: string, where: string): string {
		return value
			.split(';')
			.map((pair) => this.cookie(pair, where))
			.join(';');
	}

	/** `name=value; Path=/; HttpOnly` (one per line when a recorder joined several): only the value is hidden. */
	private setCookies(value: string, where: string): string {
		return value
			.split('\n')
			.map((line) => {
				const semi = line.indexOf(';');
				return semi === -1 ? this.cookie(line, where) : this.cookie(line.slice(0, semi), where) + line.slice(semi);
			})
			.join('\n');
	}

	private cookie(pair: string, where: string): string {
		const eq = pair.indexOf('=');
		const value = eq === -1 ? '' : pair.slice(eq + 1);
		if (value.trim() === '' || isMasked(value)) return pair;
		this.record(WHAT.cookie, `${where}: ${pair.slice(0, eq).trim()}`);
		return `${pair.slice(0, eq)}=${MASK}`;
	}

	private authorization(value: string, where: string): string {
		const match = CREDENTIALS.exec(value.trim());
		const scheme = match?.[1] ?? '';
		const payload = match?.[3] ?? value.trim();
		if (payload === '' || isMasked(payload)) return value;
		const credentials = /^(basic|bearer)$/i.test(scheme) ? credentialsPayload(payload) : null;
		if (credentials) {
			if (credentials.secret === '' || isMasked(credentials.secret)) return value;
			this.record(WHAT.clientSecret, `${where} (inside its base64 payload)`);
			this.addNeedle(WHAT.clientSecret, credentials.secret);
			this.addNeedle(WHAT.clientSecret, decodeQueryComponent(credentials.secret));
			return `${scheme}${match?.[2] ?? ' '}${base64EncodeUtf8(`${credentials.id}:${MASK}`)}`;
		}
		if (/^bearer$/i.test(scheme) && this.codes.has(payload)) {
			this.record(WHAT.code, where);
			return value;
		}
		const isBearer = /^bearer$/i.test(scheme);
		this.record(isBearer ? WHAT.accessToken : WHAT.credentials, where);
		if (isBearer) this.addNeedle(WHAT.accessToken, payload);
		return match ? `${scheme}${match[2]}${MASK}` : MASK;
	}

	private body(text: string, where: string, contentType: string): string {
		if (contentType.includes('json') || looksLikeJson(text)) {
			const parsed = parseJson(text);
			if (parsed !== undefined) return this.json(text, parsed, where);
		}
		if (contentType.includes('x-www-form-urlencoded') || looksLikeForm(text))
			return mapPairs(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
		return text;
	}

	/** Sensitive fields replaced in the text as written, so the rest of the body keeps its exact form. */
	private json(text: string, parsed: unknown, where: string): string {
		let result = text;
		let rewrite = false;
		for (const [key, value] of jsonStringEntries(parsed)) {
			if (this.param(key, value, `${where} field ${key}`) !== MASK) continue;
			const escaped = JSON.stringify(value).slice(1, -1);
			const forms = [...new Set([escaped, escaped.replace(/\//g, '\\/')])].map(escapeRegExp).join('|');
			const pattern = new RegExp(`("${escapeRegExp(key)}"\\s*:\\s*")(?:${forms})(")`, 'g');
			const next = result.replace(pattern, `$1${MASK}$2`);
			if (next === result) rewrite = true;
			result = next;
		}
		// An exotic escape the pattern missed: write the document again, values hidden, rather than keep a secret.
		return rewrite ? JSON.stringify(maskJson(parsed)) : result;
	}
}

function maskJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(maskJson);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && k in SENSITIVE_NAMES ? MASK : maskJson(v)])
	);
}

/** Every grant code the run carries: `code` parameters of its URLs (link, callback, requests, redirects) and forms. */
export function grantCodes(run: Run): Set<string> {
	const codes = new Set<string>();
	const collect = (name: string, value: string) => {
		if (name === 'code' && value !== '') codes.add(value);
		return undefined;
	};
	mapRunText(run, (text, _where, field) => {
		const isUrl = field.kind === 'url' || (field.kind === 'header' && looksLikeUrl(text));
		if (isUrl) mapUrlQuery(text, collect);
		else if (field.kind === 'body' && looksLikeForm(text)) mapPairs(text, collect);
		return text;
	});
	return codes;
}

export function redactRun(run: Run, known: KnownSecrets = {}): Run {
	const redactor = new Redactor(grantCodes(run), run.redactions);
	for (const secret of known.clientSecrets ?? []) redactor.addNeedle(WHAT.clientSecret, secret);
	for (const token of known.tokens ?? []) redactor.addNeedle(WHAT.token, token);
	const named = mapRunText(run, redactor.structural);
	const searched = mapRunText(named, redactor.searched);
	return { ...searched, redactions: redactor.redactions };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What was redacted, for a person: "redacted 2 cookies", "redacted the client secret (1 place)". */
export function describeRedactions(redactions: Redaction[]): string[] {
	const counts = new Map<string, number>();
	for (const r of redactions) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
	return [...counts].map(([what, n]) => {
		if (what === WHAT.cookie) return `redacted ${plural(n, 'cookie')}`;
		if (what === WHAT.code)
			return `kept the grant code visible (${plural(n, 'place')}): it is single use and short-lived, and the diagnosis needs it`;
		return `redacted the ${what} (${plural(n, 'place')})`;
	});
}
