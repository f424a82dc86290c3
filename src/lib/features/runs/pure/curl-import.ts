/**
 * Import of one pasted request: a curl command, or a raw HTTP request (optionally followed by its response). Each
 * becomes a run of one exchange, redacted before it is returned. Only the flow's requests are taken: the token
 * endpoint, me.json, or the authorisation link.
 */
import { base64EncodeUtf8, encodeComponent, parseHttpUrl } from '$lib/http/encoding';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { HttpHeader, RecordedResponse } from '$lib/http/exchange';
import { redactRun } from './redact/redact';
import { inferTarget, newRun, type ImportOptions, type ImportResult } from './run';
import { stepOfRequest } from '$lib/flow/steps';
import { shellWords } from './shell-words';
import { headerValue } from '$lib/http/headers';

/* ------------------------------------------------------------------ one exchange as a run */

interface Pasted {
	method: string;
	url: string;
	headers: HttpHeader[];
	body: string | null;
	response: RecordedResponse | null;
}

const SOURCE_NAMES = { curl: 'curl command', http: 'HTTP request' } as const;

/** The run of one pasted exchange, its secrets still in it: `parseCurl` and `parseRawHttp` redact it. */
function pastedRun(pasted: Pasted, source: 'curl' | 'http', options: ImportOptions): ImportResult {
	const url = parseHttpUrl(pasted.url);
	if (!url.ok) return { ok: false, message: `The request's address ${JSON.stringify(pasted.url)} cannot be used: ${url.reason}.` };
	const step = stepOfRequest(pasted.method, pasted.url);
	if (!step)
		return {
			ok: false,
			message: `This ${SOURCE_NAMES[source]} is not one of the flow's: it goes to ${url.url.pathname}. Paste the call to …/oauth/token, to …/api/v3/me.json, or the authorisation link (GET …/sso/{supergroup}).`
		};
	const now = (options.now ?? new Date()).toISOString();
	const exchange: RecordedExchange = {
		id: `${source}-1`,
		step,
		label: `pasted ${SOURCE_NAMES[source]}`,
		startedAt: now,
		durationMs: 0,
		request: { method: pasted.method, url: pasted.url, headers: pasted.headers, body: pasted.body },
		response: pasted.response,
		failure: null,
		masked: []
	};
	const link = step === 'link' ? pasted.url : null;
	const run = newRun({
		id: options.id,
		title: `Pasted ${SOURCE_NAMES[source]}: ${pasted.method} ${url.url.pathname}`,
		createdAt: now,
		target: inferTarget(link, [exchange]),
		link,
		exchanges: [exchange],
		source
	});
	return { ok: true, run };
}

const redacted = (result: ImportResult): ImportResult => (result.ok ? { ok: true, run: redactRun(result.run) } : result);

/* ------------------------------------------------------------------ curl */

/** Options taking a value, by every name curl accepts for them. */
const VALUE_OPTIONS: Readonly<Record<string, string>> = {
	'-X': 'request', '--request': 'request',
	'-H': 'header', '--header': 'header',
	'-d': 'data', '--data': 'data', '--data-ascii': 'data', '--data-binary': 'data',
	'--data-raw': 'data-raw', '--data-urlencode': 'data-urlencode', '--json': 'json',
	'-u': 'user', '--user': 'user',
	'-A': 'user-agent', '--user-agent': 'user-agent',
	'-b': 'cookie', '--cookie': 'cookie',
	'-e': 'referer', '--referer': 'referer',
	'--url': 'url',
	// Taking a value, but not changing the request.
	'-o': 'ignore', '--output': 'ignore', '-w': 'ignore', '--write-out': 'ignore', '-m': 'ignore', '--max-time': 'ignore',
	'--connect-timeout': 'ignore', '--retry': 'ignore', '-x': 'ignore', '--proxy': 'ignore', '--resolve': 'ignore',
	'--cacert': 'ignore', '-E': 'ignore', '--cert': 'ignore', '--key': 'ignore'
};

/** Options without a value; only -G and -I change the request. */
const FLAG_OPTIONS: Readonly<Record<string, string>> = {
	'-G': 'get', '--get': 'get', '-I': 'head', '--head': 'head',
	'-s': 'ignore', '--silent': 'ignore', '-S': 'ignore', '--show-error': 'ignore', '-i': 'ignore', '--include': 'ignore',
	'-v': 'ignore', '--verbose': 'ignore', '-k': 'ignore', '--insecure': 'ignore', '-L': 'ignore', '--location': 'ignore',
	'--compressed': 'ignore', '-f': 'ignore', '--fail': 'ignore', '--http1.1': 'ignore', '--http2': 'ignore',
	'-N': 'ignore', '--no-buffer': 'ignore', '-g': 'ignore', '--globoff': 'ignore', '-#': 'ignore', '--progress-bar': 'ignore'
};

