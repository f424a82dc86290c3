/**
 * The live page's outcome-rules panel follows the client's requests: a pending rule that a request then uses shows
 * as used without a reload or a click on Refresh (issue 25).
 */
import { expect, test } from '@playwright/test';
import { headlessFlow } from './support/headless-flow';
import { VIEWPORTS } from './support/viewports';
import { open, resetSandbox } from './support/walk';

const LAPTOP = VIEWPORTS.find((v) => v.name === 'laptop')!;

test.use({ viewport: { width: LAPTOP.width, height: LAPTOP.height } });
test.beforeEach(resetSandbox);
test.afterAll(resetSandbox);

test('a pending rule turns to used on the live page as soon as a request uses it, without a reload', async ({ page }) => {
	await open(page, '/live/demo-client');
	await expect(page.getByTestId('live-status')).toHaveAttribute('data-connected', 'true');
	await page.getByTestId('outcome-rules').locator('button[data-outcome="me-401"]').click();
	await expect(page.getByTestId('outcome-pending-me')).toHaveAttribute('data-outcome', 'me-401');
	let reloaded = false;
	page.on('framenavigated', (frame) => (reloaded ||= frame === page.mainFrame()));

	await headlessFlow(); // its me.json meets the rule and is answered 401

	await expect(page.getByTestId('outcome-pending-me')).toHaveCount(0);
	await expect(page.getByTestId('outcome-used').locator('li[data-outcome="me-401"]')).toContainText('GET /api/v3/me.json');
	expect(reloaded).toBe(false);
});
