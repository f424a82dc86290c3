/**
 * Issue 27, point 6: masked values read as the mask (`code=••••••x4Tw`), not as percent-encoded bullets
 * (`code=%E2%80%A2…`), on /live and in the sandbox's request log.
 */
import { expect, test } from '@playwright/test';
import { authorise, exchange, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const ENCODED_BULLET = '%E2%80%A2';
/** The mask and the value's last four characters, which are base64url: `-` is one of them. */
const MASKED_CODE = /code=••••••[A-Za-z0-9_-]{4}/;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('masked codes and secrets read as ••••••, on /live and in the sandbox log', async ({ page }) => {
			test.setTimeout(120_000);
			await authorise(page);
			await exchange(page);

			await open(page, '/live/demo-client');
			// The client is shared with the tests running beside this one: the flow read is one whose exchange sent its
			// code in the query, as this walk's did, and the page as a whole must show no encoded bullet.
			const token = page.getByTestId('exchange-token').filter({ hasText: /\/oauth\/token\?/ }).first();
			await expect(token).toContainText(MASKED_CODE);
			await expect(token).toContainText('client_secret=••••••');
			expect(await page.locator('main').innerText()).not.toContain(ENCODED_BULLET);

			await open(page, '/sandbox');
			const entries = page.getByTestId('log-entries');
			const tokenEntry = entries.locator('li').filter({ hasText: '/oauth/token' }).first();
			await expect(tokenEntry.locator('summary')).toContainText(MASKED_CODE);
			await tokenEntry.locator('summary').click();
			await expect(tokenEntry).toContainText('client_secret=••••••');
			expect(await entries.innerText()).not.toContain(ENCODED_BULLET);
			expect(await seriousViolations(page)).toEqual([]);
		});
	});
}
