import { describe, expect, it } from 'vitest';
import { judge } from './judge';

describe('judge', () => {
	const expected = { step: 'token' as const, row: 'token-invalid-grant' as const, cause: 'used' as const };
	const observed = { step: 'token' as const, row: 'token-invalid-grant' as const, cause: 'used', summary: '400 invalid_grant' };
	it('passes on the same step, row and cause', () => expect(judge(expected, observed)).toEqual({ passed: true }));
	it('fails on another row or cause', () => {
		expect(judge(expected, { ...observed, row: 'token-invalid-client' }).passed).toBe(false);
		expect(judge(expected, { ...observed, cause: 'expired' }).passed).toBe(false);
	});
	it('fails when nothing was observed', () => expect(judge(expected, null).passed).toBe(false));
	it("fails when the scenario's check does not hold", () => {
		const check = { text: 'something', test: () => 'something else' };
		expect(judge({ ...expected, check }, observed, { outcome: 'error', title: '', summary: '', candidates: [] })).toEqual({
			passed: false,
			reason: 'Expected something; observed something else.'
		});
	});
});
