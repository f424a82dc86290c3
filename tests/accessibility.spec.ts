/** Accessible and comfortable: no serious axe violations, a keyboard-only walk, light and dark themes. */
import { expect, test, type Page } from '@playwright/test';
import { AUTH_HOST, DEMO_PASSWORD, EXPLORER, STUDENT, authorise, callMe, doLesson, exchange, hydrated, open } from './support/walk';
import { seriousViolations } from './support/viewports';

/** The serious and critical violations on the page as it is now, each named with where it occurs. */

test('the walk page after a full walk has no serious axe violations', async ({ page }) => {
	await authorise(page);
	await exchange(page);
	await callMe(page);
	await expect(page.getByTestId('me-result')).toBeVisible();
	expect(await seriousViolations(page)).toEqual([]);
});

test('the walk page after an error has no serious axe violations', async ({ page }) => {
	await authorise(page);
	await callMe(page, { credential: 'code' });
	expect(await seriousViolations(page)).toEqual([]);
});

test('the reference page has no serious axe violations', async ({ page }) => {
	await open(page, '/reference');
	expect(await seriousViolations(page)).toEqual([]);
});

for (const path of ['/runs', '/sandbox', '/scenarios', '/check', '/live', '/live/demo-client']) {
	test(`${path} has no serious axe violations`, async ({ page }) => {
		await open(page, path);
		expect(await seriousViolations(page)).toEqual([]);
	});
}

test('the lesson, done, has no serious axe violations', async ({ page }) => {
	await doLesson(page);
	await expect(page.getByTestId('lesson-summary')).toBeVisible();
	expect(await seriousViolations(page)).toEqual([]);
});

test('the sandbox sign-in and consent pages have no serious axe violations', async ({ page }) => {
	await open(page, '/');
	await page.getByTestId('open-link').click();
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	expect(await seriousViolations(page)).toEqual([]);
	await page.getByLabel('Email').fill(STUDENT);
	await page.getByLabel('Password').fill(DEMO_PASSWORD);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('button', { name: 'Authorise' })).toBeVisible();
	expect(await seriousViolations(page)).toEqual([]);
});

test('the dark theme after a full walk has no serious axe violations', async ({ page }) => {
	await authorise(page);
	await page.getByLabel('Theme').selectOption('dark');
	await exchange(page);
	await callMe(page, { userAgent: false });
	expect(await seriousViolations(page)).toEqual([]);
});

/** Presses Tab until the focused element matches `selector`; fails after `limit` presses. */
async function tabTo(page: Page, selector: string, limit = 80): Promise<void> {
	for (let i = 0; i < limit; i++) {
		await page.keyboard.press('Tab');
		if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
	}
	throw new Error(`Tab never reached ${selector}`);
}

test('keyboard only: the whole walk, from the Open button to me.json', async ({ page }) => {
	await open(page, '/');
	await tabTo(page, '[data-testid="open-link"]');
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => url.origin === AUTH_HOST);

	// The sign-in page focuses the email field itself.
	await expect(page.getByLabel('Email')).toBeFocused();
	await page.keyboard.type(STUDENT);
	await page.keyboard.press('Tab');
	await page.keyboard.type(DEMO_PASSWORD);
	await page.keyboard.press('Enter');
	await expect(page.getByRole('button', { name: 'Authorise' })).toBeVisible();
	await tabTo(page, 'button[value="authorize"]');
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => url.origin === EXPLORER);
	await hydrated(page);
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');

	await tabTo(page, '[data-testid="exchange"]');
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('exchange-token').getByTestId('annotation')).toHaveAttribute('data-outcome', 'success');
	await tabTo(page, '[data-testid="read-me"]');
	await page.keyboard.press('Enter');
	await expect(page.getByTestId('sbid-number')).toHaveText('STU0001');
});

test('on a phone no page scrolls sideways, the walk with its exchanges included', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 740 });
	const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
	await authorise(page);
	await exchange(page);
	await callMe(page);
	await expect(page.getByTestId('me-result')).toBeVisible();
	expect(await overflow(), '/ after a full walk').toBe(0);
	for (const path of ['/reference', '/runs', '/sandbox', '/scenarios', '/learn/cancel']) {
		await open(page, path);
		expect(await overflow(), path).toBe(0);
	}
});

test('dark theme: chosen from the header, applied to the page, kept after a reload', async ({ page }) => {
	await page.emulateMedia({ colorScheme: 'light' });
	await open(page, '/');
	const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
	const light = await background();

	await page.getByLabel('Theme').selectOption('dark');
	expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
	const dark = await background();
	expect(dark).not.toBe(light);

	await page.reload();
	expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
	expect(await background()).toBe(dark);
	await expect(page.getByLabel('Theme')).toHaveValue('dark');

	await page.getByLabel('Theme').selectOption('light');
	expect(await background()).toBe(light);
});
