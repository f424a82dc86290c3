/**
 * Fuzzing the accounts host over raw sockets (so malformed HTTP reaches the server as sent): the token endpoint,
 * me.json and the control API get random and malformed parameters, encodings, sizes, methods and headers. Every
 * request must be answered (never a dropped connection or a hang), never with a 5xx, and every answer must be a row
 * of its table with the row's body schema. A request the HTTP parser itself refuses may get Node's bare 4xx.
 *
 * `npm test` runs a fixed seed and FUZZ_RUNS (200 by default); `npm run fuzz` runs 20 000.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOKEN_ERRORS } from '../../protocol';
import { MeErrorBody, MeResponse, TokenErrorBody, TokenResponse } from '../../protocol/schemas';
import { FUZZ_SETTINGS } from '../../fuzzing';
import { CALLBACK, DEMO, accessTokenFor, issueCode, startAccounts, type RunningAccounts } from './test-support';

const RUNS = FUZZ_SETTINGS.numRuns;
/** Per request: a sandbox that does not answer within this is hung. */
const ANSWER_WITHIN_MS = 5_000;
const FUZZ_TIMEOUT_MS = Math.max(20_000, RUNS * 10);

/* ------------------------------------------------------------- raw HTTP */

interface RawResponse {
	status: number;
	headers: Map<string, string>;
	body: Buffer;
}

type Answer = { ok: true; response: RawResponse } | { ok: false; problem: string };

function headerEnd(data: Buffer): number {
	return data.indexOf('\r\n\r\n');
}

function parseHead(head: string): { status: number; headers: Map<string, string> } | null {
	const [statusLine, ...lines] = head.split('\r\n');
	const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
	if (!match) return null;
	const headers = new Map<string, string>();
	for (const line of lines) {
		const colon = line.indexOf(':');
		if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	return { status: Number(match[1]), headers };
}

/** The first complete response in `data`, or null while it is incomplete. HEAD answers carry no body. */
function completeResponse(data: Buffer, method: string, ended: boolean): RawResponse | null {
	const end = headerEnd(data);
	if (end === -1) return null;
	const head = parseHead(data.subarray(0, end).toString('latin1'));
	if (!head) return null;
	const rest = data.subarray(end + 4);
	// An interim answer (100 Continue to `Expect: 100-continue`) precedes the real one.
	if (head.status < 200) return completeResponse(rest, method, ended);
	const length = head.headers.get('content-length');
	if (method === 'HEAD') return { ...head, body: Buffer.alloc(0) };
	if (head.headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
		const body = dechunk(rest);
		return body ? { ...head, body } : null;
	}
	if (length !== undefined) return rest.length >= Number(length) ? { ...head, body: rest.subarray(0, Number(length)) } : null;
	return ended ? { ...head, body: rest } : null;
}

/** A chunked body once its last chunk has arrived; null while incomplete. */
function dechunk(data: Buffer): Buffer | null {
	const chunks: Buffer[] = [];
	let at = 0;
	for (;;) {
		const lineEnd = data.indexOf('\r\n', at);
		if (lineEnd === -1) return null;
		const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
		if (Number.isNaN(size)) return null;
		if (size === 0) return Buffer.concat(chunks);
		if (data.length < lineEnd + 2 + size + 2) return null;
		chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
		at = lineEnd + 2 + size + 2;
	}
}

/** Sends the bytes on a fresh connection and waits for one complete response. */
function exchange(port: number, request: Buffer, method: string): Promise<Answer> {
	return new Promise((resolve) => {
		let data = Buffer.alloc(0);
		let settled = false;
		const socket = connect(port, '127.0.0.1');
		const finish = (answer: Answer) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			socket.destroy();
			resolve(answer);
		};
		const timer = setTimeout(() => finish({ ok: false, problem: `no complete answer within ${ANSWER_WITHIN_MS} ms` }), ANSWER_WITHIN_MS);
		socket.on('data', (chunk: Buffer) => {
			data = Buffer.concat([data, chunk]);
			const response = completeResponse(data, method, false);
			if (response) finish({ ok: true, response });
		});
		// The server may close while we are still sending a large body; what it answered is what counts.
		socket.on('error', () => undefined);
		socket.on('close', () => {
			const response = completeResponse(data, method, true);
			finish(response ? { ok: true, response } : { ok: false, problem: `connection closed after ${data.length} bytes without a complete answer` });
		});
		socket.end(request);
	});
}

