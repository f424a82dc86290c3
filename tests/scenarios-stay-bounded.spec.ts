/**
 * Issue 27, point 2: /scenarios after "Run all" stays short. One line per scenario with its verdict, the latest
 * run first, opened on demand (a single Run opens its own); a filter by result; the first few, more on "Show more".
 * The runner's answers are stood in for here (page.route): a long stream for every scenario makes the page as tall
 * as a real "Run all" did, in a second instead of minutes, and the real runner is held by runs.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { open } from './support/walk';

const VIEWPORTS = [
	{ name: 'laptop', width: 1280, height: 800, maxHeight: 4_000 },
	{ name: 'phone', width: 390, height: 844, maxHeight: 7_000 }
];
/** Scenarios the stand-in fails, by position in the library; the others pass. */
const FAILING = [0, 4, 7];
const STEPS_EACH = 30;
const SHOWN_AT_FIRST = 10;

/** Answers each scenario's POST with STEPS_EACH notes and a result, as the runner's NDJSON stream would. */
async function standInRunner(page: Page, ids: string[]): Promise<void> {
	await page.route('**/api/scenarios/*', async (route) => {
		const id = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
		const passed = !FAILING.includes(ids.indexOf(id));
		const steps = Array.from({ length: STEPS_EACH }, (_, index) => JSON.stringify({ type: 'step', step: { index, kind: 'setup', text: `Step ${index + 1} of ${id}: the sandbox is set up for it, one line of many.` } }));
		const result = JSON.stringify({ type: 'result', passed, observed: null, runId: null, ...(passed ? {} : { reason: 'Stood in: failed.' }) });
		await route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: [...steps, result].join('\n') + '\n' });
	});
}

/** The library's scenarios in its order, from the page with every one shown ("Show more" until none is left). */
async function allScenarioIds(page: Page): Promise<string[]> {
	await open(page, '/scenarios');
	while (await page.getByTestId('show-older').count()) await page.getByTestId('show-older').click();
	return page.locator('ol.scenarios > li.card').evaluateAll((nodes) => nodes.map((n) => n.id));
}

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.name} width`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('after "Run all" the page stays bounded: one line per scenario, latest first, filtered and capped', async ({ page }) => {
			await open(page, '/scenarios');
			const scenarios = page.locator('ol.scenarios > li.card');
			await expect(scenarios).toHaveCount(SHOWN_AT_FIRST);
			const library = await allScenarioIds(page);
			await open(page, '/scenarios');
			await standInRunner(page, library);

			await page.getByTestId('run-all').click();
			await expect(page.getByTestId('scenario-counts')).toHaveText(`${library.length - FAILING.length} passed, ${FAILING.length} failed, 0 skipped`);
			await expect(scenarios).toHaveCount(SHOWN_AT_FIRST);
			// The latest run first: the library's last scenario heads the list.
			await expect(scenarios.first()).toHaveAttribute('id', library.at(-1)!);
			await expect(scenarios.locator('[data-testid="scenario-toggle"][aria-expanded="true"]')).toHaveCount(0);
			await expect(scenarios.first().getByTestId('scenario-verdict')).toContainText('Passed');
			const height = () => page.evaluate(() => document.documentElement.scrollHeight);
			expect(await height()).toBeLessThan(viewport.maxHeight);

			// Opened on demand.
			const first = scenarios.first();
			await first.getByTestId('scenario-toggle').click();
			await expect(first.getByTestId('scenario-step')).toHaveCount(STEPS_EACH);
			await expect(first.getByTestId('scenario-step').first()).toBeVisible();
			await first.getByTestId('scenario-toggle').click();
			await expect(first.getByTestId('scenario-step').first()).toBeHidden();

			// The failed ones only, though they ran first and sit past the cap.
			await page.getByTestId('scenario-filter').selectOption('failed');
			await expect(scenarios).toHaveCount(FAILING.length);
			await expect(scenarios.getByTestId('scenario-verdict')).toHaveText(Array(FAILING.length).fill(/Failed/));
			await page.getByTestId('scenario-filter').selectOption('all');

			// The rest on demand, every one a line: still bounded.
			while (await page.getByTestId('show-older').count()) await page.getByTestId('show-older').click();
			await expect(scenarios).toHaveCount(library.length);
			expect(await height()).toBeLessThan(viewport.maxHeight * 2);

			const { violations } = await new AxeBuilder({ page }).analyze();
			expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
		});

		test('a single Run opens its scenario; a link to a scenario past the cap lists it, open', async ({ page }) => {
			const library = await allScenarioIds(page);
			const last = library.at(-1)!;

			await open(page, `/scenarios?run=${last}`);
			const linked = page.getByTestId(`scenario-${last}`);
			await expect(linked).toBeVisible();
			await expect(linked.getByTestId('scenario-toggle')).toHaveAttribute('aria-expanded', 'true');

			await open(page, '/scenarios');
			await standInRunner(page, library);
			const second = page.getByTestId(`scenario-${library[1]}`);
			await second.getByRole('button', { name: /^Run / }).click();
			await expect(second.getByTestId('scenario-result')).toBeVisible();
			await expect(second.getByTestId('scenario-toggle')).toHaveAttribute('aria-expanded', 'true');
			await expect(page.locator('ol.scenarios > li.card').first()).toHaveAttribute('id', library[1]!);
		});
	});
}
