/**
 * Which parameters (query, form, JSON field) and headers of the interface carry a secret, and how each place that
 * shows an exchange shows them. The sandbox's request log (`log`), the explorer's view of a walk (`view`) and a
 * saved or exported run (`run`) each read it; none keeps a list of its own. And every form a known secret's value
 * can take (`encodedForms`), which every place that hides a value it knows looks for.
 */
import { base64OfBytes, encodeComponent, escapeRegExp, formEncode, memoizeByString, replaceEach } from './encoding';
import { MASK } from './exchange';
import { mapJsonStrings } from './form-search';
import { looksLikeJson, parseJson } from './json';

export const SECRET_PARAMETERS = ['client_secret', 'password', 'access_token', 'refresh_token', 'code'] as const;
export type SecretParameter = (typeof SECRET_PARAMETERS)[number];

/** hidden: replaced whole. tail: replaced but for its last `TAIL_LENGTH` characters. kept: shown (and noted). */
export type Showing = 'hidden' | 'tail' | 'kept';

/**
 * `log`: codes and tokens keep a tail, so entries can be matched up. `view`: the person walking sees the grant
 * code and a tail of each token, to tell two apart. `run`: a saved run may be exported, so tokens are hidden
 * whole; grant codes are kept, being single use and short-lived, because a diagnosis needs them.
 */
export type Audience = 'log' | 'view' | 'run';

const SHOWING: Readonly<Record<SecretParameter, Readonly<Record<Audience, Showing>>>> = {
	client_secret: { log: 'hidden', view: 'hidden', run: 'hidden' },
	password: { log: 'hidden', view: 'hidden', run: 'hidden' },
	access_token: { log: 'tail', view: 'tail', run: 'hidden' },
	refresh_token: { log: 'tail', view: 'tail', run: 'hidden' },
	code: { log: 'tail', view: 'kept', run: 'kept' }
};

/** How many last characters a `tail` keeps. */
export const TAIL_LENGTH = 4;

export function isSecretParameter(name: string): name is SecretParameter {
	return Object.hasOwn(SHOWING, name);
}

/** How `audience` shows the value of the parameter or JSON field `name` (exact, case-sensitive, as the interface names it). */
export function showing(name: string, audience: Audience): Showing {
	return isSecretParameter(name) ? SHOWING[name][audience] : 'kept';
}

/**
 * Headers that carry credentials, by what they hold: `authorization` (a scheme and credentials, also
 * Proxy-Authorization), `cookie` (`a=1; b=2`), `set-cookie` (`name=value; attributes`), `token` (the whole value is
 * a credential: the sandbox's admin token, a workspace's key, the explorer's internal-work credential).
 */
export type SecretHeader = 'authorization' | 'cookie' | 'set-cookie' | 'token' | 'credential';

/** The header a sandbox administrator's token may travel in (besides `Authorization: Bearer`). */
export const ADMIN_CREDENTIAL_HEADER = 'x-sandbox-admin-token';

/** The header that carries a sandbox workspace's key (control API calls). */
export const WORKSPACE_KEY_HEADER = 'x-sandbox-workspace-key';

/** The header that marks the explorer's own internal work on a control API call (sandbox/workspace-admission.ts). */
export const INTERNAL_WORK_HEADER = 'x-sandbox-internal-work';

const SECRET_HEADERS: Readonly<Record<string, SecretHeader>> = {
	authorization: 'authorization',
	'proxy-authorization': 'authorization',
	cookie: 'cookie',
	'set-cookie': 'set-cookie',
	[ADMIN_CREDENTIAL_HEADER]: 'token',
	[WORKSPACE_KEY_HEADER]: 'token',
	[INTERNAL_WORK_HEADER]: 'token'
};

/**
 * A header of an app's own naming that says it carries a credential (`X-Client-Secret`, `X-Access-Token`,
 * `X-Api-Key`, `X-Auth-Password`): its whole value is one. A word of the name, so `Sec-WebSocket-Key` is not one.
 */
const CREDENTIAL_HEADER_NAME = /(?:^|[-_])(?:secret|token|password|passwd|api[-_]?key|apikey|credentials?)(?:$|[-_])/i;
/** CORS headers name credentials without carrying any (`Access-Control-Allow-Credentials: true`). */
const NEVER_CREDENTIAL_HEADER = /^access-control-/i;

