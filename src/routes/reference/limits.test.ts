import { describe, expect, it } from 'vitest';
import { LIMITS } from '$lib/protocol';
import { LIMIT_ROWS } from './limits';

describe('limit rows', () => {
	it('has one row per limit of the model, with the model\'s values', () => {
		expect(LIMIT_ROWS.map((r) => r.key)).toEqual(Object.keys(LIMITS));
		const value = (key: string) => LIMIT_ROWS.find((r) => r.key === key)?.value;
		expect(value('codeTtlSeconds')).toBe('2 hours (7200 seconds)');
		expect(value('codeMaxUses')).toBe('1');
		expect(value('accessTokenExpiresIn')).toBe('2419199 seconds (about 28 days)');
		expect(value('sbidLength')).toBe('7 characters');
	});
});