interface RawRequest {
	method: string;
	target: string;
	version: 'HTTP/1.1' | 'HTTP/1.0';
	headers: [string, string][];
	body: Buffer;
}

function serialise(r: RawRequest): Buffer {
	const head = `${r.method} ${r.target} ${r.version}\r\n${r.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
	return Buffer.concat([Buffer.from(head, 'latin1'), r.body]);
}

function describeRequest(r: RawRequest): string {
	const text = serialise(r).toString('latin1');
	return JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}… (${text.length} bytes)` : text);
}

/**
 * Node's own answer to a request it refused before any route ran (bad bytes in the request line, headers too
 * large, no Host on HTTP/1.1, an `Expect` other than 100-continue): a bare 4xx without Content-Length and without
 * a body. The routes always send Content-Length.
 */
function isParserRefusal(r: RawResponse): boolean {
	return [400, 408, 413, 417, 431].includes(r.status) && !r.headers.has('content-length') && r.body.length === 0;
}

/* ------------------------------------------------------------- table rows */

type Verdict = string | null;

function jsonBody(r: RawResponse): unknown {
	try {
		return JSON.parse(r.body.toString('utf8'));
	} catch {
		return Symbol('not JSON');
	}
}

function schemaProblem(schema: z.ZodType, r: RawResponse, what: string): Verdict {
	const parsed = schema.safeParse(jsonBody(r));
	return parsed.success ? null : `${r.status} body is not ${what}: ${r.body.toString('utf8').slice(0, 200)}`;
}

/** The demo client's secret as a request can carry it: as a parameter, or in Basic (or Bearer) credentials. */
const SECRET_AS_SENT = [DEMO.client_secret, Buffer.from(`${DEMO.client_id}:${DEMO.client_secret}`).toString('base64')];

/**
 * Token endpoint: 200 TokenResponse, and only for a request that carried the client's secret; the 7.2 rows with
 * their status; 405 and 413 invalid_request (sandbox choices).
 */
function tokenVerdict(r: RawResponse, method: string, sent: string): Verdict {
	if (method === 'HEAD') return r.status === 405 ? null : `${r.status} for HEAD`;
	if (r.status === 200 && !SECRET_AS_SENT.some((form) => sent.includes(form))) return '200 for a request without the client secret';
	if (r.status === 200) return schemaProblem(TokenResponse, r, 'a TokenResponse');
	if (![400, 401, 405, 413, 415].includes(r.status)) return `status ${r.status} is not one of the token endpoint's`;
	const problem = schemaProblem(TokenErrorBody, r, 'a TokenErrorBody');
	if (problem) return problem;
	const { error } = jsonBody(r) as TokenErrorBody;
	const row = TOKEN_ERRORS.find((row) => row.error === error && row.status === r.status);
	const choice = (r.status === 405 || r.status === 413) && error === 'invalid_request';
	if (!row && !choice) return `${r.status} ${error} is no row of the token table`;
	if (r.status === 405 && method === 'POST') return '405 for a POST';
	return null;
}

/** me.json (7.3 and sandbox choice 'me-error-bodies'): 200 MeResponse, 400/403 empty, 401/404/405 {message}. */
function meVerdict(r: RawResponse, method: string): Verdict {
	const empty = r.body.length === 0 ? null : `${r.status} must have no body`;
	switch (r.status) {
		case 200:
			return method === 'HEAD' ? null : schemaProblem(MeResponse, r, 'a MeResponse');
		case 400:
		case 403:
			return empty;
		case 401:
		case 404:
		case 405:
			return method === 'HEAD' ? null : schemaProblem(MeErrorBody, r, 'a {message} body');
		default:
			return `status ${r.status} is not one of me.json's`;
	}
}

const ControlError = z.object({ error: z.string().min(1) });

const isoInstant = z.iso.datetime();
const isoDay = z.iso.date();
/** A client and a user as the control API shows them: never a secret or a password (strict objects). */
const ShownClient = z.strictObject({
	client_id: z.string().min(1),
	name: z.string(),
	redirect_uris: z.array(z.string()),
	countries: z.array(z.string()),
	verification_key: z.enum(['supergroup', 'group'])
});
const ShownUser = z.strictObject({
	login: z.string().min(1),
	sbid_number: z.string().min(1),
	verifications: z.array(z.object({ supergroup: z.string(), expires_on: isoDay })),
	deletion_requested: z.boolean()
});
/** What each control endpoint answers on success. */
const CONTROL_ANSWERS: Record<string, z.ZodType> = {
	'/sandbox/reset': z.strictObject({ reset: z.literal(true), now: isoInstant }),
	'/sandbox/clients': ShownClient,
	'/sandbox/users': ShownUser,
	'/sandbox/clock': z.strictObject({ now: isoInstant, today: isoDay }),
	'/sandbox/authorize': z.strictObject({ location: z.string().startsWith(CALLBACK) }),
	'/sandbox/log': z.strictObject({
		entries: z.array(z.strictObject({ id: z.number().int(), at: isoInstant, host: z.enum(['authorisation', 'accounts']), entry: z.unknown() }))
	}),
	'/sandbox/state': z.strictObject({ now: isoInstant, today: isoDay, clients: z.array(ShownClient), users: z.array(ShownUser) })
};

