/**
 * /callback saves a run as the redirect arrives only when an authorisation page opened from this browser's walk is
 * waiting for it. Any other redirect (a first visit without the session cookie, or one another tab, app or site
 * sends the browser to) is shown but not saved: a GET that anyone can send must not add a run each time, and the
 * interface has no `state` to tell whose redirect it is. The person's next step saves it.
 */
import { expect, test } from '@playwright/test';
import { authorise, exchange, hydrated, open } from './support/walk';

const UNKNOWN_CODE = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

test('a redirect on a first visit is shown but not saved until the next step', async ({ page }) => {
	await page.goto(`/callback?code=${UNKNOWN_CODE}&state=from-elsewhere`);
	await expect(page).toHaveURL(/\/#step-authorise$/);
	await hydrated(page);
	await expect(page.getByTestId('callback-result')).toContainText('a grant code arrived');
	await expect(page.getByTestId('run-unsaved')).toContainText('Not saved yet');
	await expect(page.getByTestId('run-permalink')).toHaveCount(0);

	await page.goto('/runs');
	await expect(page.getByTestId('runs-empty')).toHaveAttribute('data-why', 'session');

	await page.goto('/');
	await hydrated(page);
	await exchange(page);
	await expect(page.getByTestId('run-permalink')).toBeVisible();
	await expect(page.getByTestId('run-unsaved')).toHaveCount(0);
	await page.goto('/runs');
	await expect(page.getByTestId('runs-empty')).toHaveCount(0);
	await expect(page.getByTestId('run-list').locator('li')).toHaveCount(1);
});

test('a new walk after an unsaved first-visit redirect has nothing left to call unsaved', async ({ page }) => {
	await page.goto(`/callback?code=${UNKNOWN_CODE}`);
	await hydrated(page);
	await expect(page.getByTestId('run-unsaved')).toBeVisible();
	await page.getByRole('button', { name: 'Start a new walk' }).click();
	await expect(page.getByTestId('callback-result')).toHaveCount(0);
	await expect(page.getByTestId('run-unsaved')).toHaveCount(0);
	await page.reload();
	await hydrated(page);
	await expect(page.getByTestId('run-unsaved')).toHaveCount(0);
});

test('with the session of a walk begun here, the redirect is saved as it arrives', async ({ page }) => {
	await authorise(page);
	await expect(page.getByTestId('callback-result')).toContainText('a grant code arrived');
	await expect(page.getByTestId('run-permalink')).toBeVisible();
	await expect(page.getByTestId('run-unsaved')).toHaveCount(0);
});

test('a redirect no walk here was waiting for is flagged and not saved, and a second one after a walk neither', async ({ page }) => {
	// The first arrival makes the session; the second comes with it, and no walk here is waiting for either.
	await open(page, `/callback?code=${UNKNOWN_CODE}`);
	await expect(page.getByTestId('run-unsaved')).toContainText('before the explorer knew this browser');
	await open(page, `/callback?code=${UNKNOWN_CODE}`);
	await expect(page.getByTestId('callback-result')).toContainText('a grant code arrived');
	await expect(page.getByTestId('run-unsaved')).toContainText('did not come back from an authorisation page opened in this walk');
	await expect(page.getByTestId('run-permalink')).toHaveCount(0);
	await page.goto('/runs');
	await expect(page.getByTestId('run-list')).toHaveCount(0);
	await expect(page.getByTestId('runs-empty')).toBeVisible();

	// A walk begun here is saved as it arrives; the same redirect sent again afterwards is not waited for.
	await authorise(page);
	await expect(page.getByTestId('run-permalink')).toBeVisible();
	await open(page, `/callback?code=${UNKNOWN_CODE}`);
	await expect(page.getByTestId('stray-callback')).toBeVisible();
	await page.goto('/runs');
	await expect(page.getByTestId('run-list').locator('li')).toHaveCount(1);
});

test("a redirect another site sends after the walk began leaves the walk as it was, until the person chooses to use it", async ({ page }) => {
	await authorise(page);
	await exchange(page);
	await expect(page.getByTestId('exchange-token')).toHaveCount(1);
	const permalink = await page.getByTestId('run-permalink').getAttribute('href');
	const code = await page.getByTestId('callback-result').innerText();

	// Any site can send the browser here; a top-level GET carries the session cookie.
	await open(page, `/callback?code=${UNKNOWN_CODE}`);
	const stray = page.getByTestId('stray-callback');
	await expect(stray).toContainText('was not waiting for');
	await expect(stray).toContainText(`code=${UNKNOWN_CODE}`);
	await expect(page.getByTestId('exchange-token')).toHaveCount(1);
	await expect(page.getByTestId('callback-result')).toHaveText(code);
	await expect(page.getByTestId('run-permalink')).toHaveAttribute('href', permalink!);

	// Ignored: gone, the walk unchanged.
	await stray.getByTestId('stray-ignore').click();
	await expect(stray).toHaveCount(0);
	await expect(page.getByTestId('exchange-token')).toHaveCount(1);
	await page.reload();
	await hydrated(page);
	await expect(page.getByTestId('stray-callback')).toHaveCount(0);

	// Used: it replaces step 2's redirect and starts a run of its own; the earlier run keeps its permalink.
	await open(page, `/callback?code=${UNKNOWN_CODE}`);
	await page.getByTestId('stray-use').click();
	await expect(page.getByTestId('stray-callback')).toHaveCount(0);
	await expect(page.getByTestId('exchange-token')).toHaveCount(0);
	await expect(page.getByTestId('run-permalink')).not.toHaveAttribute('href', permalink!);
	await page.goto('/runs');
	await expect(page.getByTestId('run-list').locator('li')).toHaveCount(2);
});
