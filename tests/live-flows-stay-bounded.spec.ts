/**
 * Issue 27, point 2: /live/{client} stays short however many flows the session makes. Newest first, one line per
 * flow with its verdict, opened on demand; a filter (failed only, by outcome); the newest few, more on "Show older".
 * The app check's Run button looks like a button, and a "Flows" heading follows the app check. At a laptop's width
 * and a phone's.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { DEMO_SECRET, open, resetSandbox } from './support/walk';
import { headlessFlow } from './support/headless-flow';

const VIEWPORTS = [
	{ name: 'laptop', width: 1280, height: 800, maxHeight: 4_000 },
	{ name: 'phone', width: 390, height: 844, maxHeight: 7_000 }
];
const GOOD_FLOWS = 12;
const FAILED_FLOWS = 2;
const SHOWN_AT_FIRST = 10;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.name} width`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('many flows stay one line each, newest first, filtered and capped, the page bounded', async ({ page }) => {
			await resetSandbox();
			for (let i = 0; i < FAILED_FLOWS; i++) await headlessFlow('not-the-secret');
			for (let i = 0; i < GOOD_FLOWS; i++) await headlessFlow(DEMO_SECRET);

			await open(page, '/live/demo-client');
			const flows = page.getByTestId('live-flow');
			await expect(flows).toHaveCount(SHOWN_AT_FIRST);
			await expect(flows.locator('[data-testid="flow-toggle"][aria-expanded="true"]')).toHaveCount(0);
			await expect(flows.first().getByTestId('verdict')).toHaveAttribute('data-verdict', 'success');
			const height = () => page.evaluate(() => document.documentElement.scrollHeight);
			expect(await height()).toBeLessThan(viewport.maxHeight);

			// Opened on demand: its requests and annotations, then closed again.
			const first = flows.first();
			await first.getByTestId('flow-toggle').click();
			await expect(first.getByTestId('flow-toggle')).toHaveAttribute('aria-expanded', 'true');
			await expect(first.getByTestId('timeline').locator('li[data-step="token"]')).toBeVisible();
			await expect(first.getByTestId('exchange-me')).toBeVisible();
			await first.getByTestId('flow-toggle').click();
			await expect(first.getByTestId('timeline')).toBeHidden();

			// The failed ones only (the oldest two, past the cap until filtered).
			await page.getByTestId('flow-filter').selectOption('failed');
			await expect(flows).toHaveCount(FAILED_FLOWS);
			for (const flow of await flows.all()) {
				await expect(flow.getByTestId('verdict')).toHaveAttribute('data-verdict', 'error');
				await expect(flow.getByRole('heading', { level: 3 })).toContainText('token 401');
			}
			await page.getByTestId('flow-filter').selectOption('outcome:me.json 200');
			await expect(flows).toHaveCount(SHOWN_AT_FIRST);
			await page.getByTestId('flow-filter').selectOption('all');

			// Older flows on demand, and the page still bounded with all of them.
			await page.getByTestId('show-older').click();
			await expect(flows).toHaveCount(GOOD_FLOWS + FAILED_FLOWS);
			await expect(page.getByTestId('show-older')).toHaveCount(0);
			await expect(flows.last().getByTestId('verdict')).toHaveAttribute('data-verdict', 'error');
			expect(await height()).toBeLessThan(viewport.maxHeight * 1.5);

			const { violations } = await new AxeBuilder({ page }).analyze();
			expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
		});

		test('the app check\'s Run is a button, not a field, and a "Flows" heading follows the app check', async ({ page }) => {
			await open(page, '/live/demo-client');
			const run = page.getByTestId('app-check-run');
			const field = page.getByTestId('app-check-start-url');
			const [runBox, fieldBox] = [await run.boundingBox(), await field.boundingBox()];
			expect(runBox!.width).toBeLessThan(fieldBox!.width * 0.7);
			const look = (selector: string) => page.locator(selector).evaluate((e) => getComputedStyle(e).backgroundColor);
			expect(await look('[data-testid="app-check-run"]')).not.toBe(await look('[data-testid="app-check-start-url"]'));
			const flowsHeading = page.getByRole('heading', { name: 'Flows', level: 2, exact: true });
			await expect(flowsHeading).toBeVisible();
			expect((await flowsHeading.boundingBox())!.y).toBeGreaterThan(runBox!.y);
		});
	});
}