/** The path a raw request asked for (origin form or absolute form), without its query. */
function requestedPath(sent: string): string {
	const target = sent.slice(0, sent.indexOf('\r\n')).split(' ')[1] ?? '';
	return target.replace(/^http:\/\/[^/]*/, '').split('?')[0]!;
}

/** Control API: 2xx with that endpoint's answer, or 4xx with `{error}`. */
function controlVerdict(r: RawResponse, method: string, sent: string): Verdict {
	if (method === 'HEAD') return r.status < 500 ? null : `status ${r.status}`;
	if (r.status >= 200 && r.status < 300) {
		const path = requestedPath(sent);
		const schema = CONTROL_ANSWERS[path];
		return schema ? schemaProblem(schema, r, `the answer of ${path}`) : `${r.status} for ${path}, which is no control endpoint`;
	}
	if (r.status >= 400 && r.status < 500) return schemaProblem(ControlError, r, 'an {error} body');
	return `status ${r.status}`;
}

async function check(port: number, request: RawRequest, verdict: (r: RawResponse, method: string, sent: string) => Verdict): Promise<void> {
	const sent = serialise(request);
	const answer = await exchange(port, sent, request.method);
	if (!answer.ok) throw new Error(`${answer.problem} for ${describeRequest(request)}`);
	const r = answer.response;
	if (r.status >= 500) throw new Error(`${r.status} ${r.body.toString('utf8')} for ${describeRequest(request)}`);
	if (isParserRefusal(r)) return;
	const problem = verdict(r, request.method, sent.toString('latin1'));
	if (problem) throw new Error(`${problem} for ${describeRequest(request)}`);
}

/* ------------------------------------------------------------- generators */

/** Percent-escapes good and bad: truncated, non-hex, NUL, invalid and overlong UTF-8, surrogates, delimiters. */
const escapePiece = fc.constantFrom(
	'%', '%2', '%G1', '%zz', '%00', '%0A', '%0D%0A', '%C3%28', '%FF', '%E2%82', '%ED%A0%80', '%C0%AF', '%F0%9F%98%80',
	'%25', '%2B', '+', '%26', '%3D', '%23', '%3F', '%2F', '%20', '%7F', '%E2%80%AE'
);
/** Characters a request target may carry unencoded. */
const TARGET_SAFE = "abcXYZ019-._~!$'()*,;:@/?".split('');
const safePiece = fc.string({ unit: fc.constantFrom(...TARGET_SAFE), maxLength: 12 });
const encodedUnicode = fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent);
/** Occasionally far beyond MAX_PARAMETER_LENGTH (8 KB), or past the header-size limit. */
const longPiece = fc.constantFrom(43, 8 * 1024, 8 * 1024 + 1, 20_000).map((n) => 'A'.repeat(n));
const credentialLike = fc.string({ unit: fc.constantFrom(...'ABCabc019_-'.split('')), minLength: 43, maxLength: 43 });

const fuzzValue = fc.oneof(
	{ weight: 4, arbitrary: fc.array(fc.oneof(safePiece, escapePiece, encodedUnicode), { maxLength: 5 }).map((p) => p.join('')) },
	{ weight: 1, arbitrary: longPiece },
	{ weight: 1, arbitrary: credentialLike }
);

function queryOf(pairs: [string, string | null][]): string {
	return pairs.map(([n, v]) => (v === null ? n : `${n}=${v}`)).join('&');
}

/** Mostly the valid value (so later checks are reached), sometimes one of the others. */
function mostly<T>(valid: fc.Arbitrary<T>, ...others: fc.Arbitrary<T>[]): fc.Arbitrary<T> {
	return fc.oneof({ weight: 3 * Math.max(1, others.length), arbitrary: valid }, ...others.map((arbitrary) => ({ weight: 1, arbitrary })));
}

