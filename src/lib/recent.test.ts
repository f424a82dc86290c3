import { describe, expect, it } from 'vitest';
import { setRecent } from './recent';

describe('setRecent', () => {
	it('keeps the limit most recently set keys, forgetting the oldest', () => {
		const map = new Map<string, number>();
		for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) setRecent(map, key, i, 3);
		expect([...map.keys()]).toEqual(['b', 'c', 'd']);
	});

	it('makes a key set again the newest, with its new value', () => {
		const map = new Map([['a', 1], ['b', 2], ['c', 3]]);
		setRecent(map, 'a', 10, 3);
		setRecent(map, 'd', 4, 3);
		expect([...map]).toEqual([['c', 3], ['a', 10], ['d', 4]]);
	});

	it('brings a map already past the limit down to it', () => {
		const map = new Map([['a', 1], ['b', 2], ['c', 3]]);
		setRecent(map, 'd', 4, 2);
		expect([...map.keys()]).toEqual(['c', 'd']);
	});
});
