import { describe, expect, it } from 'vitest';
import { holdSecret, misdirectedSecret, secretFor } from './held-secret';
import { buildMeRequest, buildTokenRequest, type TokenTransport } from './requests';

const SECRET = 'held secret/+=é';
const SANDBOX = 'http://localhost:3002';
const held = holdSecret(SECRET, `${SANDBOX}/base/`);

const tokenRequest = (accountsUrl: string, transport: TokenTransport, clientSecret = SECRET) =>
	buildTokenRequest({ accountsUrl, code: 'c', redirectUri: 'http://localhost:3000/callback', clientId: 'demo-client', clientSecret, transport });

describe('holdSecret', () => {
	it('binds the value to the origin of the accounts URL it was given for', () => {
		expect(held).toEqual({ value: SECRET, origin: SANDBOX });
	});
});

describe('secretFor', () => {
	it('gives the value for a request to its own origin, under any path', () => {
		expect(secretFor(held, `${SANDBOX}/oauth/token`)).toBe(SECRET);
	});

	it('gives nothing for another origin: another host, port, scheme or name for the same machine', () => {
		for (const url of ['http://evil.example/oauth/token', 'http://localhost:3003/oauth/token', 'https://localhost:3002/oauth/token', 'http://127.0.0.1:3002/oauth/token', 'not a url']) {
			expect(secretFor(held, url), url).toBeUndefined();
		}
		expect(secretFor(null, `${SANDBOX}/oauth/token`)).toBeUndefined();
	});
});

describe('misdirectedSecret', () => {
	it('refuses a request carrying a held secret to another origin, in every transport, naming the origins but never the value', () => {
		for (const transport of ['query', 'form', 'basic', 'bearer'] as const) {
			const refusal = misdirectedSecret(tokenRequest('http://127.0.0.1:9', transport), [held]);
			expect(refusal, transport).toContain(`holds for ${SANDBOX}, and it goes to http://127.0.0.1:9`);
			expect(refusal).not.toContain(SECRET);
			expect(refusal).not.toContain(encodeURIComponent(SECRET));
		}
	});

	it('refuses the secret inside another value (a tampered secret) or anywhere in a request, not only in client_secret', () => {
		expect(misdirectedSecret(tokenRequest('http://127.0.0.1:9', 'query', `${SECRET}-wrong`), [held])).not.toBeNull();
		expect(misdirectedSecret(buildMeRequest({ accountsUrl: 'http://127.0.0.1:9', token: SECRET, transport: 'header', userAgent: true }), [held])).not.toBeNull();
	});

	it('lets a request carry a held secret to its own origin, and any request that carries none go anywhere', () => {
		for (const transport of ['query', 'form', 'basic', 'bearer'] as const) {
			expect(misdirectedSecret(tokenRequest(SANDBOX, transport), [held]), transport).toBeNull();
			expect(misdirectedSecret(tokenRequest('http://127.0.0.1:9', transport, 'another-secret'), [held]), transport).toBeNull();
		}
		expect(misdirectedSecret(tokenRequest('http://127.0.0.1:9', 'query'), [])).toBeNull();
	});
});
