/**
 * Small encoding helpers shared by the flow engine. Pure and browser-safe: no Node APIs, no Buffer.
 */

/**
 * encodeURIComponent for any string. An unpaired surrogate, which UTF-8 cannot carry (encodeURIComponent throws on
 * it; a JSON body or a paste can hold one), becomes U+FFFD, as a browser's URL parser writes it.
 */
export function encodeComponent(text: string): string {
	return encodeURIComponent(text.toWellFormed());
}

/** `name=value&…`, each name and value encoded as a URI component. */
export function encodeQuery(params: readonly (readonly [string, string])[]): string {
	return params.map(([name, value]) => `${encodeComponent(name)}=${encodeComponent(value)}`).join('&');
}

/** `application/x-www-form-urlencoded` encoding of one value (spaces become `+`), as URLSearchParams writes it. */
export function formEncode(value: string): string {
	return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * `compute` with its latest results kept. Masking and redaction ask for the forms of the same few secrets for
 * every header and body of every exchange, so computing them once each saves most of a walk step's time. Bounded
 * (emptied when full), since the keys are arbitrary input; results must not be mutated, so they are frozen.
 */
export function memoizeByString<T>(compute: (value: string) => T, limit = 256): (value: string) => T {
	const results = new Map<string, T>();
	return (value) => {
		let result = results.get(value);
		if (result === undefined) {
			result = compute(value);
			if (results.size >= limit) results.clear();
			results.set(value, result);
		}
		return result;
	};
}

/** Replaces every occurrence of each form in turn; for callers that search many texts for the same forms. */
export function replaceEach(text: string, forms: readonly string[], replacement: string): string {
	return forms.reduce((acc, form) => acc.split(form).join(replacement), text);
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** UTF-8 text to base64 (btoa alone only takes Latin-1). */
export function base64EncodeUtf8(text: string): string {
	return base64OfBytes(new TextEncoder().encode(text));
}

/** Bytes to base64. */
export function base64OfBytes(bytes: Uint8Array): string {
	let binary = '';
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}

/** All that atob accepts: the base64 alphabet, padding and ASCII whitespace. */
const BASE64_CHARACTERS = /^[A-Za-z0-9+/=\t\n\f\r ]*$/;

const utf8 = new TextDecoder('utf-8');
/** What a decoder writes for bytes that are not UTF-8; in valid UTF-8 it stands only for its own three bytes. */
const REPLACEMENT = '\uFFFD';

/** How many times the bytes spell U+FFFD (EF BF BD). */
function spelledReplacements(bytes: Uint8Array): number {
	let count = 0;
	for (let i = bytes.indexOf(0xef); i !== -1 && i + 2 < bytes.length; i = bytes.indexOf(0xef, i + 1)) {
		if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) count++;
	}
	return count;
}

/**
 * `bytes` as UTF-8 text, or null when they are not UTF-8. Decoded without throwing: exceptions are slow, and most
 * Bearer tokens are random bytes.
 */
function strictUtf8(bytes: Uint8Array): string | null {
	const decoded = utf8.decode(bytes);
	if (!decoded.includes(REPLACEMENT)) return decoded;
	// Valid only when every replacement character decoded is one the bytes spelt out.
	return decoded.split(REPLACEMENT).length - 1 === spelledReplacements(bytes) ? decoded : null;
}

/** Base64 to UTF-8 text; null when the input is not base64 of valid UTF-8 (then it was not a credentials payload). */
export function base64DecodeUtf8(encoded: string): string | null {
	// The alphabet is checked first because atob refuses by throwing, and exceptions are slow (strictUtf8).
	const text = encoded.trim();
	if (!BASE64_CHARACTERS.test(text)) return null;
	let binary: string;
	try {
		binary = atob(text);
	} catch {
		return null; // the right alphabet with a wrong length or padding
	}
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return strictUtf8(bytes);
}

/** The five parts of a URI reference, as written (RFC 3986 appendix B); works on any string, parseable or not. */
export interface UriParts {
	scheme: string;
	authority: string;
	path: string;
	query: string;
	fragment: string;
}

const URI_REFERENCE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

export function uriParts(uri: string): UriParts {
	const m = URI_REFERENCE.exec(uri);
	return {
		scheme: m?.[1] ?? '',
		authority: m?.[2] ?? '',
		path: m?.[3] ?? '',
		query: m?.[4] ?? '',
		fragment: m?.[5] ?? ''
	};
}

/** Parses an absolute http(s) URL, or says why it is not one. */
export function parseHttpUrl(text: string): { ok: true; url: URL } | { ok: false; reason: string } {
	let url: URL;
	try {
		url = new URL(text.trim());
	} catch {
		return { ok: false, reason: 'it is not an absolute URL (it needs a scheme and a host, e.g. https://host/path)' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return { ok: false, reason: `its scheme is ${url.protocol.slice(0, -1)}, not http or https` };
	return { ok: true, url };
}

/**
 * Whether `bytes` are UTF-8 text; `cut`: they end where a limit cut them, so a character the cut split in two at the
 * very end is no fault of theirs.
 */
export function isUtf8Text(bytes: Uint8Array, cut = false): boolean {
	if (strictUtf8(bytes) !== null) return true;
	if (!cut) return false;
	// A split character leaves at most 3 bytes of its start: drop them from the last lead byte on, and check again.
	for (let end = bytes.length - 1; end >= Math.max(0, bytes.length - 3); end--) {
		if ((bytes[end]! & 0xc0) !== 0x80) return (bytes[end]! & 0x80) !== 0 && strictUtf8(bytes.subarray(0, end)) !== null;
	}
	return false;
}
