/**
 * Form-encoded text (`application/x-www-form-urlencoded` bodies and query strings): decoding a component, and the
 * one walk over its `name=value` pairs that the masking of the sandbox's log, the explorer's redaction of runs and
 * the flow engine's parsing share. Pure and browser-safe.
 */

/** One `name=value` pair, as written (raw) and after one decode. */
export interface RawQueryParam {
	rawName: string;
	rawValue: string;
	name: string;
	value: string;
}

/** A component that decodes to itself: no escape, no `+`. */
const PLAIN_COMPONENT = /^[^%+]*$/;

/**
 * Decodes one component once, as a server reading a query string does: `+` is a space, `%XX` is a byte.
 * Malformed `%` sequences are kept as they are rather than thrown on (URLSearchParams' lenient rule).
 */
export function decodeQueryComponent(raw: string): string {
	// Without `%` or `+` there is nothing to decode; most components (ids, paths, masked values) are such, and a
	// URLSearchParams per component was most of the time of showing, masking and linting a walk's exchanges.
	if (PLAIN_COMPONENT.test(raw) && raw.isWellFormed()) return raw;
	// `raw` never holds `&` (the caller split on it), so it is exactly one value for URLSearchParams.
	return new URLSearchParams(`v=${raw.replace(/#/g, '%23')}`).get('v') ?? '';
}

/** `decodeQueryComponent` that refuses what a strict server refuses: null for a malformed `%` sequence or UTF-8. */
export function decodeFormComponentStrictly(raw: string): string | null {
	try {
		return decodeURIComponent(raw.replaceAll('+', ' '));
	} catch {
		return null;
	}
}

/** Splits a query string (with or without its leading `?`) into its pairs, in order, keeping the raw text. */
export function splitRawQuery(query: string): RawQueryParam[] {
	const text = query.startsWith('?') ? query.slice(1) : query;
	if (text === '') return [];
	return text
		.split('&')
		.filter((pair) => pair !== '')
		.map((pair) => {
			const eq = pair.indexOf('=');
			const rawName = eq === -1 ? pair : pair.slice(0, eq);
			const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
			return { rawName, rawValue, name: decodeQueryComponent(rawName), value: decodeQueryComponent(rawValue) };
		});
}

/**
 * `fn` over each `name=value` pair of form-encoded text, given decoded; a returned string replaces the pair's
 * raw value, and everything else (pairs without `=`, separators, other values) is kept byte for byte.
 */
export function mapFormPairs(text: string, fn: (name: string, value: string) => string | undefined): string {
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

/** `mapFormPairs` over the query of a URL or request target; the rest of it, fragment included, is kept. */
export function mapQueryPairs(url: string, fn: (name: string, value: string) => string | undefined): string {
	const q = url.indexOf('?');
	if (q === -1) return url;
	const hash = url.indexOf('#', q);
	const end = hash === -1 ? url.length : hash;
	return url.slice(0, q + 1) + mapFormPairs(url.slice(q + 1, end), fn) + url.slice(end);
}

/**
 * A field of a multipart/form-data body (`curl -F`): its part's headers, up to the blank line, then its value, up to
 * the end of its line (a credential is one line). Bounded per part: no pattern here backtracks across parts.
 */
const MULTIPART_FIELD = /(Content-Disposition:[^\r\n]*?\bname="([^"\r\n]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?\r?\n)([^\r\n]*)/gi;

/** `fn` over each field of a multipart/form-data body, given its name and value; a returned string replaces the value. */
export function mapMultipartFields(text: string, fn: (name: string, value: string) => string | undefined): string {
	return text.replace(MULTIPART_FIELD, (part, head: string, name: string, value: string) => {
		const replaced = fn(name, value);
		return replaced === undefined ? part : `${head}${replaced}`;
	});
}
