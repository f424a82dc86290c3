/**
 * A copyable curl command for a recorded request. The client secret never appears: wherever it was sent (a
 * `client_secret` parameter, a form body, a Basic/Bearer credentials header) the command reads `$CLIENT_SECRET`
 * from the shell instead, and masked tokens become `$ACCESS_TOKEN` / `$REFRESH_TOKEN`.
 */
import { base64DecodeUtf8, escapeRegExp, uriParts } from '../http/encoding';
import { encodedForms } from '../http/secrets';
import { splitRawQuery } from '../http/form';
import { MASK, type HttpHeader, type RecordedRequest } from '../http/exchange';
import { hasHeader, headerValue } from '../http/headers';

/** A piece of a shell word: literal text (quoted when written) or shell syntax written as is. */
type Piece = { literal: string } | { shell: string };

const CLIENT_SECRET = { shell: '"$CLIENT_SECRET"' };
const ACCESS_TOKEN = { shell: '"$ACCESS_TOKEN"' };
const REFRESH_TOKEN = { shell: '"$REFRESH_TOKEN"' };

/** Single-quotes a string for a POSIX shell; an embedded `'` becomes `'\''`. */
export function shellQuote(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

function word(pieces: Piece[]): string {
	const merged: Piece[] = [];
	for (const piece of pieces) {
		const last = merged.at(-1);
		if (last && 'literal' in last && 'literal' in piece) merged[merged.length - 1] = { literal: last.literal + piece.literal };
		else merged.push(piece);
	}
	const text = merged.map((p) => ('literal' in p ? (p.literal === '' ? '' : shellQuote(p.literal)) : p.shell)).join('');
	return text === '' ? "''" : text;
}

/**
 * A masked value: the mask, then optionally its tail, as flow/mask.ts writes it (`…` and 4 characters) or as the
 * sandbox's log does (sandbox/mask.ts: the last 4 characters of a base64url credential, no `…`).
 */
const MASKED_VALUE = new RegExp(`${MASK}(?:….{4}|[A-Za-z0-9_-]{4}(?![A-Za-z0-9_-]))?`, 'gu');

/** The secret (any encoded form) and masked tokens: made once per command, as every piece of it is searched. */
function replacedPattern(secret: string | undefined): RegExp {
	const forms = secret ? encodedForms(secret).map(escapeRegExp) : [];
	return new RegExp([...forms, MASKED_VALUE.source].join('|'), 'gu');
}

/** Splits literal text around what `pattern` finds (replacedPattern), which becomes shell variables. */
function substitute(text: string, pattern: RegExp): Piece[] {
	const pieces: Piece[] = [];
	let last = 0;
	for (const match of text.matchAll(pattern)) {
		pieces.push({ literal: text.slice(last, match.index) });
		pieces.push(match[0].startsWith(MASK) ? ACCESS_TOKEN : CLIENT_SECRET);
		last = match.index + match[0].length;
	}
	pieces.push({ literal: text.slice(last) });
	return pieces;
}


/** `name=value&…` with each parameter's value replaced by what the shell should supply. */
function queryPieces(query: string, pattern: RegExp): Piece[] {
	return splitRawQuery(query).flatMap((p, i): Piece[] => {
		const value: Piece[] =
			p.name === 'client_secret'
				? [CLIENT_SECRET]
				: p.name === 'refresh_token' && p.value.includes(MASK)
					? [REFRESH_TOKEN]
					: p.name === 'access_token' && p.value.includes(MASK)
						? [ACCESS_TOKEN]
						: substitute(p.rawValue, pattern);
		return [{ literal: `${i === 0 ? '' : '&'}${p.rawName}=` }, ...value];
	});
}

function urlPieces(url: string, pattern: RegExp): Piece[] {
	const { scheme, authority, path, query, fragment } = uriParts(url);
	const base = `${scheme}://${authority}${path}`;
	return [
		...substitute(base, pattern),
		...(query === '' ? [] : [{ literal: '?' }, ...queryPieces(query, pattern)]),
		...(fragment === '' ? [] : [{ literal: `#${fragment}` }])
	];
}

const CREDENTIALS_HEADER = /^(Basic|Bearer)\s+(\S+)$/i;

/** A header as a `-H` argument. Client credentials are rebuilt in the shell from `$CLIENT_SECRET`. */
function headerWord(header: HttpHeader, pattern: RegExp): string {
	const match = CREDENTIALS_HEADER.exec(header.value);
	const scheme = match?.[1] ?? '';
	const decoded = match?.[2] ? base64DecodeUtf8(match[2]) : null;
	const colon = decoded?.indexOf(':') ?? -1;
	if (decoded !== null && colon > 0) {
		const clientId = decoded.slice(0, colon);
		return `"${header.name}: ${scheme} $(printf '%s:%s' ${shellQuote(clientId)} "$CLIENT_SECRET" | base64 | tr -d '\\n')"`;
	}
	return word([{ literal: `${header.name}: ` }, ...substitute(header.value, pattern)]);
}

/** Headers curl writes itself from the command (and would get wrong if copied). */
const COMPUTED_HEADERS = new Set(['host', 'content-length']);

function isFormBody(request: RecordedRequest): boolean {
	const type = headerValue(request.headers, 'content-type') ?? '';
	return type.toLowerCase().includes('application/x-www-form-urlencoded');
}

export function toCurl(request: RecordedRequest, secret?: { value?: string }): string {
	const pattern = replacedPattern(secret?.value || undefined);
	const method = request.method.toUpperCase();
	const args: string[] = [];
	if (method === 'HEAD') args.push('--head');
	else if (method !== 'GET' || request.body !== null) args.push(`-X ${shellQuote(method)}`);
	args.push(word(urlPieces(request.url, pattern)));
	for (const header of request.headers) {
		if (!COMPUTED_HEADERS.has(header.name.toLowerCase())) args.push(`-H ${headerWord(header, pattern)}`);
	}
	// curl sends its own User-Agent unless told not to; a request recorded without one must stay without one.
	if (!hasHeader(request.headers, 'user-agent')) args.push(`-H ${shellQuote('User-Agent:')}`);
	if (request.body !== null) {
		const body = isFormBody(request) ? queryPieces(request.body, pattern) : substitute(request.body, pattern);
		args.push(`--data-raw ${word(body)}`);
	}
	return ['curl', ...args].join(' \\\n  ');
}
