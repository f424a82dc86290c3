/**
 * Fuzzing the importers (HAR, curl, raw HTTP) and the shell-word splitter: random and mangled input gives a run
 * or a message, never an exception; and a client secret in an imported curl command never survives redaction.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS, anyTextUpTo } from '$lib/fuzzing';
import { describe, expect, it } from 'vitest';
import { parseCurl, parseRawHttp } from './curl-import';
import { harStreamToRun, harToRun } from './har/har';
import type { ImportResult } from './run';
import { shellWords } from './shell-words';
import { FIXTURES, commandish, httpish, mangledHar } from '../testing/import-fuzz-inputs';
import { leaks } from '$lib/http/leak-forms';

const OPTIONS = { id: 'fuzz', now: new Date('2026-01-01T00:00:00Z') };

const anyText = anyTextUpTo(200);

function answered(result: ImportResult | { ok: false; message: string }): void {
	if (result.ok) expect(result.run.exchanges.length + (result.run.link ? 1 : 0)).toBeGreaterThan(0);
	else expect(result.message.length).toBeGreaterThan(0);
}

/* ------------------------------------------------------------------ HAR */

describe('fuzzing HAR import', () => {
	it('imports or explains any mangled HAR file', () => {
		fc.assert(fc.property(mangledHar, (text) => answered(harToRun(text, OPTIONS))), FUZZ_SETTINGS);
	});
	it('imports or explains any text, truncated HAR files and random JSON', () => {
		const truncated = fc.tuple(fc.constantFrom(...FIXTURES), fc.nat()).map(([t, n]) => t.slice(0, n % t.length));
		const text = fc.oneof(anyText, truncated, fc.json({ maxDepth: 4 }), fc.constantFrom('', 'null', '{"log":null}', '{"log":{"entries":{}}}', '[]'));
		fc.assert(fc.property(text, (t) => answered(harToRun(t, OPTIONS))), FUZZ_SETTINGS);
	});
	it('read as a stream, imports what it imports whole, with the same requests, and refuses what it refuses', async () => {
		const truncated = fc.tuple(fc.constantFrom(...FIXTURES), fc.nat()).map(([t, n]) => t.slice(0, n % t.length));
		const input = fc.tuple(fc.oneof(mangledHar, truncated, fc.json({ maxDepth: 4 })), fc.integer({ min: 1, max: 5000 }));
		const shape = (result: ReturnType<typeof harToRun>) =>
			result.ok ? result.run.exchanges.map((e) => `${e.id} ${e.step} ${e.request.method} ${e.request.url}`) : 'refused';
		await fc.assert(
			fc.asyncProperty(input, async ([text, size]) => {
				async function* pieces() {
					for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
				}
				const streamed = await harStreamToRun(pieces(), OPTIONS);
				answered(streamed);
				expect(shape(streamed)).toEqual(shape(harToRun(text, OPTIONS)));
			}),
			FUZZ_SETTINGS
		);
	});
	it('refuses a file over the size limit with a message', () => {
		expect(harToRun(FIXTURES[0]!, { ...OPTIONS, maxBytes: 100 })).toMatchObject({ ok: false });
	});
});

/* ------------------------------------------------------------------ curl and raw HTTP */

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