/** What kind of credential the header `name` (any case) carries, or undefined for none. */
export function secretHeader(name: string): SecretHeader | undefined {
	const lower = name.toLowerCase();
	if (Object.hasOwn(SECRET_HEADERS, lower)) return SECRET_HEADERS[lower];
	return CREDENTIAL_HEADER_NAME.test(lower) && !NEVER_CREDENTIAL_HEADER.test(lower) ? 'credential' : undefined;
}

/* ------------------------------------------------------------------ a secret's value as a server may write it back */

/** Letter case of the hexadecimal digits an encoder writes (`%2F`, `%2f`; `\u00E9`, `\u00e9`; `&#xE9;`, `&#xe9;`). */
type HexCase = 'upper' | 'lower';
const HEX_CASES: readonly HexCase[] = ['upper', 'lower'];

const hex = (n: number, width: number, hexCase: HexCase) => {
	const digits = n.toString(16).padStart(width, '0');
	return hexCase === 'upper' ? digits.toUpperCase() : digits;
};

const utf8 = new TextEncoder();

/**
 * Characters each percent-encoder writes as they are: encodeURIComponent's, the RFC 3986 unreserved ones (PHP's
 * rawurlencode, Go, .NET), the form encoding's (URLSearchParams, Java), encodeURI's (reserved ones kept), Python's
 * `quote` (unreserved and `/`), and none (every byte encoded).
 */
