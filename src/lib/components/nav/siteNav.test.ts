import { describe, expect, it } from 'vitest';
import { NAV_GROUPS, currentNavHref } from './siteNav';

describe('currentNavHref', () => {
	it('marks the item a page is', () => {
		for (const { items } of NAV_GROUPS) for (const { href } of items) expect(currentNavHref(href)).toBe(href);
	});

	it('marks the item above a sub-page: a live client, a saved run', () => {
		expect(currentNavHref('/live/demo-client')).toBe('/live');
		expect(currentNavHref('/runs/abc123')).toBe('/runs');
		expect(currentNavHref('/runs/')).toBe('/runs');
	});

	it('marks the walk only on / itself, and nothing outside the nav', () => {
		expect(currentNavHref('/')).toBe('/');
		expect(currentNavHref('/workspaces/w1')).toBeUndefined();
		expect(currentNavHref('/livestock')).toBeUndefined();
		expect(currentNavHref('/learn')).toBeUndefined();
	});
});

describe('NAV_GROUPS', () => {
	it('names every item once, so one page is never two items', () => {
		const hrefs = NAV_GROUPS.flatMap((g) => g.items.map((i) => i.href));
		expect(new Set(hrefs).size).toBe(hrefs.length);
	});
});
