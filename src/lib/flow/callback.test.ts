import { describe, expect, it } from 'vitest';
import { LIMITS } from '$lib/protocol';
import { CANCEL_MEANING, classifyCallback, codeExpiresAt, secondsLeft } from './callback';

const redirectUri = 'http://localhost:5173/callback?walk=w1&tab=a%20b';

describe('classifyCallback', () => {
	it('is a code when the redirect carries code, with the extras shown as preserved', () => {
		const result = classifyCallback('http://localhost:5173/callback?walk=w1&tab=a%20b&code=abc%2B1', { redirectUri });
		expect(result).toEqual({
			kind: 'code',
			code: 'abc+1',
			preserved: [
				{ name: 'walk', value: 'w1' },
				{ name: 'tab', value: 'a b' }
			],
			missingExtras: []
		});
	});

	it('is a cancel, not an error, when the redirect has no code', () => {
		const result = classifyCallback('http://localhost:5173/callback?walk=w1&tab=a+b', { redirectUri });
		expect(result.kind).toBe('cancel');
		expect(result).toMatchObject({ preserved: [{ name: 'walk' }, { name: 'tab' }], missingExtras: [] });
		expect(CANCEL_MEANING).toMatch(/not an error/);
		expect(CANCEL_MEANING).toMatch(/nothing about the user's verification status/);
	});

	it('lists extras that did not come back, or came back changed, as missing', () => {
		const result = classifyCallback('http://localhost:5173/callback?walk=other&code=c', { redirectUri });
		expect(result).toMatchObject({
			kind: 'code',
			preserved: [],
			missingExtras: [
				{ name: 'walk', value: 'w1' },
				{ name: 'tab', value: 'a b' }
			]
		});
	});

	it('does not expect an extra `code` on the redirect URI back: the service overwrites it', () => {
		const result = classifyCallback('http://localhost/cb?code=grant', { redirectUri: 'http://localhost/cb?code=mine' });
		expect(result).toEqual({ kind: 'code', code: 'grant', preserved: [], missingExtras: [] });
	});

	it('is unexpected when the redirect carries an error parameter (not described by the interface)', () => {
		const result = classifyCallback('http://localhost:5173/callback?error=access_denied&error_description=nope', {
			redirectUri
		});
		expect(result.kind).toBe('unexpected');
		expect(result.kind === 'unexpected' && result.reason).toMatch(/error=access_denied.*"nope".*describes no error/);
	});

	it('is unexpected when scheme, authority or path differ from the redirect URI', () => {
		for (const url of [
			'https://localhost:5173/callback?code=x',
			'http://localhost:4000/callback?code=x',
			'http://localhost:5173/callback/?code=x'
		]) {
			const result = classifyCallback(url, { redirectUri });
			expect(result.kind, url).toBe('unexpected');
		}
	});

	it('is unexpected for an unreadable address, an empty code, or two codes', () => {
		expect(classifyCallback('nonsense', { redirectUri }).kind).toBe('unexpected');
		expect(classifyCallback('http://localhost:5173/callback?code=', { redirectUri }).kind).toBe('unexpected');
		expect(classifyCallback('http://localhost:5173/callback?code=a&code=b', { redirectUri }).kind).toBe('unexpected');
	});
});

describe('the code clock', () => {
	it('expires two hours after the code arrived', () => {
		const received = new Date('2025-03-01T10:00:00Z');
		expect(codeExpiresAt(received).toISOString()).toBe('2025-03-01T12:00:00.000Z');
		expect(LIMITS.codeTtlSeconds).toBe(7200);
	});
	it('counts whole seconds left, never below zero', () => {
		const expires = new Date('2025-03-01T12:00:00Z');
		expect(secondsLeft(expires, new Date('2025-03-01T10:00:00Z'))).toBe(7200);
		expect(secondsLeft(expires, new Date('2025-03-01T11:59:59.500Z'))).toBe(0);
		expect(secondsLeft(expires, new Date('2025-03-01T11:59:58.500Z'))).toBe(1);
		expect(secondsLeft(expires, new Date('2025-03-01T13:00:00Z'))).toBe(0);
	});
});
