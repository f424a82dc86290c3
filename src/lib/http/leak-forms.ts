/**
 * The tests' own oracle of how a secret could leak: every form a server echoing a request could write it in, built
 * independently of the secrets module's encodedForms (which it checks). For tests only.
 */

/** UTF-8 text in base64, as a server writes it (btoa alone takes Latin-1). */
function base64(text: string): string {
	return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** HTML's named references for the markup characters and the accented letters the tests' secrets use. */
const HTML_NAMED: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39', é: 'eacute', ü: 'uuml' };

/** `text` with its markup characters and non-ASCII written as HTML character references of one style. */
function htmlEscaped(text: string, reference: (ch: string) => string): string {
	return [...text].map((ch) => (/[&<>"']/.test(ch) || ch.codePointAt(0)! > 0x7f ? reference(ch) : ch)).join('');
}

/** Each UTF-16 unit of `text` matched by `escaped`, as a JSON `\uXXXX` escape (`upper`: hex digits upper case). */
function jsonUnicodeEscaped(text: string, escaped: RegExp, upper: boolean): string {
	return text.replace(escaped, (ch) => {
		const escape = `\\u${hex(ch.charCodeAt(0), 4)}`;
		return upper ? escape.toUpperCase().replace('\\U', '\\u') : escape;
	});
}

/**
 * Every form a secret could leak in, as a server echoing a request could write it: raw and in Unicode NFC and
 * NFD; URI-encoded and form-encoded (`+`), with hex digits in either case; base64 and base64url; HTML character
 * references (named, decimal, hex); JSON-escaped (as JSON.stringify does, with `\/`, with `\uXXXX` for non-ASCII,
 * and for every character, in either case); and base64 of each client's `id:secret`.
 */
export function leakForms(secret: string, clientIds: string[] = []): string[] {
	const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
	const uri = encodeURIComponent(secret);
	const form = new URLSearchParams({ v: secret }).toString().slice(2);
	const json = JSON.stringify(secret).slice(1, -1);
	const forms = [
		secret,
		secret.normalize('NFC'),
		secret.normalize('NFD'),
		uri,
		lowerHex(uri),
		form,
		lowerHex(form),
		base64(secret),
		base64(secret).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
		htmlEscaped(secret, (ch) => `&${HTML_NAMED[ch] ?? `#${ch.codePointAt(0)}`};`),
		htmlEscaped(secret, (ch) => `&#${ch.codePointAt(0)};`),
		htmlEscaped(secret, (ch) => `&#x${hex(ch.codePointAt(0)!, 1)};`),
		htmlEscaped(secret, (ch) => `&#x${hex(ch.codePointAt(0)!, 1).toUpperCase()};`),
		json,
		json.replace(/\//g, '\\/'),
		...[false, true].flatMap((upper) => [
			jsonUnicodeEscaped(json, /[^\x00-\x7f]/g, upper),
			jsonUnicodeEscaped(json.replace(/\//g, '\\/'), /[^\x00-\x7f]/g, upper),
			jsonUnicodeEscaped(secret, /[\s\S]/g, upper)
		]),
		...clientIds.flatMap((id) => [base64(`${id}:${secret}`), base64(`${id}:${uri}`), base64(`${id}:${form}`)])
	];
	return [...new Set(forms)];
}

/** The forms of `secret` found in `text`; empty when it did not leak. */
export function leaks(text: string, secret: string, clientIds: string[] = []): string[] {
	return leakForms(secret, clientIds).filter((form) => text.includes(form));
}
