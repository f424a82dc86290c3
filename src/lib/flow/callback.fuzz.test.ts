/**
 * Fuzzing the callback classifier: any received address against any redirect URI gives one of the three kinds,
 * never an exception; and a redirect built the way the service builds it (the redirect URI with `code` added,
 * extras kept) is always read back as that code with nothing missing.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS, anyTextUpTo } from '../fuzzing';
import { describe, expect, it } from 'vitest';
import { classifyCallback } from './callback';
import { appendQueryParams } from './link/link';

const anyText = anyTextUpTo(60);
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 20 });
const PIECES = ['https://app.example/cb', 'http://localhost:3000/callback', '?', '#', '&', '=', 'code=', 'code', 'error=access_denied', '%', '%zz', '%25', '+', ' ', '\u0000', '//', '@'];
const urlish = fc.array(fc.oneof(wellFormed, fc.constantFrom(...PIECES)), { maxLength: 8 }).map((p) => p.join(''));
const extraName = wellFormed.filter((n) => n !== '' && n !== 'code');

describe('fuzzing classifyCallback', () => {
	it('classifies any text against any redirect URI without throwing', () => {
		fc.assert(
			fc.property(fc.oneof(urlish, anyText), fc.oneof(urlish, anyText), (received, redirectUri) => {
				const result = classifyCallback(received, { redirectUri });
				expect(['code', 'cancel', 'unexpected']).toContain(result.kind);
				if (result.kind === 'code') expect(result.code).not.toBe('');
				if (result.kind === 'unexpected') expect(result.reason.length).toBeGreaterThan(0);
			}),
			FUZZ_SETTINGS
		);
	});

	it('reads back the code and every extra parameter of a redirect the service built', () => {
		const base = fc.constantFrom('https://app.example/cb', 'http://localhost:3000/callback', 'https://app.example/a%20b/');
		const extras = fc.uniqueArray(fc.tuple(extraName, wellFormed), { maxLength: 3, selector: ([n]) => n });
		const code = fc.string({ unit: fc.constantFrom(...'ABCabc019_-'.split('')), minLength: 1, maxLength: 43 });
		fc.assert(
			fc.property(base, extras, code, (b, ex, c) => {
				const redirectUri = appendQueryParams(b, ex);
				const result = classifyCallback(appendQueryParams(redirectUri, [['code', c]]), { redirectUri });
				expect(result).toMatchObject({ kind: 'code', code: c, missingExtras: [] });
				if (result.kind === 'code') expect(result.preserved).toHaveLength(ex.length);
			}),
			FUZZ_SETTINGS
		);
	});
});
