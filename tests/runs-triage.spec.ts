/**
 * Issue 27, point 3: saved runs can be triaged. An import's title and its line in /runs carry the client, the
 * outcome and the verdict (the one its run page shows), so a HAR whose calls all answered 200 but which failed is
 * listed as an error; the list filters by verdict, client and source; a browser with no runs is told why its list
 * is empty and how to open a colleague's run. At a laptop's width and a phone's.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { open } from './support/walk';

const VIEWPORTS = [
	{ name: 'laptop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 }
];
const FIXTURES = 'src/lib/features/runs/pure/har/fixtures';

async function seriousViolations(page: Page): Promise<string[]> {
	const { violations } = await new AxeBuilder({ page }).analyze();
	return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}

/** Imports a HAR fixture as this browser's session would (the page's own import call); answers the run's id. */
async function importHar(page: Page, fixture: string): Promise<string> {
	const response = await page.request.post('/api/import', { data: { kind: 'har', text: await readFile(`${FIXTURES}/${fixture}`, 'utf8') } });
	expect(response.status()).toBe(200);
	return ((await response.json()) as { id: string }).id;
}

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.name} width`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('a new browser is told why its list is empty and how to open a colleague\'s run', async ({ page }) => {
			await open(page, '/runs');
			const empty = page.getByTestId('runs-empty');
			await expect(empty).toHaveAttribute('data-why', 'session');
			await expect(empty).toContainText('No runs in this browser session yet');
			await expect(empty).toContainText('saved in another browser');
			await expect(empty).toContainText('permalink');
			expect(await seriousViolations(page)).toEqual([]);
		});

		test('imports are titled and listed with client, outcome and verdict, and the list filters by verdict, client and source', async ({ page }) => {
			await open(page, '/runs');
			const failedId = await importHar(page, 'chrome-unrelated.har.json'); // 200 token, 200 me.json, yet an error
			const goodId = await importHar(page, 'success.har.json');

			await open(page, '/runs');
			const list = page.getByTestId('run-list');
			const failed = list.locator('li', { has: page.locator(`a[href="/runs/${failedId}"]`) });
			const good = list.locator('li', { has: page.locator(`a[href="/runs/${goodId}"]`) });
			await expect(failed.locator('a')).toHaveText(/^Imported HAR, shop-client: error, /);
			await expect(failed.getByTestId('verdict')).toHaveAttribute('data-verdict', 'error');
			await expect(failed).toContainText('200 token, 200 me.json');
			await expect(failed).toContainText('client shop-client');
			await expect(good.locator('a')).toHaveText(/^Imported HAR, shop-client: succeeded, me\.json 200 /);
			await expect(good.getByTestId('verdict')).toHaveAttribute('data-verdict', 'success');

			// The list's verdict is the run page's.
			await failed.locator('a').click();
			await page.waitForURL(`**/runs/${failedId}`);
			await expect(page.getByRole('heading', { level: 1 })).toContainText('shop-client');
			await open(page, '/runs');

			await page.getByLabel('Verdict').selectOption('error');
			await page.getByRole('button', { name: 'Search' }).click();
			await page.waitForURL(/verdict=error/);
			await expect(list.locator('li')).toHaveCount(1);
			await expect(list.locator(`a[href="/runs/${failedId}"]`)).toHaveCount(1);

			await page.getByLabel('Verdict').selectOption('');
			await page.getByLabel('Client').selectOption('shop-client');
			await page.getByLabel('Source').selectOption('import');
			await page.getByRole('button', { name: 'Search' }).click();
			await page.waitForURL(/source=import/);
			await expect(list.locator('li')).toHaveCount(2);

			await page.getByLabel('Source').selectOption('walk');
			await page.getByRole('button', { name: 'Search' }).click();
			await page.waitForURL(/source=walk/);
			await expect(page.getByTestId('runs-empty')).toHaveAttribute('data-why', 'filtered');
			expect(await seriousViolations(page)).toEqual([]);
		});
	});
}
