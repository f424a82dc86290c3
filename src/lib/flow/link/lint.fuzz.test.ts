/**
 * Fuzzing the link linter: any text (and any context) gives findings, never an exception, and no finding ever
 * repeats the client secret, whether the secret is known to the linter or only sits in the link as a parameter.
 */
import fc from 'fast-check';
import { FUZZ_SETTINGS, anyTextUpTo } from '../../fuzzing';
import { describe, expect, it } from 'vitest';
import { buildAuthorisationLink } from './link';
import { lintLink, type Finding } from './lint';

const anyText = anyTextUpTo(60);
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 30 });
const PIECES = ['https://', 'http://', 'javascript:', '/sso/', 'student', '?', '#', '&', '=', '%', '%zz', '%25', '%2F', '+', ':', '@', ' ', '\u0000', 'response_type=code', 'client_secret=', 'redirect_uri=', 'country=gb', '/oauth/token', '[::1]', 'localhost'];
const urlish = fc.array(fc.oneof(wellFormed, fc.constantFrom(...PIECES)), { maxLength: 10 }).map((p) => p.join(''));
/** Secrets distinctive enough that they cannot occur in a finding's fixed wording by chance. */
const secret = fc.string({ unit: fc.constantFrom(...'ABCDEFGHJKMNPQRSTUVWXYZ23456789-_.~'.split('')), minLength: 12, maxLength: 32 });

const context = fc.record(
	{
		authUrl: fc.oneof(fc.constant('https://auth.example.com'), urlish),
		accountsUrl: fc.oneof(fc.constant('https://accounts.example.com'), urlish),
		secret: fc.oneof(secret, anyText)
	},
	{ requiredKeys: [] }
);

function wellShaped(findings: Finding[]): void {
	for (const f of findings) {
		expect(['error', 'warning', 'info']).toContain(f.severity);
		expect(f.id.length).toBeGreaterThan(0);
		expect(f.message.length).toBeGreaterThan(0);
	}
}

function text(findings: Finding[]): string {
	return findings.map((f) => `${f.message}\n${f.fix}`).join('\n');
}

/** The forms of a secret a finding could quote: as given, URI-encoded, form-encoded. */
function forms(value: string): string[] {
	return [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)];
}

describe('fuzzing lintLink', () => {
	it('lints any text with any context without throwing', () => {
		fc.assert(
			fc.property(fc.oneof(urlish, anyText), context, (link, ctx) => wellShaped(lintLink(link, ctx))),
			FUZZ_SETTINGS
		);
	});

	it('never repeats a known secret, wherever the link carries it', () => {
		const link = fc.tuple(secret, wellFormed, fc.constantFrom('client_id', 'client_secret', 'redirect_uri', 'country', 'x'), fc.boolean()).map(
			([s, noise, where, inRedirect]) => {
				const redirectUri = inRedirect ? `https://app.example/cb?${where}=${s}` : 'https://app.example/cb';
				return {
					secret: s,
					link: buildAuthorisationLink({
						authUrl: 'https://auth.example.com',
						supergroup: 'student',
						responseType: 'code',
						clientId: where === 'client_id' ? s : `id${noise}`,
						redirectUri,
						country: where === 'country' ? s : 'uk',
						extraLinkParams: inRedirect ? [] : [[where, s]]
					})
				};
			}
		);
		fc.assert(
			fc.property(link, ({ secret: s, link: l }) => {
				const found = text(lintLink(l, { secret: s }));
				for (const form of forms(s)) expect(found).not.toContain(form);
			}),
			FUZZ_SETTINGS
		);
	});

	it('never repeats a client_secret parameter the linter was not told about', () => {
		const link = fc.tuple(secret, fc.array(fc.tuple(wellFormed, urlish), { maxLength: 3 }), fc.nat()).map(([s, noise, at]) => {
			const params = noise.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);
			params.splice(at % (params.length + 1), 0, `client_secret=${s}`);
			return { secret: s, link: `https://auth.example.com/sso/student?${params.join('&')}` };
		});
		fc.assert(
			fc.property(link, ({ secret: s, link: l }) => {
				const found = text(lintLink(l));
				expect(found).toContain('client_secret');
				for (const form of forms(s)) expect(found).not.toContain(form);
			}),
			FUZZ_SETTINGS
		);
	});
});
