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

/** The most header lines a multipart part may have before its blank line: more is no form field. */
const MAX_PART_HEADER_LINES = 20;

/**
 * `fn` over each field of a multipart/form-data body (`curl -F`), given its name and value (up to the end of its
 * line: a credential is one line); a returned string replaces the value. Read with indexOf, line by line, so its
 * cost is linear in the body whatever it holds.
 */
export function mapMultipartFields(text: string, fn: (name: string, value: string) => string | undefined): string {
	const lower = text.toLowerCase();
	let out = '';
	let copied = 0;
	let at = lower.indexOf('content-disposition:');
	while (at !== -1) {
		const lineEnd = lineEndAt(text, at);
		const name = /\bname="([^"]*)"/.exec(text.slice(at, lineEnd))?.[1];
		// The blank line that ends the part's headers, within a few lines.
		let line = nextLine(text, lineEnd);
		for (let n = 0; line < text.length && n < MAX_PART_HEADER_LINES && lineEndAt(text, line) !== line; n++) line = nextLine(text, lineEndAt(text, line));
		const valueAt = line < text.length && lineEndAt(text, line) === line ? nextLine(text, line) : -1;
		if (name !== undefined && valueAt !== -1 && valueAt <= text.length) {
			const valueEnd = lineEndAt(text, valueAt);
			const replaced = fn(name, text.slice(valueAt, valueEnd));
			if (replaced !== undefined) {
				out += text.slice(copied, valueAt) + replaced;
				copied = valueEnd;
			}
		}
		at = lower.indexOf('content-disposition:', lineEnd);
	}
	return out + text.slice(copied);
}

/** Where the line starting at or containing `from` ends (its \r\n or \n, or the text's end). */
function lineEndAt(text: string, from: number): number {
	const nl = text.indexOf('\n', from);
	if (nl === -1) return text.length;
	return nl > from && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Where the next line starts, after the line end at `end`. */
function nextLine(text: string, end: number): number {
	if (text[end] === '\r' && text[end + 1] === '\n') return end + 2;
	return end + 1;
}
