import { describe, expect, it } from 'vitest';
import { clock, minutesLeft, minutesPhrase, remaining } from './countdown';

const at = Date.parse('2030-01-01T10:00:00Z');

describe('remaining', () => {
	it('is the time left before the instant, expired at and after it, invalid for a bad date', () => {
		expect(remaining('2030-01-01T12:00:00Z', at)).toEqual({ kind: 'left', ms: 7_200_000 });
		expect(remaining('2030-01-01T10:00:00Z', at)).toEqual({ kind: 'expired' });
		expect(remaining('2029-12-31T10:00:00Z', at)).toEqual({ kind: 'expired' });
		expect(remaining('soon', at)).toEqual({ kind: 'invalid' });
	});
});

describe('clock', () => {
	it('writes h:mm:ss, rounding seconds down', () => {
		expect(clock(7_200_000)).toBe('2:00:00');
		expect(clock((1 * 3600 + 59 * 60 + 12) * 1000 + 999)).toBe('1:59:12');
		expect(clock(5_000)).toBe('0:00:05');
	});
});

describe('minutes', () => {
	it('rounds up, so the last seconds still count as a minute', () => {
		expect(minutesLeft(1)).toBe(1);
		expect(minutesLeft(60_000)).toBe(1);
		expect(minutesLeft(60_001)).toBe(2);
	});

	it('says hours and minutes in words', () => {
		expect(minutesPhrase(120)).toBe('2 hours');
		expect(minutesPhrase(119)).toBe('1 hour 59 minutes');
		expect(minutesPhrase(1)).toBe('1 minute');
		expect(minutesPhrase(0)).toBe('0 minutes');
	});
});
