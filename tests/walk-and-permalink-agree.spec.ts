/**
 * Issue 24: a walk and its permalink read one record on one clock. The sandbox clock moves 2 hours between the
 * redirect and the exchange; the walk says the code arrived 2 hours before and expired, and the saved run's page
 * says the same: the same annotation, code age included, and the verdict names that exchange's row.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, authorise, exchange, open, resetSandbox } from './support/walk';

async function advanceSandboxClock(seconds: number): Promise<void> {
	const response = await fetch(`${ACCOUNTS_HOST}/sandbox/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_seconds: seconds })
	});
	expect(response.status).toBe(200);
}

test.beforeEach(resetSandbox);
test.afterEach(resetSandbox);

test('after the sandbox clock moves 2 hours, the walk and its permalink give the same code age and verdict', async ({ page }) => {
	await authorise(page);
	await advanceSandboxClock(2 * 3600 + 60);
	const walked = await exchange(page);
	await expect(walked).toHaveAttribute('data-row', 'token-invalid-grant');
	await expect(walked).toContainText('The code arrived 2 h');
	const walkedText = await walked.innerText();

	const permalink = await page.getByTestId('run-permalink').getAttribute('href');
	await open(page, permalink!);
	const saved = page.getByTestId('exchange-token').getByTestId('annotation');
	await expect(saved).toHaveAttribute('data-row', 'token-invalid-grant');
	expect(await saved.innerText()).toBe(walkedText);
	await expect(page.getByTestId('verdict-row')).toContainText('token-invalid-grant');
	// The verdict reads the same clock: the exchange came 2 hours after the code, which is what expired it.
	await expect(page.getByTestId('verdict-cause')).toContainText(/came 2 hours .* after the redirect delivered the code/);
});
