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
	it('sets the clock to any instant, backwards too, runs on from there, and resets to real time', () => {
		const store = openStore(':memory:');
		const past = new Date('2001-02-03T04:05:06Z');
		expect(Math.abs(store.setClock(past).getTime() - past.getTime())).toBeLessThan(50);
		expect(store.today()).toBe('2001-02-03');
		const later = new Date('2040-12-31T23:59:59Z');
		store.setClock(later);
		expect(store.today()).toBe('2040-12-31');
		store.resetClock();
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(1000);
	});
	it('each workspace has its own clock, kept across a reopen of the same database', () => {
		const store = openStore(':memory:');
		const { workspace } = store.createWorkspace({ fixtures: 'empty' });
		workspace.advanceClock(7200);
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(1000);
		expect(workspace.now().getTime() - Date.now()).toBeGreaterThan(7_100_000);
		store.setClock(new Date('2000-01-01T00:00:00Z'));
		expect(workspace.now().getTime() - Date.now()).toBeGreaterThan(7_100_000);
		workspace.resetClock();
		expect(store.today()).toBe('2000-01-01');
	});
});
