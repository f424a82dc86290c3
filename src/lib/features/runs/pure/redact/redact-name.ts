/**
 * The redaction's first pass over one part of a run: values hidden by their name (query and form parameters, JSON
 * fields, headers, Authorization payloads), and learnt so the second pass (redact-search.ts) hides them everywhere.
 * Grant codes are kept, each place marked.
 */
import { isPlaceholder } from '$lib/http/placeholder';
import { base64DecodeUtf8, base64EncodeUtf8 } from '$lib/http/encoding';
import { decodeQueryComponent, mapFormPairs, mapMultipartFields, mapQueryPairs } from '$lib/http/form';
import { SECRET_PARAMETERS, isSecretParameter, secretHeader, showing, storedTokens, type SecretParameter } from '$lib/http/secrets';
import { MASK } from '$lib/http/exchange';
import type { Redaction } from '../run';
import { looksLikeJson, parseJson } from '$lib/http/json';
import { isMasked, jsonStringEntries, looksLikeForm, looksLikeUrl, type PartMap, type TextMap } from './redact-texts';

export const WHAT = {
	clientSecret: 'client secret',
	accessToken: 'access token',
	refreshToken: 'refresh token',
	password: 'password',
	token: 'token',
	cookie: 'cookie',
	credentials: 'Authorization header payload',
	/** A header of the app's own naming whose name says it carries a credential (`X-Client-Secret`). */
	credentialHeader: 'credential header',
	code: 'grant code (kept)',
	/** A grant code that can still be exchanged, replaced for anyone but the run's owner (usable-codes.ts). */
	hiddenCode: 'grant code (hidden while it can still be used)'
} as const;

/** The name a hidden grant code goes by in every text of the run (`n` from 1), which the notes on it quote. */
export const hiddenCodeName = (n: number) => `hidden-code-${n}`;

/** What each secret parameter or JSON field is, for a person. */
const WHAT_PARAMETER: Readonly<Record<SecretParameter, string>> = {
	client_secret: WHAT.clientSecret,
	access_token: WHAT.accessToken,
	refresh_token: WHAT.refreshToken,
	password: WHAT.password,
	code: WHAT.code
};

/** Words of the protocol a found value must not be part of, or hiding the value would mangle them. */
const PROTOCOL_WORDS = [
	...SECRET_PARAMETERS,
	'grant_type authorization_code redirect_uri client_id response_type code Bearer Basic Authorization'
].join(' ');

/** Below this length a found value is hidden only where it was found by name; elsewhere it may be ordinary text. */
const MIN_SEARCHED_LENGTH = 4;

export interface Needle {
	what: string;
	value: string;
}

/** Whether a value found is hidden everywhere else too; shorter values may be ordinary text elsewhere. */
export const searchable = (value: string) => value.length >= MIN_SEARCHED_LENGTH && !isMasked(value) && !PROTOCOL_WORDS.includes(value);

const CREDENTIALS = /^(\S+)(\s+)(.*)$/s;

