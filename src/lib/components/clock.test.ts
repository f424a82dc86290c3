import { describe, expect, it } from 'vitest';
import { clockNow, clockWords, realTimeOn, walkClock } from './clock';

const browserNow = Date.parse('2030-01-01T10:00:00.000Z');

describe('walkClock', () => {
	it('is the sandbox clock, ahead by what the server said, to the second', () => {
		const clock = walkClock('2030-01-01T13:00:00.400Z', browserNow + 300);
		expect(clock).toEqual({ name: 'sandbox', offsetMs: 3 * 3_600_000 });
		expect(clockWords(clock.name)).toBe('sandbox clock');
		expect(clockNow(clock, browserNow)).toBe(Date.parse('2030-01-01T13:00:00.000Z'));
	});

	it('is real time without a sandbox', () => {
		expect(walkClock(null, browserNow)).toEqual({ name: 'real', offsetMs: 0 });
		expect(walkClock('not a date', browserNow)).toEqual({ name: 'real', offsetMs: 0 });
		expect(clockWords('real')).toBe('real clock');
	});
});

describe('realTimeOn', () => {
	it('moves a real-time instant onto the shown clock', () => {
		expect(realTimeOn({ name: 'sandbox', offsetMs: 7_200_000 }, '2030-01-01T10:00:05.000Z')).toBe('12:00:05 UTC');
		expect(realTimeOn({ name: 'real', offsetMs: 0 }, '2030-01-01T10:00:05.000Z')).toBe('10:00:05 UTC');
		expect(realTimeOn({ name: 'real', offsetMs: 0 }, 'later')).toBe('later');
	});
});
