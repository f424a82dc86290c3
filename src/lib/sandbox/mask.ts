/**
 * Masking for the sandbox's request log (`GET /sandbox/log`): client secrets, passwords, codes, tokens,
 * credentials in Authorization headers and session cookies never appear in it. Codes and tokens keep a short
 * tail so entries can be matched up; secrets and passwords are hidden whole.
 */
import { MASK, type HttpHeader } from '../flow/exchange';
import { ADMIN_CREDENTIAL_HEADER } from './admin-access';

const HIDDEN_WHOLE = new Set(['client_secret', 'password']);
const HIDDEN_BUT_TAIL = new Set(['code', 'access_token', 'refresh_token']);
const TAIL = 4;

function isSecretName(name: string): boolean {
	return HIDDEN_WHOLE.has(name) || HIDDEN_BUT_TAIL.has(name);
}

export function maskValue(name: string, value: string): string {
	if (HIDDEN_BUT_TAIL.has(name) && value.length > TAIL * 4) return `${MASK}${value.slice(-TAIL)}`;
	return MASK;
}

function decodedName(rawName: string): string {
	try {
		return decodeURIComponent(rawName.replaceAll('+', ' '));
	} catch {
		return rawName;
	}
}

function decodedValue(rawValue: string): string {
	try {
		return decodeURIComponent(rawValue.replaceAll('+', ' '));
	} catch {
		return rawValue;
	}
}

/** Masks secret parameters in form-urlencoded text, leaving everything else byte for byte. */
export function maskFormText(text: string): string {
	return text
		.split('&')
		.map((pair) => {
			const eq = pair.indexOf('=');
			if (eq === -1) return pair;
			const name = decodedName(pair.slice(0, eq));
			return isSecretName(name) ? `${pair.slice(0, eq + 1)}${encodeURIComponent(maskValue(name, decodedValue(pair.slice(eq + 1))))}` : pair;
		})
		.join('&');
}

/** Masks secret query parameters of a URL or request target. */
export function maskUrl(url: string): string {
	const q = url.indexOf('?');
	if (q === -1) return url;
	const hash = url.indexOf('#', q);
	const query = hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash);
	return `${url.slice(0, q + 1)}${maskFormText(query)}${hash === -1 ? '' : url.slice(hash)}`;
}

function maskJsonValue(value: unknown, key: string | null): unknown {
	if (key !== null && isSecretName(key) && typeof value === 'string') return maskValue(key, value);
	if (typeof value === 'string') return value.includes('?') ? maskUrl(value) : value;
	if (Array.isArray(value)) return value.map((v) => maskJsonValue(v, null));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJsonValue(v, k)]));
	}
	return value;
}

/**
 * Masks a body by its media type: form fields and JSON keys by name. A body that looks like JSON is treated as
 * JSON whatever its label, one without a type as a form (masking only `name=value` pairs with a secret name);
 * other text, such as HTML, is kept as is.
 */
export function maskBody(text: string, contentType: string | undefined): string {
	const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
	if (type === 'application/json' || (type !== 'text/html' && /^\s*[[{]/.test(text))) {
		try {
			return JSON.stringify(maskJsonValue(JSON.parse(text), null));
		} catch {
			return maskBrokenJson(text); // cut short or malformed: mask by pattern instead
		}
	}
	if (type === 'application/x-www-form-urlencoded' || type === '') return maskFormText(text);
	return text;
}

const JSON_SECRET_MEMBER = /"(client_secret|password|code|access_token|refresh_token)"(\s*:\s*)"((?:[^"\\]|\\.)*)("?)/g;

/** JSON that does not parse (a truncated recording): secret members masked by pattern. */
function maskBrokenJson(text: string): string {
	return maskFormText(text.replace(JSON_SECRET_MEMBER, (_m, name: string, colon: string, value: string, close: string) => `"${name}"${colon}"${maskValue(name, value)}${close}`));
}

function maskCookieHeader(value: string): string {
	return value.replace(/(^|;\s*)([^=;]+)=([^;]*)/g, `$1$2=${MASK}`);
}

function maskSetCookie(value: string): string {
	return value.replace(/^([^=;]+)=([^;]*)/, `$1=${MASK}`);
}

/** Masks credential-bearing headers: Authorization (scheme kept), cookies, and codes in a Location. */
export function maskHeader(header: HttpHeader): HttpHeader {
	const name = header.name.toLowerCase();
	if (name === ADMIN_CREDENTIAL_HEADER) return { name: header.name, value: MASK };
	if (name === 'authorization' || name === 'proxy-authorization') {
		const scheme = header.value.split(/\s+/)[0] ?? '';
		return { name: header.name, value: `${scheme} ${MASK}` };
	}
	if (name === 'cookie') return { name: header.name, value: maskCookieHeader(header.value) };
	if (name === 'set-cookie') return { name: header.name, value: maskSetCookie(header.value) };
	if (name === 'location') return { name: header.name, value: maskUrl(header.value) };
	return header;
}
