import { describe, expect, it } from 'vitest';
import { matchesScenarioFilter, newestRunFirst } from './listing';

describe('newestRunFirst', () => {
	const scenarios = ['a', 'b', 'c', 'd'].map((id) => ({ id }));

	it('lists the latest run first, then the ones not run in the library\'s order', () => {
		const started: Record<string, number> = { c: 1, a: 2 };
		expect(newestRunFirst(scenarios, (id) => started[id]).map((s) => s.id)).toEqual(['a', 'c', 'b', 'd']);
	});

	it('keeps the library\'s order before any run', () => {
		expect(newestRunFirst(scenarios, () => undefined).map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
	});
});

describe('matchesScenarioFilter', () => {
	const results = [true, false, 'skipped', undefined] as const;
	const kept = (filter: Parameters<typeof matchesScenarioFilter>[1]) => results.filter((r) => matchesScenarioFilter(r, filter));

	it('keeps each result under its own filter, and everything under "all"', () => {
		expect(kept('failed')).toEqual([false]);
		expect(kept('passed')).toEqual([true]);
		expect(kept('skipped')).toEqual(['skipped']);
		expect(kept('not-run')).toEqual([undefined]);
		expect(kept('all')).toEqual(results);
	});
});
