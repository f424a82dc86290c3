/**
 * The site navigation is grouped by job (learn the flow, test my app, support a customer), marks the current page
 * (sub-pages too) with aria-current, and on a phone keeps the current page's item on screen and shows that it scrolls.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const GROUPS = {
	'Learn the flow': ['Walk', 'Lesson: cancel', 'Reference'],
	'Test my app': ['Sandbox', 'Live flows'],
	'Support a customer': ['Check a link', 'Saved runs & import', 'Scenarios']
};

/** Every page reached from the nav (and two sub-pages), with the item that must be marked current on it. */
const PAGES: [path: string, current: string][] = [
	['/', 'Walk'],
	['/learn/cancel', 'Lesson: cancel'],
	['/reference', 'Reference'],
	['/sandbox', 'Sandbox'],
	['/live', 'Live flows'],
	['/live/demo-client', 'Live flows'],
	['/check', 'Check a link'],
	['/runs', 'Saved runs & import'],
	['/scenarios', 'Scenarios']
];

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Whether the element lies wholly inside the window and is the element found at its own centre (not covered). */
async function onScreen(page: Page, item: Locator): Promise<boolean> {
	return item.evaluate((el) => {
		const box = el.getBoundingClientRect();
		const inside = box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight;
		const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
		return inside && hit !== null && el.contains(hit);
	});
}

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height}`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		for (const [path, current] of PAGES) {
			test(`${path}: the nav's groups by job, "${current}" marked current and on screen, axe clean`, async ({ page }) => {
				await open(page, path);
				for (const [group, items] of Object.entries(GROUPS)) {
					await expect(nav(page).getByRole('group', { name: group }).getByRole('link')).toHaveText(items);
				}
				const marked = nav(page).locator('[aria-current="page"]');
				await expect(marked).toHaveCount(1);
				await expect(marked).toHaveText(current);
				expect(await onScreen(page, marked), `${current} within the ${viewport.name}'s screen`).toBe(true);
				expect(await seriousViolations(page)).toEqual([]);
			});
		}
	});
}

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } });

	const hint = (page: Page, edge: 'before' | 'after') =>
		nav(page).evaluate((el, pseudo) => getComputedStyle(el.parentElement!, `::${pseudo}`).display, edge);

	test('the strip shows which way more items lie', async ({ page }) => {
		await open(page, '/');
		expect(await hint(page, 'before')).toBe('none');
		expect(await hint(page, 'after')).not.toBe('none');
		await open(page, '/scenarios');
		expect(await hint(page, 'before')).not.toBe('none');
		expect(await hint(page, 'after')).toBe('none');
	});

	test('a nav item reached by Tab is scrolled on screen', async ({ page }) => {
		await open(page, '/');
		const last = nav(page).getByRole('link', { name: 'Scenarios' });
		expect(await onScreen(page, last)).toBe(false);
		for (let i = 0; i < 20 && !(await last.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
		await expect(last).toBeFocused();
		await expect.poll(() => onScreen(page, last)).toBe(true);
	});

	test('moving to another page in the app brings its item on screen, dark theme axe clean', async ({ page }) => {
		await open(page, '/scenarios');
		await page.getByLabel('Theme').selectOption('dark');
		// The brand link leads to the walk without touching the strip, which still shows its far end.
		await page.getByRole('link', { name: 'SSO Flow Explorer' }).click();
		await page.waitForURL((url) => url.pathname === '/');
		const marked = nav(page).locator('[aria-current="page"]');
		await expect(marked).toHaveText('Walk');
		await expect.poll(() => onScreen(page, marked)).toBe(true);
		expect(await seriousViolations(page)).toEqual([]);
	});
});
