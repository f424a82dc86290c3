import { describe, expect, it } from 'vitest';
import { exchangeHeadline, walkTitle } from './run';

const answered = (step: 'token' | 'me', status: number) => ({ step, response: { status }, failure: null });

describe('walkTitle', () => {
	it('says how the walk ended: the last exchange, with the row and likely cause it matched', () => {
		expect(walkTitle({ where: 'Sandbox', clientId: 'demo-client', cancelled: false, last: { exchange: answered('me', 200) } })).toBe(
			'Sandbox walk, demo-client: me.json 200'
		);
		expect(
			walkTitle({
				where: 'Sandbox',
				clientId: 'demo-client',
				cancelled: false,
				last: { exchange: answered('token', 400), annotation: { rowId: 'token-invalid-grant', causeId: 'used' } }
			})
		).toBe('Sandbox walk, demo-client: token 400 invalid_grant (7.2: used)');
	});

	it('says "cancelled" for a cancelled sign-in, and "code received" before anything was exchanged', () => {
		expect(walkTitle({ where: 'accounts.example', clientId: 'c', cancelled: true })).toBe('accounts.example walk, c: cancelled');
		expect(walkTitle({ where: 'Sandbox', clientId: 'c', cancelled: false })).toBe('Sandbox walk, c: code received');
	});
});

describe('exchangeHeadline', () => {
	it('names a transport failure, and a row without an error code by its table', () => {
		expect(exchangeHeadline({ step: 'token', response: null, failure: { kind: 'timeout' } })).toBe('token not answered (timeout)');
		expect(exchangeHeadline(answered('me', 401), { rowId: 'me-unauthorized' })).toMatch(/^me\.json 401 \(7\.3\)$/);
	});
});