const PERCENT_KEPT: readonly RegExp[] = [
	/^[A-Za-z0-9\-_.!~*'()]$/,
	/^[A-Za-z0-9\-._~]$/,
	/^[A-Za-z0-9*\-._]$/,
	/^[A-Za-z0-9\-_.!~*'();,/?:@&=+$#]$/,
	/^[A-Za-z0-9\-._~/]$/,
	/^$/
];

function percentEncoded(text: string, kept: RegExp, space: '%20' | '+', hexCase: HexCase): string {
	let result = '';
	for (const ch of text.toWellFormed()) {
		if (ch === ' ' && space === '+') result += '+';
		else if (kept.test(ch)) result += ch;
		// An ASCII character is its own byte: TextEncoder is called for the others only (it costs a call into the runtime).
		else if (ch.charCodeAt(0) < 0x80) result += `%${hex(ch.charCodeAt(0), 2, hexCase)}`;
		else for (const byte of utf8.encode(ch)) result += `%${hex(byte, 2, hexCase)}`;
	}
	return result;
}

function percentForms(text: string): string[] {
	return PERCENT_KEPT.flatMap((kept) =>
		(['%20', '+'] as const).flatMap((space) => HEX_CASES.map((hexCase) => percentEncoded(text, kept, space, hexCase)))
	);
}

/** What PHP's htmlentities names: the five of markup and Latin-1 (U+00A0 to U+00FF, in order). */
const HTML_NAMES: ReadonlyMap<number, string> = new Map([
	...Object.entries({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }).map(([ch, name]) => [ch.codePointAt(0)!, name] as const),
	...'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
		.split(' ')
		.map((name, i) => [0xa0 + i, name] as const)
]);

type HtmlReference = 'named' | 'decimal' | HexCase;

function htmlReference(codePoint: number, style: HtmlReference): string {
	if (style === 'named') return `&${HTML_NAMES.get(codePoint) ?? `#${codePoint}`};`;
	return style === 'decimal' ? `&#${codePoint};` : `&#x${hex(codePoint, 1, style)};`;
}

/** HTML escaping: of the markup characters only (htmlspecialchars, html.escape), or of non-ASCII too (htmlentities). */
const HTML_ESCAPED: readonly RegExp[] = [/^[&<>"']$/, /^(?:[&<>"']|[^\x00-\x7f])$/u];

function htmlForms(text: string): string[] {
	return HTML_ESCAPED.flatMap((escaped) =>
		(['named', 'decimal', 'upper', 'lower'] as const).map((style) =>
			[...text].map((ch) => (escaped.test(ch) ? htmlReference(ch.codePointAt(0)!, style) : ch)).join('')
		)
	);
}

const unicodeEscape = (unit: number, hexCase: HexCase) => `\\u${hex(unit, 4, hexCase)}`;

/**
 * JSON string escaping: JSON.stringify's, with `/` written `\/` (PHP), with non-ASCII as `\uXXXX` (Python, PHP),
 * both, and every character as `\uXXXX`, in either case. Mixtures beyond these are caught by decoding (`holdsForm`).
 */
function jsonForms(text: string): string[] {
	const plain = JSON.stringify(text).slice(1, -1);
	const bases = [plain, plain.replace(/\//g, '\\/')];
	const nonAsciiEscaped = (base: string, hexCase: HexCase) => base.replace(/[^\x00-\x7f]/g, (ch) => unicodeEscape(ch.charCodeAt(0), hexCase));
	const everyChar = (hexCase: HexCase) => Array.from({ length: text.length }, (_, i) => unicodeEscape(text.charCodeAt(i), hexCase)).join('');
	return [...bases, ...bases.flatMap((base) => HEX_CASES.map((hexCase) => nonAsciiEscaped(base, hexCase))), ...HEX_CASES.map(everyChar)];
}

const base64Url = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

/** Shorter runs of base64 could be part of any other base64 text. */
const MIN_BASE64_RUN = 6;

/**
 * Base64 and base64url of `text`, with and without padding, and, for each of the three places it can start in a
 * 3-byte group, the run of characters that depends on its bytes alone: so that it is found inside the base64 of
 * something longer, such as the `id:secret` of Basic credentials, whatever comes before it.
 */
function base64Forms(text: string): string[] {
	const bytes = utf8.encode(text.toWellFormed());
	const forms = [base64OfBytes(bytes)];
	for (const offset of [0, 1, 2]) {
		const shifted = new Uint8Array(offset + bytes.length);
		shifted.set(bytes, offset);
		const run = base64OfBytes(shifted).slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
		if (run.length >= MIN_BASE64_RUN) forms.push(run);
	}
	return forms.flatMap((form) => [form, form.replace(/=+$/, '')]).flatMap((form) => [form, base64Url(form)]);
}

/**
 * Letters, digits and `-._`: every encoder keeps them as they are (form encoding included), markup and JSON have
 * nothing to escape in them. Most tokens and codes are written in them (base64url).
 */
const KEPT_EVERYWHERE = /^[A-Za-z0-9\-._]*$/;

/**
 * The forms of one Unicode spelling of a value. For text of KEPT_EVERYWHERE characters, the few forms that differ
 * from it are made directly: making all of them to find those was most of the cost of a body of thousands of tokens
 * (`formsOfAnyText` gives the same set; secrets.test.ts holds that).
 */
export function formsOf(text: string): string[] {
	if (!KEPT_EVERYWHERE.test(text)) return formsOfAnyText(text);
	const everyByte = (hexCase: HexCase) => percentEncoded(text, PERCENT_KEPT.at(-1)!, '%20', hexCase);
	const everyUnit = (hexCase: HexCase) => Array.from({ length: text.length }, (_, i) => unicodeEscape(text.charCodeAt(i), hexCase)).join('');
	return [text, ...HEX_CASES.map(everyByte), ...HEX_CASES.map(everyUnit), ...base64Forms(text)];
}

/** The forms of one Unicode spelling of any value. */
export function formsOfAnyText(text: string): string[] {
	const once = [encodeComponent(text), formEncode(text)];
	const onceEitherCase = [...once, ...once.map((form) => form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()))];
	return [
		text,
		...percentForms(text),
		// Encoded twice: a URL that carried the value, itself sent as a parameter.
		...onceEitherCase.flatMap((form) => [encodeComponent(form), formEncode(form)]),
		...htmlForms(text),
		...jsonForms(text),
		...[text, ...once].flatMap(base64Forms)
	];
}

/**
 * Every way a server could plausibly write `value` back, and so every form to look for to hide it: as it is, in
 * Unicode NFC and NFD; percent-encoded by each common encoder (spaces as `%20` or `+`, hex digits in either case),
 * and encoded twice; as HTML character references (named, decimal, hex); JSON-escaped (`\/`, `\uXXXX` for
 * non-ASCII or for every character, either case); in base64 and base64url, alone or inside the base64 of longer
 * text (Basic credentials). Longest first, so a replacement never leaves part of a longer form behind. Computed
 * once per value (masking and redaction ask for the same few values for every text of every exchange); frozen.
 */
export const encodedForms = memoizeByString((value: string): readonly string[] => {
	if (value === '') return [];
	const spellings = new Set([value, value.normalize('NFC'), value.normalize('NFD')]);
	const forms = new Set([...spellings].flatMap(formsOf));
	forms.delete('');
	return Object.freeze([...forms].sort((a, b) => b.length - a.length));
});

/** One pattern for each list of forms, made once: a text is searched for every form in one pass (the hot path). */
const patterns = new WeakMap<readonly string[], RegExp | null>();

/** Beyond this many characters of forms (a value a target made huge), no pattern: a search per form costs less to set up. */
const MAX_PATTERN_LENGTH = 50_000;

/** Whether `text` holds one of `forms`, as written. */
function holdsAsWritten(text: string, forms: readonly string[]): boolean {
	let pattern = patterns.get(forms);
	if (pattern === undefined) {
		const length = forms.reduce((sum, form) => sum + form.length, 0);
		pattern = forms.length > 0 && length <= MAX_PATTERN_LENGTH ? new RegExp(forms.map(escapeRegExp).join('|')) : null;
		patterns.set(forms, pattern);
	}
	return pattern ? pattern.test(text) : forms.some((form) => text.includes(form));
}


/**
 * A JSON document whose strings, once decoded, hold one of `forms` (written with escapes no listed form has, such
 * as .NET's `\u002B`), written again with each replaced; undefined when there is none. A view that pretty-prints
 * JSON decodes its escapes, so what is hidden must be hidden in the decoded strings too.
 */
function rewrittenJson(text: string, forms: readonly string[], replacement: string): string | undefined {
	if (!text.includes('\\') || !looksLikeJson(text)) return undefined;
	const parsed = parseJson(text);
	if (parsed === undefined) return undefined;
	let found = false;
	const rewritten = mapJsonStrings(parsed, (s) => {
		if (!holdsAsWritten(s, forms)) return s;
		found = true;
		return replaceEach(s, forms, replacement);
	});
	return found ? JSON.stringify(rewritten) : undefined;
}

/** Whether `text` holds any of `forms` (from `encodedForms`), as written or in its JSON strings once decoded. */
export function holdsForm(text: string, forms: readonly string[]): boolean {
	return holdsAsWritten(text, forms) || rewrittenJson(text, forms, '') !== undefined;
}

/** `text` with every one of `forms` (from `encodedForms`) replaced, as written and in its JSON strings once decoded. */
export function hideForms(text: string, forms: readonly string[], replacement: string): string {
	const replaced = replaceEach(text, forms, replacement);
	return rewrittenJson(replaced, forms, replacement) ?? replaced;
}

/** True when any form of `value` occurs in `text`. */
export function containsForm(text: string, value: string): boolean {
	return holdsForm(text, encodedForms(value));
}

/** Replaces every occurrence of every form of `value`. */
export function replaceForms(text: string, value: string, replacement: string): string {
	return hideForms(text, encodedForms(value), replacement);
}

/** An opaque credential written as a literal: long enough that a word or an identifier is not one. */
export const TOKEN_LITERAL = '[A-Za-z0-9._~+/-]{20,}=*';

/** A token-like literal a page's script stores in the browser under a token's name, where it stands in the text. */
export interface StoredToken {
	/** The storage key (`sso_token`). */
	name: string;
	value: string;
	/** Where the value starts in the text. */
	index: number;
}

/** Built once (it runs over every body a saved run holds); matchAll reads a copy, so its lastIndex is never shared. */
const STORED_TOKEN = new RegExp(
	`\\b(?:localStorage|sessionStorage)\\.setItem\\(\\s*(["'\`])([^"'\`]*)\\1\\s*,\\s*(["'\`])(${TOKEN_LITERAL}|${MASK})\\3\\s*\\)`,
	'gi'
);
/** The key names a token; tested apart from STORED_TOKEN, where `[^"']*token[^"']*` backtracked quadratically. */
const TOKEN_KEY = /token/i;

/**
 * `localStorage.setItem("sso_token", "…")` (or sessionStorage): a script that puts a token-like literal under a key
 * named like a token. The token-to-browser rule reads it as evidence; a saved run hides the value, and its mask in
 * that place is still the same evidence.
 */
export function storedTokens(text: string): StoredToken[] {
	return [...text.matchAll(STORED_TOKEN)].filter((m) => TOKEN_KEY.test(m[2]!)).map((m) => ({ name: m[2]!, value: m[4]!, index: m.index + m[0].lastIndexOf(m[4]!) }));
}
