import { describe, expect, it } from 'vitest';
import { openStore } from '.';

describe('store: clock', () => {
	it('moves the clock forward and back to real time on clear', () => {
		const store = openStore(':memory:');
		const before = store.now().getTime();
		store.advanceClock(86400);
		expect(store.now().getTime() - before).toBeGreaterThanOrEqual(86400_000);
		store.clear();
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(1000);
	});
	it('today follows the sandbox clock across midnight', () => {
		const store = openStore(':memory:');
		const day = store.today();
		expect(day).toBe(store.now().toISOString().slice(0, 10));
		store.advanceClock(86400);
		expect(store.today()).toBe(store.now().toISOString().slice(0, 10));
		expect(store.today() > day).toBe(true);
	});
});
