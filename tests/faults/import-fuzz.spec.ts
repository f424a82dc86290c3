/**
 * The import route fuzzed end to end: random, mangled and hostile HAR files, curl commands and raw HTTP (lone
 * surrogates included), and malformed requests, posted to /api/import as the runs page posts them. Each is
 * answered 200 with a run whose page and every export open, or 4xx with a message; never a 5xx. The importers
 * themselves are fuzzed harder in src/lib/features/runs/pure/import.fuzz.test.ts.
 */
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { shellQuote } from '../../src/lib/flow/curl';
import { FUZZ_SETTINGS, anyTextUpTo } from '../../src/lib/fuzzing';
import { FIXTURES, commandish, httpish, mangledHar } from '../../src/lib/features/runs/testing/import-fuzz-inputs';

const anyText = anyTextUpTo(200);

/** A HAR fixture with any text (lone surrogates included) in one of its header values: still a valid HAR. */
const harWithText = fc.tuple(fc.constantFrom(...FIXTURES), anyText).map(([fixture, text]) => {
	const har = JSON.parse(fixture) as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } };
	har.log.entries[0]?.request.headers.push({ name: 'X-Fuzz', value: text });
	return JSON.stringify(har);
});
/** A curl command that imports, with any text in a header and the URL's query. */
const curlWithText = anyText.map((text) => `curl -H ${shellQuote(`X-Fuzz: ${text}`)} ${shellQuote(`https://accounts.example.com/api/v3/me.json?q=${text}`)}`);

const body = fc.oneof(
	fc.record({ kind: fc.constant('har'), text: fc.oneof(harWithText, mangledHar, anyText) }),
	fc.record({ kind: fc.constant('curl'), text: fc.oneof(curlWithText, commandish, anyText) }),
	fc.record({ kind: fc.constant('http'), text: fc.oneof(httpish, anyText) }),
	// Requests the route itself must refuse: an unknown kind, no text, text of the wrong type, no object at all.
	fc.constantFrom<unknown>({ kind: 'zip', text: 'x' }, { kind: 'har', text: '' }, { kind: 'har' }, { kind: 'curl', text: 42 }, [], 'curl x', null)
);

test('POST /api/import answers any input with a run that opens, or a message; never a 5xx', async ({ request }) => {
	test.setTimeout(180_000);
	let imported = 0;
	await fc.assert(
		fc.asyncProperty(body, async (data) => {
			const answer = await request.post('/api/import', { data: JSON.stringify(data), headers: { 'content-type': 'application/json' } });
			const text = await answer.text();
			expect(answer.status(), text).toBeLessThan(500);
			const parsed = JSON.parse(text) as { id?: string; message?: string };
			if (answer.status() !== 200) {
				expect(answer.status()).toBeGreaterThanOrEqual(400);
				expect(parsed.message, text).toBeTruthy();
				return;
			}
			imported++;
			for (const path of [`/runs/${parsed.id}`, ...['har', 'markdown', 'shell'].map((format) => `/runs/${parsed.id}/export/${format}`)]) {
				const page = await request.get(path);
				expect(page.status(), `${path} after importing ${JSON.stringify(data).slice(0, 300)}`).toBe(200);
			}
		}),
		{ ...FUZZ_SETTINGS, numRuns: Math.min(FUZZ_SETTINGS.numRuns, 150) }
	);
	// The inputs reach the end of the pipeline, not only its refusals.
	expect(imported).toBeGreaterThan(20);
});
