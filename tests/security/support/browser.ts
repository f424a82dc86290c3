/** The sandbox's sign-in dance in Chromium, on this run's ports (see ports.ts). */
import { expect, type Page } from '@playwright/test';
import { AUTH_HOST, DEMO_PASSWORD, EXPLORER } from './ports';

/** Signs in when asked, submits the simulated proof when asked, then authorises or cancels; ends back on the explorer. */
export async function signInAndDecide(page: Page, login: string, decision: 'authorise' | 'cancel'): Promise<void> {
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	for (let step = 0; step < 4; step++) {
		const kind = await page.locator('main[data-page]').getAttribute('data-page');
		if (kind === 'login') {
			await page.getByLabel('Email').fill(login);
			await page.getByLabel('Password').fill(DEMO_PASSWORD);
			await page.getByRole('button', { name: 'Sign in' }).click();
		} else if (kind === 'verify') {
			await page.getByRole('button', { name: 'Submit proof' }).click();
		} else if (kind === 'consent') {
			await page.getByRole('button', { name: decision === 'authorise' ? 'Authorise' : 'Cancel' }).click();
			await page.waitForURL((url) => url.origin === EXPLORER);
			return;
		} else {
			throw new Error(`Unexpected sandbox page "${kind}"`);
		}
		await page.waitForLoadState('domcontentloaded');
	}
	throw new Error('The sandbox sign-in did not reach the consent page');
}

/** Step 3 or 4: clicks, then waits for the new exchange of that step. */
export async function addExchange(page: Page, step: 'token' | 'me', click: () => Promise<void>): Promise<void> {
	const before = await page.getByTestId(`exchange-${step}`).count();
	await click();
	await expect(page.getByTestId(`exchange-${step}`)).toHaveCount(before + 1);
}
