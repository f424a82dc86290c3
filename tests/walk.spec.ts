/** The walk against the sandbox: success, cancel, and the token and me.json errors each produced in a click. */
import { expect, test } from '@playwright/test';
import { annotationOf, authorise, callMe, exchange, hydrated, resetSandbox, tamper } from './support/walk';

/** --err of the light theme (src/app.css): nothing about a cancel may be drawn in it. */
const ERROR_COLOUR = 'rgb(179, 38, 30)';
const ERROR_BACKGROUND = 'rgb(253, 236, 234)';

test('full success walk: link, sign-in, code, token, me.json', async ({ page }) => {
	await authorise(page);
	await expect(page.getByTestId('callback-result')).toContainText('a grant code arrived');
	await expect(page.getByTestId('code-validity')).toContainText('code valid for');

	const token = await exchange(page);
	await expect(token).toHaveAttribute('data-outcome', 'success');
	await expect(page.getByTestId('exchange-token')).toContainText('200');
	// Exchanged, the code's countdown no longer says it is good for anything.
	await expect(page.getByTestId('code-validity')).toContainText('exchanged (step 3). A code works once');
	await expect(page.getByTestId('code-validity')).not.toContainText('code valid for');

	const me = await callMe(page);
	await expect(me).toHaveAttribute('data-outcome', 'success');
	await expect(page.getByTestId('sbid-number')).toHaveText('STU0001');
	await expect(page.getByTestId('verification-student')).toContainText('student');
	await expect(page.locator('[data-outcome="error"]')).toHaveCount(0);
});

test('a second tab on the same walk, left behind by the first, shows every exchange after its next step', async ({ page, context }) => {
	await authorise(page);
	await exchange(page);
	await callMe(page);

	// The second tab loads the walk as it is, then the first moves on.
	const other = await context.newPage();
	await other.goto('/');
	await hydrated(other);
	await expect(other.getByTestId('exchange-me')).toHaveCount(1);
	await callMe(page);
	await callMe(page);
	await callMe(other);
	await expect(other.getByTestId('exchange-me')).toHaveCount(4);
	await expect(other.getByTestId('exchange-token')).toHaveCount(1);
	await callMe(page);
	await expect(page.getByTestId('exchange-me')).toHaveCount(5);
});

test('exchanges are highlighted by the worker, and keep their colours when the next step re-renders them', async ({ page }) => {
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(error.message));
	page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
	const workers: string[] = [];
	page.on('worker', (worker) => workers.push(worker.url()));
	await authorise(page);
	await exchange(page);
	const token = page.getByTestId('exchange-token');
	await expect(token.locator('pre.shiki').first()).toBeVisible();
	expect(workers.some((url) => url.includes('highlight.worker'))).toBe(true);
	// The token exchange, rendered again with the me.json step, never falls back to plain text.
	const plainSeen = await token.evaluate((element) => {
		const seen = { plain: false };
		new MutationObserver(() => {
			if (element.querySelector('pre.plain')) seen.plain = true;
		}).observe(element, { subtree: true, childList: true });
		(window as unknown as { __plainSeen: typeof seen }).__plainSeen = seen;
		return seen.plain;
	});
	expect(plainSeen).toBe(false);
	await callMe(page);
	await expect(page.getByTestId('exchange-me').locator('pre.shiki').first()).toBeVisible();
	expect(await page.evaluate(() => (window as unknown as { __plainSeen: { plain: boolean } }).__plainSeen.plain)).toBe(false);
	expect(errors).toEqual([]);
});

test('cancel walk: shown as a cancel, not as an error', async ({ page }) => {
	await authorise(page, undefined, 'cancel');
	const result = page.getByTestId('callback-result');
	await expect(result).toHaveAttribute('data-kind', 'cancel');
	await expect(result).toContainText('not an error');
	await expect(result).toContainText('nothing about the user');
	await expect(page.locator('[data-outcome="error"]')).toHaveCount(0);
	await expect(page.locator('[role="alert"]')).toHaveCount(0);

	const style = await result.evaluate((el) => {
		const s = getComputedStyle(el);
		return { border: s.borderLeftColor, background: s.backgroundColor, text: s.color };
	});
	expect(style.border).not.toBe(ERROR_COLOUR);
	expect(style.background).not.toBe(ERROR_BACKGROUND);
	expect(style.text).not.toBe(ERROR_COLOUR);
});

