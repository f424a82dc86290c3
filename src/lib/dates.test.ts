import { describe, expect, it } from 'vitest';
import { addDays } from './dates';

describe('addDays', () => {
	it('crosses month, year and leap-day boundaries both ways', () => {
		expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
		expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
		expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
		expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
		expect(addDays('2026-03-10', -3)).toBe('2026-03-07');
		expect(addDays('2026-03-10', 0)).toBe('2026-03-10');
	});
});