type Pair = [string, string | null];

/**
 * The parameters of a valid request, each kept, dropped, emptied, repeated or given a fuzzed value, plus random
 * extra parameters.
 */
function mutatedParams(valid: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Pair[]> {
	const one = (name: string, value: fc.Arbitrary<string>): fc.Arbitrary<Pair[]> =>
		mostly(
			value.map((v): Pair[] => [[name, encodeURIComponent(v)]]),
			fc.constant([]),
			fc.constant([[name, null]]),
			fuzzValue.map((v): Pair[] => [[name, v]]),
			fc.tuple(value, fuzzValue).map(([v, w]): Pair[] => [[name, encodeURIComponent(v)], [name, w]])
		);
	const extras = fc.array(fc.tuple(fuzzValue, fc.option(fuzzValue)), { maxLength: 2 });
	return fc
		.tuple(fc.tuple(...Object.entries(valid).map(([name, value]) => one(name, value))), extras)
		.map(([kept, extra]) => [...kept.flat(), ...extra]);
}

const OTHER_METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'post', 'M-SEARCH'];

const contentType = fc.constantFrom(
	'application/x-www-form-urlencoded; charset=utf-8',
	'APPLICATION/X-WWW-FORM-URLENCODED',
	'application/json',
	'text/plain',
	'multipart/form-data; boundary=x',
	'',
	';;;',
	'application/x-www-form-urlencoded\u00ff'
);

/** Header values: printable text, obs-text bytes (latin1 0x80-0xFF), tabs; never CR or LF. */
const headerText = fc.oneof(
	fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
	fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
	fc.constantFrom('', ' ', '\t', 'a\tb', '100-continue')
);

function base64(text: string): string {
	return Buffer.from(text, 'utf8').toString('base64');
}

const basicCredentials = fc
	.tuple(
		fc.constantFrom(DEMO.client_id, '', 'nobody', 'demo%2Dclient', 'demo-client:x'),
		fc.constantFrom(DEMO.client_secret, '', 'x', '%ZZ', `${DEMO.client_secret}\u0000`),
		fc.constantFrom('Basic', 'Bearer', 'basic', 'Digest')
	)
	.map(([id, secret, scheme]) => `${scheme} ${base64(`${id}:${secret}`)}`);

const malformedAuthorization = fc.oneof(
	fc.constantFrom('Bearer', 'Basic', 'Basic ====', 'Basic !!!', 'Bearer  a b', 'Basic Og==', 'Bearer\t', 'bearer x'),
	headerText
);

type Body = { type: string | null; bytes: Buffer; chunked: boolean };

const bodyBytes = fc.oneof(
	{ weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
	{ weight: 1, arbitrary: fc.constantFrom(64 * 1024, 64 * 1024 + 1, 200 * 1024).map((n) => Buffer.alloc(n, 'a')) }
);

function chunkedBody(bytes: Buffer): Buffer {
	if (bytes.length === 0) return Buffer.from('0\r\n\r\n');
	return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);
}

const noBody: Body = { type: null, bytes: Buffer.alloc(0), chunked: false };

/** Mostly no body; sometimes random bytes, a huge body, or the given text under a random type. */
function bodyOf(text: fc.Arbitrary<string>, type: string): fc.Arbitrary<Body> {
	return mostly(
		fc.constant(noBody),
		fc.record({ type: mostly(fc.constant(type), fc.constant(null), contentType), bytes: text.map((t) => Buffer.from(t, 'utf8')), chunked: fc.boolean() }),
		fc.record({ type: fc.option(contentType), bytes: bodyBytes, chunked: fc.boolean() })
	);
}

interface Envelope {
	method: string;
	version: 'HTTP/1.1' | 'HTTP/1.0';
	host: string | null;
	userAgent: string | null;
	authorization: string | null;
	extraHeaders: [string, string][];
	absoluteForm: boolean;
}

function envelope(methods: string[], authorization: fc.Arbitrary<string | null>): fc.Arbitrary<Envelope> {
	return fc.record({
		method: mostly(fc.constantFrom(...methods), fc.constantFrom(...OTHER_METHODS)),
		version: mostly(fc.constant('HTTP/1.1' as const), fc.constant('HTTP/1.0' as const)),
		host: mostly(fc.constant('127.0.0.1'), fc.constant(null), headerText),
		userAgent: mostly(fc.constant('fuzz/1'), fc.constant(null), headerText),
		authorization,
		extraHeaders: fc.array(fc.tuple(fc.constantFrom('X-Fuzz', 'Accept', 'Cookie', 'Expect', 'Origin', 'Accept-Encoding'), headerText), { maxLength: 2 }),
		absoluteForm: mostly(fc.constant(false), fc.constant(true))
	});
}