type Option = { name: string; value?: string };

/** curl's words as options and values; `-sSX POST` and `-XPOST` are split as curl splits them. */
function options(words: string[]): { ok: true; options: Option[] } | { ok: false; message: string } {
	const result: Option[] = [];
	for (let i = 0; i < words.length; i += 1) {
		const word = words[i]!;
		if (!word.startsWith('-') || word === '-') {
			result.push({ name: 'url', value: word });
			continue;
		}
		const shorts = word.startsWith('--') ? [word] : [...word.slice(1)].map((c) => `-${c}`);
		for (let k = 0; k < shorts.length; k += 1) {
			const flag = shorts[k]!;
			if (FLAG_OPTIONS[flag]) {
				result.push({ name: FLAG_OPTIONS[flag] });
				continue;
			}
			const name = VALUE_OPTIONS[flag];
			if (!name) return { ok: false, message: `The curl option ${flag} is not understood here. Remove it and paste the command again.` };
			const attached = word.startsWith('--') ? '' : word.slice(k + 2);
			const value = attached !== '' ? attached : words[++i];
			if (value === undefined) return { ok: false, message: `The curl option ${flag} needs a value after it.` };
			result.push({ name, value });
			break;
		}
	}
	return { ok: true, options: result };
}

/** curl's own URL encoding for --data-urlencode: everything but A-Z a-z 0-9 - . _ ~ is %XX. */
const curlEscape = (text: string) => encodeComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const FILE_REFUSED = 'reads a file, which a pasted command cannot; paste the data itself instead';

function urlencodedData(value: string): string | { error: string } {
	const special = /[=@]/.exec(value);
	if (!special) return curlEscape(value);
	if (special[0] === '@') return { error: `--data-urlencode ${value} ${FILE_REFUSED}` };
	const name = value.slice(0, special.index);
	const content = curlEscape(value.slice(special.index + 1));
	return name === '' ? content : `${name}=${content}`;
}

/**
 * Request headers as curl builds them: its defaults, replaced or removed by the command's own. Each -H costs the same
 * however many came before (a pasted command may carry thousands).
 */
class HeaderList {
	private readonly entries: { name: string; value: string; removed: boolean }[] = [];
	/** Each name's entries (lower case), so a removal touches only its own. */
	private readonly byName = new Map<string, { removed: boolean }[]>();
	/** Names the command set or removed itself; curl adds no default for those. */
	private readonly touched = new Set<string>();

	constructor(host: string) {
		this.add('Host', host);
		this.add('User-Agent', 'curl');
		this.add('Accept', '*/*');
	}

	get list(): HttpHeader[] {
		return this.entries.filter((e) => !e.removed).map(({ name, value }) => ({ name, value }));
	}

	isTouched(name: string): boolean {
		return this.touched.has(name.toLowerCase());
	}

	/** A header from the command: replaces one of curl's defaults of the same name, else is added. */
	set(name: string, value: string): void {
		if (!this.isTouched(name)) this.remove(name);
		this.touched.add(name.toLowerCase());
		this.add(name, value);
	}

	/** `-H 'Name:'`: curl sends no such header, not even its default. */
	remove(name: string): void {
		const key = name.toLowerCase();
		this.touched.add(key);
		for (const entry of this.byName.get(key) ?? []) entry.removed = true;
		this.byName.delete(key);
	}

	/** A header curl adds itself unless the command said otherwise. */
	setDefault(name: string, value: string): void {
		if (!this.isTouched(name)) this.add(name, value);
	}

	private add(name: string, value: string): void {
		const entry = { name, value, removed: false };
		this.entries.push(entry);
		const key = name.toLowerCase();
		const same = this.byName.get(key);
		if (same) same.push(entry);
		else this.byName.set(key, [entry]);
	}
}

