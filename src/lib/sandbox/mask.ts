/**
 * Masking for the sandbox's request log (`GET /sandbox/log`): client secrets, passwords, codes, tokens,
 * credentials in Authorization headers and session cookies never appear in it. Codes and tokens keep a short
 * tail so entries can be matched up; secrets and passwords are hidden whole.
 */
import { MASK, type HttpHeader } from '../http/exchange';
import { mapFormPairs, mapMultipartFields, mapQueryPairs } from '../http/form';
import { SECRET_PARAMETERS, TAIL_LENGTH, isSecretParameter, secretHeader, showing } from '../http/secrets';
import { jsonParse } from '../http/json';

export function maskValue(name: string, value: string): string {
	if (showing(name, 'log') === 'tail' && value.length > TAIL_LENGTH * 4) return `${MASK}${value.slice(-TAIL_LENGTH)}`;
	return MASK;
}

/** How deep URLs inside URLs are followed (`redirect_uri=…?next=…?code=…`): each level is a pass over its own text. */
const NESTED_URL_DEPTH = 4;

/**
 * A secret parameter's value masked; any other whose value is a URL with a query (an app that sends the address it
 * landed on, `?code=…` and all, as its `redirect_uri`) has that query masked in turn, and so on for a URL in that
 * query: the code in it is as usable.
 */
function maskedParameter(name: string, value: string, depth = 0): string | undefined {
	if (isSecretParameter(name)) return depth === 0 ? encodeURIComponent(maskValue(name, value)) : maskValue(name, value);
	if (depth >= NESTED_URL_DEPTH || !value.includes('?')) return undefined;
	// A nested mask is left unencoded, so the value reads `code=••••••abcd` once decoded, as the outer one does.
	const masked = mapQueryPairs(value, (inner, innerValue) => maskedParameter(inner, innerValue, depth + 1));
	return masked === value ? undefined : encodeURIComponent(masked);
}

/** Masks secret parameters in form-urlencoded text, leaving everything else byte for byte. */
export function maskFormText(text: string): string {
	return mapFormPairs(text, maskedParameter);
}

/** Masks secret query parameters of a URL or request target. */
export function maskUrl(url: string): string {
	return mapQueryPairs(url, maskedParameter);
}

function maskJsonValue(value: unknown, key: string | null): unknown {
	if (key !== null && isSecretParameter(key) && typeof value === 'string') return maskValue(key, value);
	if (typeof value === 'string') return value.includes('?') ? maskUrl(value) : value;
	if (Array.isArray(value)) return value.map((v) => maskJsonValue(v, null));
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJsonValue(v, k)]));
	}
	return value;
}

/**
 * Masks a body by its media type: form fields, multipart fields and JSON keys by name. A body that looks like JSON
 * is treated as JSON whatever its label; HTML is kept as is; any other text (no type, text/plain, a form) has its
 * `name=value` pairs with a secret name masked, as an app that sends a form mislabelled still sent its secret.
 */
export function maskBody(text: string, contentType: string | undefined): string {
	const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
	if (type === 'application/json' || (type !== 'text/html' && /^\s*[[{]/.test(text))) {
		try {
			return JSON.stringify(maskJsonValue(jsonParse(text), null));
		} catch {
			return maskBrokenJson(text); // cut short or malformed: mask by pattern instead
		}
	}
	if (type === 'multipart/form-data') return mapMultipartFields(text, (name, value) => (isSecretParameter(name) ? maskValue(name, value) : undefined));
	if (type === 'text/html') return text;
	return maskFormText(text);
}

const JSON_SECRET_MEMBER = new RegExp(`"(${SECRET_PARAMETERS.join('|')})"(\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)("?)`, 'g');

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

/** Masks credential-bearing headers: Authorization (scheme kept; a bearer token's tail kept), cookies, and codes in a Location. */
export function maskHeader(header: HttpHeader): HttpHeader {
	switch (secretHeader(header.name)) {
		case 'token':
		case 'credential':
			return { name: header.name, value: MASK };
		case 'authorization': {
			const [scheme = '', credential = ''] = header.value.trim().split(/\s+/);
			// A bearer credential is an access token: the log keeps its tail, as it does in a token's answer, so a
			// me.json call can be matched to the exchange that issued its token (runs/pure/sandbox-log-evidence.ts).
			const masked = scheme.toLowerCase() === 'bearer' ? maskValue('access_token', credential) : MASK;
			return { name: header.name, value: `${scheme} ${masked}` };
		}
		case 'cookie':
			return { name: header.name, value: maskCookieHeader(header.value) };
		case 'set-cookie':
			return { name: header.name, value: maskSetCookie(header.value) };
	}
	if (header.name.toLowerCase() === 'location') return { name: header.name, value: maskUrl(header.value) };
	return header;
}
