import { describe, expect, it } from 'vitest';
import { capList } from './bounded-list';

describe('capList', () => {
	const items = [1, 2, 3, 4, 5, 6, 7];

	it('shows the first of what matches and counts the rest', () => {
		expect(capList(items, () => true, 3)).toEqual({ shown: [1, 2, 3], more: 4, filteredOut: 0 });
	});

	it('counts what the filter hides apart from what the cap hides', () => {
		expect(capList(items, (n) => n % 2 === 1, 2)).toEqual({ shown: [1, 3], more: 2, filteredOut: 3 });
	});

	it('shows everything once the cap is past the end', () => {
		expect(capList(items, (n) => n > 5, 10)).toEqual({ shown: [6, 7], more: 0, filteredOut: 5 });
	});
});
