/**
 * Fuzzing the importers (HAR, curl, raw HTTP) and the shell-word splitter: random and mangled input gives a run
 * or a message, never an exception; and a client secret in an imported curl command never survives redaction.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS, anyTextUpTo } from '$lib/flow/fuzzing';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCurl, parseRawHttp } from './curl-import';
import { harToRun } from './har';
import type { ImportResult } from './run';
import { shellWords } from './shell-words';
import { leaks } from './test-helpers';

const OPTIONS = { id: 'fuzz', now: new Date('2026-01-01T00:00:00Z') };

const anyText = anyTextUpTo(200);

function answered(result: ImportResult | { ok: false; message: string }): void {
	if (result.ok) expect(result.run.exchanges.length + (result.run.link ? 1 : 0)).toBeGreaterThan(0);
	else expect(result.message.length).toBeGreaterThan(0);
}

/* ------------------------------------------------------------------ HAR */

const FIXTURES_DIR = new URL('./fixtures/', import.meta.url);
const FIXTURES = readdirSync(FIXTURES_DIR).map((name) => readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside a JSON document. */
function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
	if (value === null || typeof value !== 'object') return [at];
	const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
	return [at, ...children.flatMap(([k, v]) => paths(v, [...at, k]))];
}

/** The document with the value at `path` replaced (or removed when `replacement` is undefined). */
function mutate(doc: Json, path: (string | number)[], replacement: Json | undefined): Json {
	if (path.length === 0) return replacement ?? null;
	const [head, ...rest] = path;
	if (Array.isArray(doc)) return doc.flatMap((v, i) => (i !== head ? [v] : rest.length === 0 && replacement === undefined ? [] : [mutate(v, rest, replacement)]));
	if (doc === null || typeof doc !== 'object') return doc;
	const copy = { ...doc };
	if (rest.length === 0 && replacement === undefined) delete copy[head as string];
	else copy[head as string] = mutate(doc[head as string] ?? null, rest, replacement);
	return copy;
}

const hostileValue: fc.Arbitrary<Json | undefined> = fc.oneof(
	fc.constant(undefined),
	fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
	anyText,
	fc.constantFrom(-1, 1e308, 0.5, '', 'not a url', 'http://', 'javascript:alert(1)', '%zz', '\u0000', 'x'.repeat(10_000))
);

const mangledHar = fc
	.tuple(fc.constantFrom(...FIXTURES), fc.array(fc.tuple(fc.nat(), hostileValue), { minLength: 1, maxLength: 4 }))
	.map(([text, edits]) =>
		edits.reduce((doc, [pick, value]) => {
			const all = paths(doc);
			return mutate(doc, all[pick % all.length]!, value);
		}, JSON.parse(text) as Json)
	)
	.map((doc) => JSON.stringify(doc));

describe('fuzzing HAR import', () => {
	it('imports or explains any mangled HAR file', () => {
		fc.assert(fc.property(mangledHar, (text) => answered(harToRun(text, OPTIONS))), FUZZ_SETTINGS);
	});
	it('imports or explains any text, truncated HAR files and random JSON', () => {
		const truncated = fc.tuple(fc.constantFrom(...FIXTURES), fc.nat()).map(([t, n]) => t.slice(0, n % t.length));
		const text = fc.oneof(anyText, truncated, fc.json({ maxDepth: 4 }), fc.constantFrom('', 'null', '{"log":null}', '{"log":{"entries":{}}}', '[]'));
		fc.assert(fc.property(text, (t) => answered(harToRun(t, OPTIONS))), FUZZ_SETTINGS);
	});
	it('refuses a file over the size limit with a message', () => {
		expect(harToRun(FIXTURES[0]!, { ...OPTIONS, maxBytes: 100 })).toMatchObject({ ok: false });
	});
});

/* ------------------------------------------------------------------ curl and raw HTTP */

