import { describe, expect, it } from 'vitest';
import { TOKEN_ERRORS } from '$lib/protocol';
import { exchange, flow } from '../test-helpers';
import { browserOnly, causeSeen, unseenServerMessage } from './unseen-server';

describe('unseen server side', () => {
	it("holds for a record of the browser's requests only, not once an exchange or me.json call is in it", () => {
		const arrival = exchange('arrival', { url: 'https://shop.example.com/cb?code=c' }, { status: 500 });
		expect(browserOnly(flow({ exchanges: [arrival] }))).toBe(true);
		expect(browserOnly(flow({ exchanges: [arrival, exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 200 })] }))).toBe(false);
	});

	it('says what is unseen, and which error the page named', () => {
		expect(unseenServerMessage('Your app answered 500', [])).toMatch(/^Your app answered 500: a step on your app's server failed .*The record holds only the browser's side/);
		const grant = TOKEN_ERRORS.filter((r) => r.error === 'invalid_grant');
		expect(unseenServerMessage('Your app answered 500', grant)).toContain('The page names `invalid_grant` (7.2)');
	});

	it('sees a cause in a repeated or late arrival, and in extra query parameters only when the page names an error', () => {
		const mismatch = { causeId: 'redirect-mismatch' as const, likelihood: 'likely' as const, why: 'extra query' };
		const used = { causeId: 'used' as const, likelihood: 'likely' as const, why: 'arrived before' };
		expect(causeSeen([mismatch], false)).toBe(false);
		expect(causeSeen([mismatch], true)).toBe(true);
		expect(causeSeen([used], false)).toBe(true);
		expect(causeSeen([], true)).toBe(false);
	});
});