test('reused code: the second exchange is invalid_grant, explained as already used', async ({ page }) => {
	await authorise(page);
	await expect(await exchange(page)).toHaveAttribute('data-outcome', 'success');

	const again = await tamper(page, 'Send again');
	await expect(again).toHaveAttribute('data-outcome', 'error');
	await expect(again).toHaveAttribute('data-row', 'token-invalid-grant');
	await expect(again).toContainText(/already (been )?(used|exchanged)/i);
	await expect(again.locator('a[href="/reference#token-invalid-grant-used"]')).toBeVisible();
});

test('redirect_uri mismatch: invalid_grant with the mismatch as cause and a diff', async ({ page }) => {
	await authorise(page);
	const changed = await tamper(page, 'Change redirect_uri');
	await expect(changed).toHaveAttribute('data-row', 'token-invalid-grant');
	await expect(changed.locator('a[href="/reference#token-invalid-grant-redirect-mismatch"]')).toBeVisible();
	const diff = changed.locator('table', { hasText: 'the link\'s against the one sent' });
	await expect(diff).toBeVisible();
	await expect(diff.locator('ins')).toContainText('tampered=1');
});

test('the 403 toggle: me.json without a User-Agent is me-forbidden', async ({ page }) => {
	await authorise(page);
	await exchange(page);
	const me = await callMe(page, { userAgent: false });
	await expect(me).toHaveAttribute('data-outcome', 'error');
	await expect(me).toHaveAttribute('data-row', 'me-forbidden');
	await expect(page.getByTestId('exchange-me')).toContainText('403');
	await expect(page.getByTestId('me-result')).toHaveCount(0);
});

test('tampered exchanges produce their 7.2 rows', async ({ page }) => {
	await authorise(page);
	await expect(await tamper(page, 'Wrong secret')).toHaveAttribute('data-row', 'token-invalid-client');
	await expect(await tamper(page, 'Wrong grant_type')).toHaveAttribute('data-row', 'token-unsupported-grant-type');
	await expect(await tamper(page, 'Send without it', 'client_id')).toHaveAttribute('data-row', 'token-invalid-client');
	await expect(await tamper(page, 'Send without it', 'redirect_uri')).toHaveAttribute('data-row', 'token-invalid-request');
	await expect(await tamper(page, 'Send without it', 'code')).toHaveAttribute('data-row', 'token-invalid-request');
});

test('me.json with the grant code instead of the token is me-unauthorized', async ({ page }) => {
	await authorise(page);
	const me = await callMe(page, { credential: 'code' });
	await expect(me).toHaveAttribute('data-row', 'me-unauthorized');
	await expect(me.locator('a[href="/reference#me-unauthorized-grant-code"]')).toBeVisible();
});

test('me.json for a user who asked for deletion is me-not-found', async ({ page }) => {
	await authorise(page, 'deleted@example.com');
	await expect(await exchange(page)).toHaveAttribute('data-outcome', 'success');
	const me = await callMe(page);
	await expect(me).toHaveAttribute('data-row', 'me-not-found');
	await expect(annotationOf(page, 'me', 0)).toHaveAttribute('data-outcome', 'error');
});

test('a user without a verification verifies on the page, then me.json lists it', async ({ page }) => {
	// The verification step changes the user: start from the fixtures, and leave them as they were.
	await resetSandbox();
	try {
		expect(await authorise(page, 'new@example.com')).toEqual(['login', 'verify', 'consent']);
		await exchange(page);
		await expect(await callMe(page)).toHaveAttribute('data-outcome', 'success');
		await expect(page.getByTestId('sbid-number')).toHaveText('NEW0008');
		await expect(page.getByTestId('verification-student')).toBeVisible();
	} finally {
		await resetSandbox();
	}
});
