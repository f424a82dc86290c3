import { describe, expect, it } from 'vitest';
import { excusedRefusals, refusalsAsSpecified } from './refused-as-specified';

const refusedAsSpecified = (record: Parameters<typeof refusalsAsSpecified>[0], index: number) => refusalsAsSpecified(record).has(record.exchanges[index]!.id);
import { exchange, flow } from '../test-helpers';

const token = (code: string, status: number, body: string, id: string) =>
	exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?grant_type=authorization_code&code=${code}` }, { status, body }, id);
const me = (status: number, id: string) => exchange('me', { url: 'https://accounts.example.com/api/v3/me.json' }, { status, body: '' }, id);
const OK = '{"access_token":"at-1","token_type":"Bearer"}';
const USED = '{"error":"invalid_grant","error_description":"used"}';

describe('refusalsAsSpecified', () => {
	it('passes a deleted account\'s 404 at me.json after a successful exchange', () => {
		expect(refusedAsSpecified(flow({ exchanges: [token('c-1', 200, OK, 't1'), me(404, 'm1')] }), 1)).toBe(true);
	});

	it('does not pass a 404 at me.json that no successful exchange preceded, nor another status', () => {
		expect(refusedAsSpecified(flow({ exchanges: [me(404, 'm1')] }), 0)).toBe(false);
		expect(refusedAsSpecified(flow({ exchanges: [token('c-1', 200, OK, 't1'), me(401, 'm1')] }), 1)).toBe(false);
	});

	it('passes invalid_grant for a code already exchanged once me.json was read: a reload repeated the finished callback', () => {
		const reload = flow({ exchanges: [token('c-1', 200, OK, 't1'), me(200, 'm1'), { ...token('c-1', 400, USED, 't2'), startedAt: '2026-01-01T10:00:40.000Z' }] });
		expect(refusedAsSpecified(reload, 2)).toBe(true);
	});

	it("does not pass one sent at once after me.json answered: the callback run again after a crash, not a reload", () => {
		const rerun = flow({ exchanges: [token('c-1', 200, OK, 't1'), me(200, 'm1'), token('c-1', 400, USED, 't2')] });
		expect(refusedAsSpecified(rerun, 2)).toBe(false);
	});

	it('does not pass a second exchange made before me.json was read (the app exchanging twice), nor another code\'s refusal', () => {
		expect(refusedAsSpecified(flow({ exchanges: [token('c-1', 200, OK, 't1'), token('c-1', 400, USED, 't2'), me(200, 'm1')] }), 1)).toBe(false);
		expect(refusedAsSpecified(flow({ exchanges: [token('c-1', 200, OK, 't1'), me(200, 'm1'), token('c-2', 400, USED, 't2')] }), 2)).toBe(false);
		const otherError = '{"error":"invalid_client","error_description":"secret"}';
		expect(refusedAsSpecified(flow({ exchanges: [token('c-1', 200, OK, 't1'), me(200, 'm1'), token('c-1', 400, otherError, 't2')] }), 2)).toBe(false);
	});
});

describe('excusedRefusals', () => {
	const refused = new Set(['m1']);
	const failure = { id: 'cancel-failed' as const, message: 'The app answered 500.', candidates: [], fix: '' };

	it('excuses every refusal when no answer of the app failed, none when any did (a callback or a cancel page)', () => {
		expect(excusedRefusals(refused, { failures: [null] })).toBe(refused);
		expect(excusedRefusals(refused, { failures: [] })).toBe(refused);
		expect([...excusedRefusals(refused, { failures: [null, failure] })]).toEqual([]);
	});
});
