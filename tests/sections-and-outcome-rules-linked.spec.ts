/**
 * Issue 27, point 11 (the rest): outcome rules are set in one place, the client's live page, and the sandbox panel,
 * which lists them, links there; a section number the explorer's texts cite ("section 3", "(5.6)") links to that
 * section on the reference page, which shows the interface document's own text for it.
 */
import { expect, test } from '@playwright/test';
import { AUTH_HOST, EXPLORER, authorise, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const WITH_STATE = `${AUTH_HOST}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk&state=abc`;

// axe on a busy machine takes long.
test.describe.configure({ timeout: 120_000 });

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('the sandbox panel lists outcome rules and links to the one place they are set', async ({ page }) => {
			await open(page, '/sandbox');
			const link = page.getByTestId('set-outcomes-demo-client');
			await expect(link).toHaveAttribute('href', '/live/demo-client#outcome-rules');
			expect(await seriousViolations(page)).toEqual([]);
			await link.click();
			await page.waitForURL((url) => url.pathname === '/live/demo-client');
			await expect(page.getByTestId('outcome-rules')).toBeInViewport();
		});

		test("a section a finding cites in its text links to that section of the reference", async ({ page }) => {
			await open(page, '/check');
			await page.getByLabel('Authorisation link').fill(WITH_STATE);
			await page.getByRole('button', { name: 'Check the link' }).click();
			const cited = page.getByTestId('check-result').getByRole('link', { name: '5.6', exact: true });
			await expect(cited).toHaveAttribute('href', '/reference#section-5');
			expect(await seriousViolations(page)).toEqual([]);
			await cited.click();
			await page.waitForURL((url) => url.pathname === '/reference');
			await expect(page.locator('#section-5')).toBeInViewport();
			// The reference shows the interface document's own words for the section, not only its title.
			await expect(page.locator('#section-5')).toContainText('The OAuth state parameter is not used.');
		});

		test("the walk's cancel says which section makes it no error, linked", async ({ page }) => {
			await authorise(page, undefined, 'cancel');
			const cited = page.getByTestId('callback-result').getByRole('link', { name: 'section 3' });
			await expect(cited).toHaveAttribute('href', '/reference#section-3');
			await cited.click();
			await expect(page.locator('#section-3')).toBeInViewport();
			await expect(page.locator('#section-3')).toContainText('Only the lifecycle of the authorisation grant code and the cancel outcome are described.');
		});
	});
}
