/** The guided lesson "cancel is not an error": cancel, then authorise, then both outcomes side by side. */
import { expect, test } from '@playwright/test';
import { STUDENT, doLesson, open, signInAndDecide } from './support/walk';

test('cancel, then authorise: both redirects side by side, with the summary', async ({ page }) => {
	await open(page, '/learn/cancel');
	await expect(page.getByTestId('lesson-summary')).toHaveCount(0);
	await expect(page.getByTestId('lesson-authorise')).toHaveCount(0);

	await page.getByTestId('lesson-cancel').click();
	await signInAndDecide(page, STUDENT, 'cancel');
	await expect(page).toHaveURL(/\/learn\/cancel$/);
	const cancelled = page.getByTestId('lesson-cancel-result');
	await expect(cancelled.getByTestId('callback-result')).toHaveAttribute('data-kind', 'cancel');
	await expect(cancelled).toContainText('not an error');
	await expect(page.getByTestId('lesson-summary')).toHaveCount(0);

	await page.getByTestId('lesson-authorise').click();
	// Still signed in on the sandbox: straight to consent.
	expect(await signInAndDecide(page, STUDENT, 'authorise')).toEqual(['consent']);
	const authorised = page.getByTestId('lesson-authorise-result');
	await expect(authorised.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
	await expect(cancelled.getByTestId('callback-result')).toHaveAttribute('data-kind', 'cancel');
	await expect(page.getByTestId('lesson-summary')).toBeVisible();
	await expect(page.getByTestId('lesson-summary')).toContainText('code');

	// Side by side on a laptop screen: same row, cancel first.
	const [left, right] = [await cancelled.boundingBox(), await authorised.boundingBox()];
	expect(left && right).toBeTruthy();
	expect(Math.abs(left!.y - right!.y)).toBeLessThan(2);
	expect(left!.x + left!.width).toBeLessThanOrEqual(right!.x);
	await expect(page.locator('[data-outcome="error"]')).toHaveCount(0);
});

test('the lesson can be done again', async ({ page }) => {
	await doLesson(page);
	await page.getByRole('button', { name: 'Do the lesson again' }).click();
	await expect(page.getByTestId('lesson-cancel')).toBeVisible();
	await expect(page.getByTestId('lesson-cancel-result').getByTestId('callback-result')).toHaveCount(0);
	await expect(page.getByTestId('lesson-summary')).toHaveCount(0);
});