function request(env: Envelope, path: string, query: string, body: Body): RawRequest {
	const headers: [string, string][] = [];
	if (env.host !== null) headers.push(['Host', env.host]);
	if (env.userAgent !== null) headers.push(['User-Agent', env.userAgent]);
	if (env.authorization !== null) headers.push(['Authorization', env.authorization]);
	if (body.type !== null) headers.push(['Content-Type', body.type]);
	headers.push(...env.extraHeaders, ['Connection', 'close']);
	let bytes = body.bytes;
	if (body.chunked && env.version === 'HTTP/1.1') {
		headers.push(['Transfer-Encoding', 'chunked']);
		bytes = chunkedBody(bytes);
	} else if (bytes.length > 0) {
		headers.push(['Content-Length', String(bytes.length)]);
	}
	const target = `${env.absoluteForm ? 'http://127.0.0.1' : ''}${path}${query === '' ? '' : `?${query}`}`;
	return { method: env.method, target, version: env.version, headers, body: bytes };
}

/* ------------------------------------------------------------- properties */

let sandbox: RunningAccounts;
let port: number;
let token: string;

beforeAll(async () => {
	sandbox = await startAccounts();
	port = Number(new URL(sandbox.url).port);
	token = await accessTokenFor(sandbox, 'student@example.com');
});
afterAll(() => sandbox.close());

