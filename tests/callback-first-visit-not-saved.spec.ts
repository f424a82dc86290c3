/**
 * A redirect that reaches /callback without the explorer's session cookie (a first visit, or anyone's script) is
 * shown to that browser but not saved as a run: a GET that anyone can send must not add a run each time. The
 * person's next step saves it.
 */
import { expect, test } from '@playwright/test';
import { authorise, exchange, hydrated } from './support/walk';

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
