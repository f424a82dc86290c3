/**
 * For the fuzz tests only: inputs for the importers, shared by the unit fuzzers (import.fuzz.test.ts) and the
 * browser test that fuzzes the import route end to end (tests/faults/import-fuzz.spec.ts). Relative imports, so
 * Playwright can load it.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { anyTextUpTo } from '../../../fuzzing';

const anyText = anyTextUpTo(200);

const FIXTURES_DIR = new URL('../pure/har/fixtures/', import.meta.url);
export const FIXTURES = readdirSync(FIXTURES_DIR).map((name) => readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));

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

/** A fixture HAR with one to four of its values replaced by hostile ones, or removed. */
export const mangledHar = fc
	.tuple(fc.constantFrom(...FIXTURES), fc.array(fc.tuple(fc.nat(), hostileValue), { minLength: 1, maxLength: 4 }))
	.map(([text, edits]) =>
		edits.reduce((doc, [pick, value]) => {
			const all = paths(doc);
			return mutate(doc, all[pick % all.length]!, value);
		}, JSON.parse(text) as Json)
	)
	.map((doc) => JSON.stringify(doc));

const WORDS = [
	'curl', '-X', 'POST', '-H', '-d', '--data', '--data-raw', '--data-urlencode', '--data-binary', '-G', '-u', '--user', '--json', '-A', '-e', '-b', '-I', '--url', '-s', '--compressed', '-L', '-k', '--', '\\\n', '|', ';', '$(', '`',
	"'", '"', '\\', 'https://accounts.example.com/oauth/token', 'accounts.example.com/api/v3/me.json', 'https://auth.example.com/sso/student?client_id=x',
	'Authorization: Bearer abc', 'Authorization: Basic ZGVtbzpzZWNyZXQ=', 'grant_type=authorization_code', 'client_secret=s3cr3t', '@file', '=', '&', '%zz', '\u0000', '$VAR', '${X}', '~', '*'
];
/** Words of curl commands, shell syntax and junk, in any order. */
export const commandish = fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 10 })), { maxLength: 14 }).map((w) => w.join(' '));

const HTTP_LINES = [
	'POST /oauth/token?grant_type=authorization_code HTTP/1.1', 'GET /api/v3/me.json HTTP/1.1', 'GET https://accounts.example.com/api/v3/me.json', 'Host: accounts.example.com', 'Host:',
	':authority: x', ':scheme: ftp', 'Authorization: Bearer x', 'Content-Type: application/x-www-form-urlencoded', '', '', 'client_secret=s&code=c', 'HTTP/1.1 200 OK', 'HTTP/2 401',
	'{"error":"invalid_grant"}', 'no colon here', '\r', ' \t ', 'Host: [::1]:99999'
];
/** Lines of raw HTTP requests and answers, and junk, in any order. */
export const httpish = fc
	.tuple(fc.array(fc.oneof(fc.constantFrom(...HTTP_LINES), fc.string({ maxLength: 20 })), { maxLength: 10 }), fc.constantFrom('\n', '\r\n'))
	.map(([lines, newline]) => lines.join(newline));