/** One -H value: `Name: value`, `Name:` (removes it), or `Name;` (sends it empty). */
function applyHeader(headers: HeaderList, line: string): string | undefined {
	const colon = line.indexOf(':');
	const semi = line.indexOf(';');
	if (colon === -1 && semi > 0 && line.slice(semi + 1).trim() === '') {
		headers.set(line.slice(0, semi).trim(), '');
		return undefined;
	}
	if (colon <= 0) return `The header ${JSON.stringify(line)} is not of the form "Name: value".`;
	const name = line.slice(0, colon).trim();
	const value = line.slice(colon + 1).trim();
	if (value === '') headers.remove(name);
	else headers.set(name, value);
	return undefined;
}

interface CurlState {
	headers: HeaderList;
	data: string[];
	method?: string;
	get: boolean;
	json: boolean;
}

/** Applies one option to the request being built; an error message when it cannot be. */
function applyOption(state: CurlState, { name, value = '' }: Option): string | undefined {
	switch (name) {
		case 'request':
			state.method = value;
			return undefined;
		case 'header':
			return applyHeader(state.headers, value);
		case 'data':
			if (value.startsWith('@')) return `-d ${value} ${FILE_REFUSED}`;
			state.data.push(value);
			return undefined;
		case 'data-raw':
			state.data.push(value);
			return undefined;
		case 'json':
			state.json = true;
			state.data.push(value);
			return undefined;
		case 'data-urlencode': {
			const encoded = urlencodedData(value);
			if (typeof encoded !== 'string') return encoded.error;
			state.data.push(encoded);
			return undefined;
		}
		case 'user':
			if (!value.includes(':')) return '-u needs user:password (curl would ask for the password).';
			state.headers.set('Authorization', `Basic ${base64EncodeUtf8(value)}`);
			return undefined;
		case 'user-agent':
			state.headers.set('User-Agent', value);
			return undefined;
		case 'cookie':
			if (!value.includes('=')) return `-b ${value} ${FILE_REFUSED}`;
			state.headers.set('Cookie', value);
			return undefined;
		case 'referer':
			state.headers.set('Referer', value);
			return undefined;
		case 'get':
			state.get = true;
			return undefined;
		case 'head':
			state.method ??= 'HEAD';
			return undefined;
		default:
			return undefined;
	}
}

/** The single URL of the command, with curl's default scheme when it has none. */
function commandUrl(opts: Option[]): string | { error: string } {
	const urls = opts.filter((o) => o.name === 'url');
	if (urls.length !== 1)
		return { error: urls.length === 0 ? 'The curl command has no URL.' : 'The curl command has more than one URL; paste one request at a time.' };
	const raw = urls[0]!.value ?? '';
	return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
}

export function parseCurl(command: string, importOptions: ImportOptions = {}): ImportResult {
	return redacted(readCurl(command, importOptions));
}

/**
 * A curl command as a run, NOT redacted: only for a caller that sends the request as pasted (the run page's
 * "send"), and redacts the run before anything else sees it.
 */
export function readCurl(command: string, importOptions: ImportOptions = {}): ImportResult {
	const split = shellWords(command.trim().replace(/^\$\s+/, ''));
	if (!split.ok) return split;
	const [program, ...words] = split.words;
	if (!program || !/(^|[/\\])curl(\.exe)?$/.test(program))
		return { ok: false, message: 'This is not a curl command: it should start with `curl`.' };
	const parsed = options(words);
	if (!parsed.ok) return parsed;
	if (parsed.options.filter((o) => o.name === 'header').length > MAX_PASTED_HEADERS) return { ok: false, message: tooManyHeaders('command') };
	const url = commandUrl(parsed.options);
	if (typeof url !== 'string') return { ok: false, message: url.error };
	const state: CurlState = { headers: new HeaderList(URL.canParse(url) ? new URL(url).host : ''), data: [], get: false, json: false };
	for (const option of parsed.options) {
		const error = applyOption(state, option);
		if (error) return { ok: false, message: error };
	}
	const joined = state.data.length > 0 ? state.data.join('&') : null;
	// -G sends the data as the query string of a GET.
	const body = state.get ? null : joined;
	const fullUrl = state.get && joined !== null ? `${url}${url.includes('?') ? '&' : '?'}${joined}` : url;
	if (body !== null) state.headers.setDefault('Content-Type', state.json ? 'application/json' : 'application/x-www-form-urlencoded');
	if (state.json && !state.headers.isTouched('accept')) state.headers.set('Accept', 'application/json');
	const method = (state.method ?? (body !== null ? 'POST' : 'GET')).toUpperCase();
	return pastedRun({ method, url: fullUrl, headers: state.headers.list, body, response: null }, 'curl', importOptions);
}

