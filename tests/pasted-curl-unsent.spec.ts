/**
 * Issue 27, point 4: a pasted curl command that was never sent reads as "not sent yet", with Send as the next
 * action, not as a failure ("What went wrong", "No response recorded", a ✕ in the diagram).
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, EXPLORER, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

/** Without the client secret, so nothing is redacted and the run can send it as saved. */
const CURL =
	`curl -X POST '${ACCOUNTS_HOST}/oauth/token' -H 'User-Agent: shop-server/1.0' -d grant_type=authorization_code ` +
	`-d code=never-issued -d client_id=demo-client --data-urlencode redirect_uri=${EXPLORER}/callback`;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('a pasted curl command is not sent yet, with Send next; sent, it is diagnosed', async ({ page }) => {
			await open(page, '/runs');
			await page.getByLabel('Or paste').selectOption('curl');
			await page.getByLabel('Pasted text').fill(CURL);
			await page.getByRole('button', { name: 'Import' }).click();
			await page.waitForURL(/\/runs\/[\w-]+\?/);

			const verdict = page.getByTestId('verdict');
			await expect(verdict).toHaveAttribute('data-severity', 'unsent');
			await expect(verdict.getByRole('heading')).toHaveText('What to do next');
			await expect(page.getByTestId('verdict-what')).toHaveText('The token exchange (exchange 1) has not been sent yet: nothing has answered it.');
			await expect(page.getByTestId('verdict-fix')).toContainText('Send it');
			await expect(page.locator('main')).not.toContainText('What went wrong');
			await expect(page.locator('main')).not.toContainText('No response recorded');
			const annotation = page.getByTestId('exchange-token').getByTestId('annotation');
			await expect(annotation).toHaveAttribute('data-outcome', 'unsent');
			await expect(annotation).toContainText('Not sent yet');
			const diagram = page.getByTestId('run-diagram');
			expect(await diagram.textContent()).not.toContain('✕');
			expect(await diagram.textContent()).toContain('POST /oauth/token (not sent)');
			await expect(diagram.locator('li.unsent').first()).toContainText('(not sent yet)');
			expect(await seriousViolations(page)).toEqual([]);

			// Send, the next action: the sandbox answers and the run is diagnosed as any other.
			const token = page.locator('[data-testid^="timeline-"][data-step="token"]');
			await token.getByRole('button', { name: 'Send' }).click();
			await expect(token.last()).toContainText('401');
			await expect(verdict).toHaveAttribute('data-severity', 'error');
			await expect(page.getByTestId('verdict-what')).toContainText('failed: 401 invalid_client');
		});
	});
}