/** Printable text with a colon: the `id:secret` payload of a Basic (or the sandbox's Bearer) credentials header. */
function credentialsPayload(encoded: string): { id: string; secret: string } | null {
	const decoded = base64DecodeUtf8(encoded);
	if (decoded === null || /[\u0000-\u001f]/.test(decoded)) return null;
	const colon = decoded.indexOf(':');
	return colon === -1 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The first pass over one part of a run: values hidden by their name, and learnt to be hidden everywhere. */
class NameRedactor {
	readonly redactions: Redaction[] = [];
	readonly needles: Needle[] = [];
	/** What `redactions` and `needles` hold, for a check in constant time: a body of thousands of fields adds as many. */
	private readonly recorded = new Set<string>();
	private readonly needleValues = new Set<string>();

	constructor(private readonly codes: ReadonlySet<string>) {}

	record(what: string, where: string): void {
		const key = `${what}\u0000${where}`;
		if (this.recorded.has(key)) return;
		this.recorded.add(key);
		this.redactions.push({ what, where });
	}

	/** A value to hide everywhere else it appears. Passwords only where found: they are often ordinary words. */
	addNeedle(what: string, value: string): void {
		if (!searchable(value) || this.needleValues.has(value)) return;
		this.needleValues.add(value);
		this.needles.push({ what, value });
	}

	readonly structural: TextMap = (text, where, field) => {
		switch (field.kind) {
			case 'url':
				return mapQueryPairs(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
			case 'header':
				return this.header(field.name, text, where);
			case 'body':
				return this.body(text, where, field.contentType);
			case 'text':
				return text;
		}
	};

	/** A parameter's new raw value, or undefined to keep it. */
	private param(name: string, value: string, where: string): string | undefined {
		if (value === '' || isMasked(value)) return undefined;
		// A grant code is kept, noted; so is an access_token parameter that carries one (a code sent to me.json). One a
		// sanitiser already replaced (`[REDACTED]`) was not kept by anyone: nothing to say.
		if (name === 'code' && isPlaceholder(value)) return undefined;
		if (name === 'code' || (name === 'access_token' && this.codes.has(value))) {
			this.record(WHAT.code, where);
			return undefined;
		}
		if (!isSecretParameter(name) || showing(name, 'run') !== 'hidden') return undefined;
		const what = WHAT_PARAMETER[name];
		this.record(what, where);
		if (what !== WHAT.password) this.addNeedle(what, value);
		return MASK;
	}

	private header(name: string, value: string, where: string): string {
		switch (secretHeader(name)) {
			case 'cookie':
				return this.cookies(value, where);
			case 'set-cookie':
				return this.setCookies(value, where);
			case 'authorization':
				return this.authorization(value, where);
			case 'credential':
				if (value === '' || isMasked(value)) return value;
				this.record(WHAT.credentialHeader, where);
				this.addNeedle(WHAT.credentialHeader, value);
				return MASK;
		}
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
			return mapFormPairs(text, (name, value) => this.param(name, value, `${where} parameter ${name}`));
		if (contentType.includes('multipart/form-data')) {
			const fields = mapMultipartFields(text, (name, value) => (this.param(name, value, `${where} field ${name}`) === MASK ? MASK : undefined));
			return this.storedTokens(fields, where);
		}
		return this.storedTokens(text, where);
	}

	/** A page's script storing a token-like literal under a token's name (`sso_token`): the value is hidden. */
	private storedTokens(text: string, where: string): string {
		let result = text;
		// From the last, so each earlier index still points into the text as written.
		for (const { name, value, index } of storedTokens(text).reverse()) {
			if (isMasked(value)) continue;
			this.record(WHAT.token, `${where}: stored as ${name}`);
			this.addNeedle(WHAT.token, value);
			result = `${result.slice(0, index)}${MASK}${result.slice(index + value.length)}`;
		}
		return result;
	}

	/** Sensitive fields replaced in the text as written, so the rest of the body keeps its exact form. */
	private json(text: string, parsed: unknown, where: string): string {
		// The fields to hide, by name and value; then one pass over the text (a pattern per field was quadratic).
		const hidden = new Set<string>();
		for (const [key, value] of jsonStringEntries(parsed)) {
			if (this.param(key, value, `${where} field ${key}`) === MASK) hidden.add(memberKey(key, value));
		}
		if (hidden.size === 0) return text;
		const result = text.replace(JSON_STRING_MEMBER, (member, rawKey: string, colon: string, rawValue: string) =>
			hidden.has(memberKey(jsonStringText(rawKey), jsonStringText(rawValue))) ? `"${rawKey}"${colon}"${MASK}"` : member
		);
		// Checked on the result, not by counting: a pass that lost its place (a string ":" in an array) could count
		// one copy twice and miss another. Anything left: write the document again, values hidden.
		const left = parseJson(result);
		return left !== undefined && !jsonStringEntries(left).some(([key, value]) => hidden.has(memberKey(key, value))) ? result : JSON.stringify(maskJson(parsed));
	}
}

/** A string member of a JSON text, `"name": "value"`, its name and value as written (escapes and all). */
const JSON_STRING_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const memberKey = (name: string, value: string) => `${name}\u0000${value}`;

/** The text of a JSON string's contents as written; as written when it does not decode. */
function jsonStringText(raw: string): string {
	if (!raw.includes('\\')) return raw;
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		return raw;
	}
}

function maskJson(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(maskJson);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && showing(k, 'run') === 'hidden' ? MASK : maskJson(v)])
	);
}

/**
 * The grant codes one part carries: `code` parameters of its URLs (link, callback, requests, redirects), forms and
 * JSON bodies (the same places the first pass keeps a code, marked as kept).
 */
export function codesIn<T>(part: T, map: PartMap<T>): string[] {
	const codes: string[] = [];
	const collect = (name: string, value: string) => {
		if (name === 'code' && value !== '') codes.push(value);
		return undefined;
	};
	map(part, (text, _where, field) => {
		const isUrl = field.kind === 'url' || (field.kind === 'header' && looksLikeUrl(text));
		if (isUrl) mapQueryPairs(text, collect);
		else if (field.kind === 'body' && looksLikeForm(text)) mapFormPairs(text, collect);
		else if (field.kind === 'body' && looksLikeJson(text)) for (const [name, value] of jsonStringEntries(parseJson(text))) collect(name, value);
		return text;
	});
	return codes;
}

export interface PartRedaction<T> {
	value: T;
	redactions: Redaction[];
}

export interface NamedPart<T> extends PartRedaction<T> {
	needles: Needle[];
}

export function redactByName<T>(part: T, map: PartMap<T>, codes: ReadonlySet<string>): NamedPart<T> {
	const redactor = new NameRedactor(codes);
	return { value: map(part, redactor.structural), redactions: redactor.redactions, needles: redactor.needles };
}