describe('fuzzing the token endpoint', () => {
	it('answers every request with a row of the token table', { timeout: FUZZ_TIMEOUT_MS }, async () => {
		const valid = {
			grant_type: mostly(fc.constant('authorization_code'), fc.constantFrom('refresh_token', 'password', 'AUTHORIZATION_CODE')),
			// A fresh code in most runs, so success (and, on a replayed run, 'used') is reached as well as the errors.
			code: mostly(fc.constant('').map(() => issueCode(sandbox.store)), credentialLike),
			redirect_uri: mostly(fc.constant(CALLBACK), fc.constantFrom(`${CALLBACK}?x=1`, 'http://localhost:3000/other')),
			client_id: mostly(fc.constant(DEMO.client_id as string), fc.constantFrom('group-key-client', 'nobody')),
			client_secret: mostly(fc.constant(DEMO.client_secret as string), fc.constant('wrong')),
			refresh_token: credentialLike
		};
		const params = mutatedParams(valid);
		/** Where the parameters travel: the query string, a form body, or split between the two. */
		const placed = fc.tuple(params, fc.nat()).chain(([pairs, cut]) => {
			const at = pairs.length === 0 ? 0 : cut % (pairs.length + 1);
			const query = queryOf(pairs.slice(0, at));
			const form = queryOf(pairs.slice(at));
			return fc.tuple(fc.constant(query), form === '' ? fc.constant(noBody) : bodyOf(fc.constant(form), 'application/x-www-form-urlencoded'));
		});
		const authorization = mostly(fc.constant(null), basicCredentials, malformedAuthorization);
		await fc.assert(
			fc.asyncProperty(envelope(['POST'], authorization), placed, async (env, [query, body]) => {
				await check(port, request(env, '/oauth/token', query, body), tokenVerdict);
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('fuzzing me.json', () => {
	it('answers every request with a row of the me.json table', { timeout: FUZZ_TIMEOUT_MS }, async () => {
		const accessToken = mostly(fc.constant(token), credentialLike, fc.constant('').map(() => issueCode(sandbox.store)));
		const authorization = mostly(accessToken.map((t) => `Bearer ${t}`), fc.constant(null), malformedAuthorization, basicCredentials);
		const query = mostly(fc.constant<Pair[]>([]), mutatedParams({ access_token: accessToken })).map(queryOf);
		await fc.assert(
			fc.asyncProperty(envelope(['GET', 'HEAD'], authorization), query, bodyOf(query, 'text/plain'), async (env, q, body) => {
				await check(port, request(env, '/api/v3/me.json', q, body), meVerdict);
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('fuzzing the control API', () => {
	const CONTROL_PATHS = ['reset', 'clients', 'users', 'clock', 'authorize', 'log', 'state', 'nothing', ''];
	/** Bodies shaped like the real ones with fuzzed fields, so validation past the first field is reached too. */
	const shapedBody = fc.record(
		{
			client_id: fc.oneof(fc.constant('fuzz-client'), fc.string()),
			client_secret: fc.string({ maxLength: 10 }),
			redirect_uris: fc.array(fc.oneof(fc.constant('https://app.example/cb'), fc.string()), { maxLength: 3 }),
			countries: fc.array(fc.oneof(fc.constantFrom('uk', 'gb', 'FR', 'zz'), fc.string({ maxLength: 3 })), { maxLength: 3 }),
			login: fc.oneof(fc.constant('student@example.com'), fc.string()),
			password: fc.constant('pw'),
			verifications: fc.array(fc.record({ supergroup: fc.constantFrom('student', 'graduate', 'x'), expires_on: fc.constantFrom('2030-02-30', '2030-01-01', 'x') }), { maxLength: 2 }),
			advance_seconds: fc.oneof(fc.integer(), fc.double(), fc.constant(7200)),
			supergroup: fc.constantFrom('student', 'nope'),
			response_type: fc.constantFrom('code', 'token'),
			redirect_uri: fc.constantFrom(CALLBACK, 'x'),
			country: fc.constantFrom('uk', 'gb'),
			decision: fc.constantFrom('authorize', 'cancel', 'maybe')
		},
		{ requiredKeys: [] }
	);
	const jsonText = fc.oneof(
		shapedBody.map((b) => JSON.stringify(b)),
		fc.json({ maxDepth: 3 }),
		fc.constantFrom('{', '[]', 'null', '"x"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '\u0000', '{}')
	);
	it('answers every request with 2xx or a 4xx with {error}', { timeout: FUZZ_TIMEOUT_MS }, async () => {
		const query = mostly(fc.constant<Pair[]>([]), mutatedParams({ limit: fc.constantFrom('1', '0', '500', '501', '1.5', '-1', 'x') })).map(queryOf);
		const body = mostly(
			fc.record({ type: mostly(fc.constant('application/json'), fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON')), bytes: jsonText.map((s) => Buffer.from(s, 'utf8')), chunked: fc.boolean() }),
			bodyOf(jsonText, 'application/json')
		);
		const authorization = mostly(fc.constant(null), malformedAuthorization);
		await fc.assert(
			fc.asyncProperty(envelope(['POST', 'GET'], authorization), fc.constantFrom(...CONTROL_PATHS), query, body, async (env, path, q, b) => {
				await check(port, request(env, `/sandbox/${path}`, q, b), controlVerdict);
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('the fuzz harness itself', () => {
	it('sees a table row and a parser refusal for what they are', async () => {
		const get = (headers: [string, string][]): RawRequest => ({ method: 'GET', target: '/api/v3/me.json', version: 'HTTP/1.1', headers, body: Buffer.alloc(0) });
		const noUserAgent = await exchange(port, serialise(get([['Host', 'h'], ['Connection', 'close']])), 'GET');
		expect(noUserAgent.ok && noUserAgent.response.status).toBe(403);
		expect(noUserAgent.ok && meVerdict(noUserAgent.response, 'GET')).toBeNull();
		const noHost = await exchange(port, serialise(get([['Connection', 'close']])), 'GET');
		expect(noHost.ok && isParserRefusal(noHost.response)).toBe(true);
		expect(tokenVerdict({ status: 200, headers: new Map(), body: Buffer.from('{"error":"x"}') }, 'POST', `client_secret=${DEMO.client_secret}`)).not.toBeNull();
		const tokens = Buffer.from(JSON.stringify({ access_token: 'a', token_type: 'Bearer', expires_in: 1, refresh_token: 'r', created_at: 1 }));
		expect(tokenVerdict({ status: 200, headers: new Map(), body: tokens }, 'POST', 'client_secret=wrong')).toContain('without the client secret');
		const client = { client_id: 'c', name: 'c', redirect_uris: [], countries: ['uk'], verification_key: 'supergroup' };
		const answer = (body: unknown) => ({ status: 200, headers: new Map(), body: Buffer.from(JSON.stringify(body)) });
		const clients = 'POST /sandbox/clients HTTP/1.1\r\n';
		expect(controlVerdict(answer(client), 'POST', clients)).toBeNull();
		expect(controlVerdict(answer({ ...client, client_secret: 's' }), 'POST', clients)).not.toBeNull();
		expect(controlVerdict(answer(client), 'POST', 'POST http://127.0.0.1/sandbox/nothing?x=1 HTTP/1.1\r\n')).toContain('no control endpoint');
	});
});
