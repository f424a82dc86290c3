/**
 * Issue 18's done-when, in Chromium: an integrator points their own app (the passport-oauth2 test apps, naive and
 * corrected) at the sandbox, opens the live page of its client, signs in and cancels in the app, and sees each flow
 * annotated with what the app did wrong; the same page starts the app check.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startAppOnSandbox, type AppOnSandbox } from './apps/sandbox-client';
import { EXPLORER, STUDENT, decideOnSandbox, hydrated } from './support/walk';

/** A browser session joined to the app's sandbox workspace, on the live page of the app's client. */
async function liveView(browser: Browser, app: AppOnSandbox): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await page.goto(`${EXPLORER}/workspaces/${app.workspace.id}`);
	await page.getByLabel('Workspace key').fill(app.workspace.key);
	await page.getByRole('button', { name: 'Join workspace' }).click();
	await expect(page.getByTestId('workspace-id')).toHaveText(app.workspace.id);
	await page.goto(`${EXPLORER}/live/${encodeURIComponent(app.client.clientId)}`);
	await hydrated(page);
	return page;
}

/** The integrator, in their own browser, signs in through the app and cancels on the sandbox's consent page. */
async function cancelInApp(browser: Browser, app: AppOnSandbox): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await page.goto(`${app.app.url}/login`);
	await decideOnSandbox(page, STUDENT, 'cancel');
	return page;
}

test('the live page shows the naive app\'s cancel loop as it happens, and its app check fails on it', async ({ browser }) => {
	test.slow();
	const naive = await startAppOnSandbox({ variant: 'naive' });
	try {
		const live = await liveView(browser, naive);
		await expect(live.getByTestId('no-flows')).toBeVisible();
		const app = await cancelInApp(browser, naive);
		// passport-oauth2 starts a new sign-in: the browser is back on the sandbox's pages.
		await app.waitForURL((url) => url.pathname.startsWith('/flow/') || url.pathname.startsWith('/sso/'));

		const loop = live.getByTestId('flag-cancel-loop');
		await expect(loop).toHaveCount(1, { timeout: 15_000 });
		// One line per flow: the looping flow's requests and flags open on demand.
		await live.getByTestId('live-flow').filter({ has: loop }).getByTestId('flow-toggle').click();
		await expect(loop).toBeVisible();
		// The sandbox's log shows no token request of the looping flow (none is made), so nothing names the library:
		// the advice fits any stack.
		await expect(loop).toContainText('starts the sign-in again');
		await expect(live.locator('[data-testid="live-flow"]')).toHaveCount(2);

		await live.getByTestId('app-check-start-url').fill(`${naive.app.url}/login`);
		await live.getByTestId('app-check-run').click();
		await expect(live.getByTestId('app-check-summary')).toBeVisible({ timeout: 120_000 });
		await expect(live.locator('[data-testid="app-check-results"] tr[data-check="cancel"]')).toHaveAttribute('data-verdict', 'fail');
		await expect(live.locator('[data-testid="app-check-results"] tr[data-check="success"]')).toHaveAttribute('data-verdict', 'pass');
		await expect(live.locator('[data-reason-for="cancel"]')).toContainText('loop');
		expect(await live.content()).not.toContain(naive.client.clientSecret);
	} finally {
		await naive.close();
	}
});

test('the live page shows the corrected app\'s cancel as a normal outcome, with no loop', async ({ browser }) => {
	const corrected = await startAppOnSandbox({ variant: 'corrected' });
	try {
		const live = await liveView(browser, corrected);
		const app = await cancelInApp(browser, corrected);
		await expect(app.getByText('Sign-in cancelled')).toBeVisible();

		await expect(live.locator('[data-testid="live-flow"]')).toHaveCount(1, { timeout: 15_000 });
		await expect(live.getByTestId('live-flow')).toContainText('cancelled');
		await expect(live.getByTestId('flag-cancel-loop')).toHaveCount(0);
	} finally {
		await corrected.close();
	}
});