/* ------------------------------------------------------------------ raw HTTP */

const REQUEST_LINE = /^([A-Za-z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?$/;
const STATUS_LINE = /^HTTP\/[\d.]+\s+(\d{3})(?:\s+(.*))?$/;

/** More headers than a request to the service ever has: a pasted request with more is refused, not read. */
export const MAX_PASTED_HEADERS = 1000;
const tooManyHeaders = (what: string) =>
	`The ${what} has more than ${MAX_PASTED_HEADERS.toLocaleString('en')} headers; a request to the service has a few dozen. Paste the request as the browser or your app sent it.`;

function headerBlock(lines: string[], what: string): { ok: true; headers: HttpHeader[] } | { ok: false; message: string } {
	if (lines.length > MAX_PASTED_HEADERS) return { ok: false, message: tooManyHeaders(what) };
	const headers: HttpHeader[] = [];
	for (const line of lines) {
		const colon = line.indexOf(':', line.startsWith(':') ? 1 : 0);
		if (colon <= 0) return { ok: false, message: `In the ${what}, the line ${JSON.stringify(line)} is not a header (Name: value).` };
		headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
	}
	return { ok: true, headers };
}

/** The lines before the first blank line, and the text after it. */
function splitHead(text: string): { head: string[]; rest: string } {
	const blank = /\n[ \t]*\n/.exec(text);
	if (!blank) return { head: text.replace(/\n+$/, '').split('\n'), rest: '' };
	return { head: text.slice(0, blank.index).split('\n'), rest: text.slice(blank.index + blank[0].length) };
}

const LOCAL_HOSTS = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

function requestUrl(target: string, headers: HttpHeader[]): string | { error: string } {
	if (/^https?:\/\//i.test(target)) return target;
	const find = (name: string) => headerValue(headers, name);
	const host = find('host') ?? find(':authority');
	if (!host) return { error: 'The request has no Host header, so its address is unknown. Add the Host line (e.g. Host: accounts.example.com), or write the full URL on the request line.' };
	const scheme = find(':scheme') ?? (LOCAL_HOSTS.test(host) ? 'http' : 'https');
	return `${scheme}://${host}${target}`;
}

function parseResponse(text: string): { ok: true; response: RecordedResponse } | { ok: false; message: string } {
	const { head, rest } = splitHead(text);
	const status = STATUS_LINE.exec(head[0] ?? '');
	if (!status) return { ok: false, message: 'The response should start with a status line such as HTTP/1.1 400 Bad Request.' };
	const headers = headerBlock(head.slice(1), 'response');
	if (!headers.ok) return headers;
	return {
		ok: true,
		response: { status: Number(status[1]), statusText: status[2]?.trim() ?? '', headers: headers.headers, body: rest.replace(/\n+$/, ''), truncated: false }
	};
}

export function parseRawHttp(text: string, importOptions: ImportOptions = {}): ImportResult {
	return redacted(readRawHttp(text, importOptions));
}

/** A raw HTTP exchange as a run, NOT redacted (see `readCurl`). */
export function readRawHttp(text: string, importOptions: ImportOptions = {}): ImportResult {
	const normalised = text.replace(/\r\n?/g, '\n').replace(/^\s*\n/, '');
	const { head, rest } = splitHead(normalised);
	const line = REQUEST_LINE.exec(head[0]?.trim() ?? '');
	if (!line)
		return {
			ok: false,
			message: `The first line should be a request line such as "POST /oauth/token?grant_type=… HTTP/1.1"; it is ${JSON.stringify(head[0] ?? '')}.`
		};
	const headers = headerBlock(head.slice(1), 'request');
	if (!headers.ok) return headers;
	const url = requestUrl(line[2]!, headers.headers);
	if (typeof url !== 'string') return { ok: false, message: url.error };
	const statusAt = rest.search(/^HTTP\/[\d.]+\s+\d{3}/m);
	const bodyText = (statusAt === -1 ? rest : rest.slice(0, statusAt)).replace(/\n+$/, '');
	const response = statusAt === -1 ? null : parseResponse(rest.slice(statusAt));
	if (response && !response.ok) return response;
	return pastedRun(
		{
			method: line[1]!.toUpperCase(),
			url,
			// HTTP/2 pseudo-headers (:authority…) are not headers of the request.
			headers: headers.headers.filter((h) => !h.name.startsWith(':')),
			body: bodyText === '' ? null : bodyText,
			response: response?.response ?? null
		},
		'http',
		importOptions
	);
}