const WORDS = [
	'curl', '-X', 'POST', '-H', '-d', '--data', '--data-raw', '--data-urlencode', '--data-binary', '-G', '-u', '--user', '--json', '-A', '-e', '-b', '-I', '--url', '-s', '--compressed', '-L', '-k', '--', '\\\n', '|', ';', '$(', '`',
	"'", '"', '\\', 'https://accounts.example.com/oauth/token', 'accounts.example.com/api/v3/me.json', 'https://auth.example.com/sso/student?client_id=x',
	'Authorization: Bearer abc', 'Authorization: Basic ZGVtbzpzZWNyZXQ=', 'grant_type=authorization_code', 'client_secret=s3cr3t', '@file', '=', '&', '%zz', '\u0000', '$VAR', '${X}', '~', '*'
];
const commandish = fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 10 })), { maxLength: 14 }).map((w) => w.join(' '));

const HTTP_LINES = [
	'POST /oauth/token?grant_type=authorization_code HTTP/1.1', 'GET /api/v3/me.json HTTP/1.1', 'GET https://accounts.example.com/api/v3/me.json', 'Host: accounts.example.com', 'Host:',
	':authority: x', ':scheme: ftp', 'Authorization: Bearer x', 'Content-Type: application/x-www-form-urlencoded', '', '', 'client_secret=s&code=c', 'HTTP/1.1 200 OK', 'HTTP/2 401',
	'{"error":"invalid_grant"}', 'no colon here', '\r', ' \t ', 'Host: [::1]:99999'
];
const httpish = fc
	.tuple(fc.array(fc.oneof(fc.constantFrom(...HTTP_LINES), fc.string({ maxLength: 20 })), { maxLength: 10 }), fc.constantFrom('\n', '\r\n'))
	.map(([lines, newline]) => lines.join(newline));

describe('fuzzing curl and raw HTTP import', () => {
	it('splits any text into shell words or says why not', () => {
		fc.assert(
			fc.property(fc.oneof(commandish, anyText), (text) => {
				const split = shellWords(text);
				if (split.ok) for (const w of split.words) expect(typeof w).toBe('string');
				else expect(split.message.length).toBeGreaterThan(0);
			}),
			FUZZ_SETTINGS
		);
	});
	it('imports or explains any curl-like command', () => {
		fc.assert(fc.property(fc.oneof(commandish, anyText), (text) => answered(parseCurl(text, OPTIONS))), FUZZ_SETTINGS);
	});
	it('imports or explains any HTTP-like text', () => {
		fc.assert(fc.property(fc.oneof(httpish, anyText), (text) => answered(parseRawHttp(text, OPTIONS))), FUZZ_SETTINGS);
	});
	it('never keeps the client secret of an imported token exchange, however it was sent', () => {
		const secret = fc.string({ unit: fc.constantFrom(...'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789-_.~!*()'.split('')), minLength: 12, maxLength: 40 });
		const command = fc.tuple(secret, fc.constantFrom('query', 'data', 'urlencode', 'basic', 'header', 'json')).map(([s, how]) => {
			const quoted = `'${s.replaceAll("'", "'\\''")}'`;
			const base = 'curl -X POST https://accounts.example.com/oauth/token';
			const params = 'grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&client_id=shop';
			switch (how) {
				case 'query':
					return { s, command: `curl -X POST 'https://accounts.example.com/oauth/token?${params}&client_secret=${encodeURIComponent(s)}'` };
				case 'data':
					return { s, command: `${base} -d '${params}' -d ${quoted.replace(/^'/, "'client_secret=")}` };
				case 'urlencode':
					return { s, command: `${base} -d '${params}' --data-urlencode ${quoted.replace(/^'/, "'client_secret=")}` };
				case 'basic':
					return { s, command: `${base} -d '${params}' -u ${quoted.replace(/^'/, "'shop:")}` };
				case 'header':
					return { s, command: `${base} -d '${params}' -H 'Authorization: Basic ${btoa(`shop:${s}`)}'` };
				default:
					return { s, command: `${base} --json '${JSON.stringify({ client_id: 'shop', client_secret: s }).replaceAll("'", "'\\''")}'` };
			}
		});
		fc.assert(
			fc.property(command, ({ s, command: c }) => {
				const result = parseCurl(c, OPTIONS);
				expect(result.ok, result.ok ? '' : result.message).toBe(true);
				expect(leaks(JSON.stringify(result), s, ['shop'])).toEqual([]);
			}),
			FUZZ_SETTINGS
		);
	});
});
