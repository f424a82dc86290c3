/**
 * Fuzzing the link builder, the link table and the redirect-URI helper: random input never throws, and a built
 * link takes apart into exactly the values it was built from. Fixed seed in `npm test`; `npm run fuzz` runs longer.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS, anyTextUpTo } from '../../fuzzing';
import { describe, expect, it } from 'vitest';
import { appendQueryParams, buildAuthorisationLink, linkParts, type LinkInput } from './link';

const anyText = anyTextUpTo(40);
/** Text a form field would hold: well-formed Unicode. */
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 40 });
/** URL-ish text: schemes, delimiters and escapes mixed in. */
const urlish = fc
	.array(fc.oneof(wellFormed, fc.constantFrom('https://', 'http://', '/', '?', '#', '&', '=', '%', '%2', '%zz', '%25', '+', ':', '@', '[::1]', '..', ' ', '\u0000')), { maxLength: 8 })
	.map((parts) => parts.join(''));

function linkInput(text: fc.Arbitrary<string>): fc.Arbitrary<LinkInput> {
	return fc.record({
		authUrl: fc.oneof(fc.constantFrom('https://auth.example.com', 'http://localhost:3001/', 'https://auth.example.com/base//'), urlish),
		supergroup: text,
		responseType: text,
		clientId: text,
		redirectUri: fc.oneof(urlish, text),
		country: text,
		extraLinkParams: fc.array(fc.tuple(text, text), { maxLength: 3 })
	});
}

describe('fuzzing buildAuthorisationLink and linkParts', () => {
	it('takes any built link apart into the values it was built from', () => {
		fc.assert(
			fc.property(linkInput(wellFormed), (input) => {
				const parts = linkParts(buildAuthorisationLink({ ...input, authUrl: 'https://auth.example.com' }));
				expect(parts[0]).toMatchObject({ location: 'path' });
				if (input.supergroup !== '') expect(parts[0]).toMatchObject({ name: 'supergroup', decoded: input.supergroup });
				const query = parts.slice(1).map((p) => [p.name, p.decoded]);
				expect(query).toEqual([
					['response_type', input.responseType],
					['client_id', input.clientId],
					['redirect_uri', input.redirectUri],
					['country', input.country],
					...(input.extraLinkParams ?? [])
				]);
			}),
			FUZZ_SETTINGS
		);
	});

	it('builds a link for any text, lone surrogates included', () => {
		fc.assert(
			fc.property(linkInput(anyText), (input) => {
				expect(buildAuthorisationLink(input)).toContain('/sso/');
			}),
			FUZZ_SETTINGS
		);
	});

	it('takes any text apart without throwing', () => {
		fc.assert(
			fc.property(fc.oneof(urlish, anyText), (text) => {
				const parts = linkParts(text);
				expect(parts.length).toBeGreaterThan(0);
				for (const p of parts) expect(typeof p.decoded).toBe('string');
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('fuzzing appendQueryParams', () => {
	it('keeps the URI it extends, for any text', () => {
		fc.assert(
			fc.property(fc.oneof(urlish, anyText), fc.array(fc.tuple(anyText, anyText), { maxLength: 3 }), (uri, params) => {
				const result = appendQueryParams(uri, params);
				const hash = uri.indexOf('#');
				expect(result.startsWith(hash === -1 ? uri : uri.slice(0, hash))).toBe(true);
				if (hash !== -1) expect(result.endsWith(uri.slice(hash))).toBe(true);
			}),
			FUZZ_SETTINGS
		);
	});
});
