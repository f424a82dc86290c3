/**
 * Fuzzing the remembering redactor: for random runs grown an exchange at a time, with secrets hidden in any
 * encoding, by name or not, and known secrets that grow with the run, it always gives what `redactRun` gives.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS } from '$lib/fuzzing';
import { describe, expect, it } from 'vitest';
import { redactRun } from './redact';
import { exchange, run } from '../test-helpers';

const VALUES = ['sEcr3t+value/with=odd&chars', 'access-0123456789abcdef', 'access-0123456789abcdef-longer', 'code-AAAA1111', 'hunter2', 'Bearer', 'a b+c/d', 'abc'];
const NAMES = ['client_secret', 'access_token', 'refresh_token', 'password', 'code', 'note', 'grant_type'];

const value = fc.constantFrom(...VALUES);
const piece = fc.oneof(
	value,
	value.map(encodeURIComponent),
	value.map((v) => JSON.stringify(v).slice(1, -1)),
	value.map((v) => btoa(`shop:${v}`)),
	fc.constantFrom(...NAMES),
	fc.string({ maxLength: 6 })
);
const query = fc.array(fc.tuple(piece, piece), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const jsonBody = fc.array(fc.tuple(fc.constantFrom(...NAMES), piece), { maxLength: 3 }).map((pairs) => JSON.stringify(Object.fromEntries(pairs)));
const headerValue = fc.oneof(
	piece,
	piece.map((p) => `Bearer ${p}`),
	piece.map((p) => `Basic ${p}`),
	query.map((q) => `https://shop.example/callback?${q}`),
	fc.constantFrom('application/json', 'application/x-www-form-urlencoded')
);
const headers = fc.dictionary(fc.constantFrom('Authorization', 'Cookie', 'Set-Cookie', 'Location', 'X-Note', 'Content-Type'), headerValue, { maxKeys: 3 });
const anExchange = fc
	.record({
		step: fc.constantFrom('token' as const, 'me' as const, 'link' as const),
		query,
		body: fc.option(fc.oneof(query, jsonBody)),
		headers,
		responseBody: fc.oneof(jsonBody, query, piece),
		responseHeaders: headers,
		status: fc.constantFrom(200, 400)
	})
	.map((e) =>
		exchange(
			e.step,
			{ method: 'POST', url: `https://accounts.example.com/oauth/token?${e.query}`, headers: e.headers, body: e.body },
			{ status: e.status, headers: e.responseHeaders, body: e.responseBody }
		)
	);
const aWalk = fc.record({
	link: fc.option(query.map((q) => `https://auth.example.com/sso/student?${q}`)),
	callback: fc.option(query.map((q) => ({ url: `https://shop.example/callback?${q}`, receivedAt: '2026-01-01T10:00:00.000Z' }))),
	exchanges: fc.array(anExchange, { maxLength: 6 }),
	clientSecrets: fc.subarray(VALUES),
	tokens: fc.subarray(VALUES)
});

type Walk = typeof aWalk extends fc.Arbitrary<infer T> ? T : never;

let ids = 0;

/**
 * The walk's run (id `id`) after its first `n` exchanges, with the secrets the explorer knows by then, redacted as
 * `redactRun` redacts a run it has never seen (a new id).
 */
function expectAsFresh(id: string, { link, callback, exchanges, clientSecrets, tokens }: Walk, n: number): void {
	const grown = run({ id, link, callback, exchanges: exchanges.slice(0, n) });
	const known = { clientSecrets, tokens: tokens.slice(0, n) };
	const fresh = { ...grown, id: `fresh-${ids++}` };
	expect(redactRun(grown, known)).toEqual({ ...redactRun(fresh, known), id });
}

describe('fuzzing the redaction of a growing run', () => {
	it('gives what redactRun gives at every step of a growing run', () => {
		fc.assert(
			fc.property(aWalk, (walk) => {
				const id = `walk-${ids++}`;
				for (let n = 0; n <= walk.exchanges.length; n++) expectAsFresh(id, walk, n);
			}),
			FUZZ_SETTINGS
		);
	});

	it('gives what redactRun gives when another run of the same id, which does not continue it, comes between its steps', () => {
		fc.assert(
			fc.property(aWalk, aWalk, fc.array(fc.nat(6), { maxLength: 7 }), (walk, other, between) => {
				const id = `walk-${ids++}`;
				for (let n = 0; n <= walk.exchanges.length; n++) {
					expectAsFresh(id, walk, n);
					const otherLength = between[n];
					if (otherLength !== undefined) expectAsFresh(id, other, otherLength);
				}
			}),
			FUZZ_SETTINGS
		);
	});
});
