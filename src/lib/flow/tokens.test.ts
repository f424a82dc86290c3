import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from './exchange';
import { issuedTokens } from './tokens';

const exchange = (status: number, body: string): RecordedExchange => ({
	id: 'x',
	step: 'token',
	label: 'exchange the code',
	startedAt: '2026-11-23T00:00:00.000Z',
	durationMs: 1,
	request: { method: 'POST', url: 'http://accounts.example/oauth/token', headers: [], body: null },
	response: { status, statusText: '', headers: [], body, truncated: false },
	failure: null,
	masked: []
});

const TOKENS = { access_token: 'a', token_type: 'Bearer', expires_in: 2419199, refresh_token: 'r', created_at: 1 };

describe('issuedTokens', () => {
	it('reads the token response of a 200', () => {
		expect(issuedTokens(exchange(200, JSON.stringify(TOKENS)))).toEqual({ access_token: 'a', refresh_token: 'r', expires_in: 2419199 });
	});

	it('reads the tokens of a response that departs from 2.3 too: they are credentials all the same', () => {
		expect(issuedTokens(exchange(200, JSON.stringify({ access_token: 'a', token_type: 'bearer' })))).toEqual({ access_token: 'a', refresh_token: null, expires_in: null });
		expect(issuedTokens(exchange(200, JSON.stringify({ access_token: 'a', refresh_token: 7, expires_in: '3600' })))).toEqual({ access_token: 'a', refresh_token: null, expires_in: null });
	});

	it('is null for an error status, a body that is not JSON, or JSON that is not a token response', () => {
		expect(issuedTokens(exchange(400, JSON.stringify(TOKENS)))).toBeNull();
		expect(issuedTokens(exchange(200, '<html>'))).toBeNull();
		expect(issuedTokens(exchange(200, '{"access_token": 1}'))).toBeNull();
	});
});
