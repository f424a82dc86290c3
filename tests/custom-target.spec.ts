/**
 * A custom deployment as target. playwright.config.ts allows `unreachable.invalid` (a name that never resolves) and
 * `127.0.0.1:9` (nothing listens there); anything else is not allowed.
 */
import { expect, test, type Page } from '@playwright/test';
import config from '../playwright.config';
import { EXPLORER, open } from './support/walk';

/** The explorer's outbound time limit as the test server runs it (10 s by default), plus the browser round trip. */
const serverEnv = (config.webServer as { env?: Record<string, string> } | undefined)?.env ?? {};
const BOUNDED_MS = Number(serverEnv.OUTBOUND_TIMEOUT_MS ?? 10_000) + 3_000;
/** With private targets allowed the connection is refused; without, the SSRF guard refuses the loopback address. */
const DOWN_MESSAGE = serverEnv.EXPLORER_ALLOW_PRIVATE_TARGETS === 'on' ? 'refused the connection' : 'loopback';

async function chooseCustomTarget(page: Page, authUrl: string, accountsUrl: string) {
	await open(page, '/');
	await page.getByLabel('Custom deployment').check();
	await page.getByLabel('Authorisation URL').fill(authUrl);
	await page.getByLabel('Accounts URL').fill(accountsUrl);
	// Wait for the save's answer: navigating away at once (as the first test does) would cancel it.
	await Promise.all([
		page.waitForResponse((r) => r.url().endsWith('/api/walk/client')),
		page.getByRole('button', { name: 'Save client settings' }).click()
	]);
}

test('an unreachable custom target: a clear message within the time limit, and the page keeps working', async ({ page }) => {
	await chooseCustomTarget(page, 'http://unreachable.invalid', 'http://unreachable.invalid');
	await expect(page.getByTestId('walk-message')).toHaveCount(0);
	await expect(page.getByTestId('auth-link')).toContainText('http://unreachable.invalid/sso/student?');

	// The browser cannot reach the target's page either, so the redirect is delivered by hand.
	await open(page, '/callback?code=never-issued');
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');

	const started = Date.now();
	await page.getByTestId('exchange').click();
	const exchange = page.getByTestId('exchange-token');
	await expect(exchange.getByTestId('annotation')).toHaveAttribute('data-outcome', 'transport', { timeout: BOUNDED_MS });
	expect(Date.now() - started).toBeLessThan(BOUNDED_MS);
	await expect(exchange.locator('.failure[role="alert"]')).toContainText('unreachable.invalid');
	await expect(exchange).toContainText('No response was received');

	// me.json without a token needs no exchange: the same target, the same kind of answer.
	await page.getByTestId('me-credential').selectOption('none');
	await page.getByTestId('read-me').click();
	await expect(page.getByTestId('exchange-me').getByTestId('annotation')).toHaveAttribute('data-outcome', 'transport', { timeout: BOUNDED_MS });
	await expect(page.getByTestId('walk-message')).toHaveCount(0);
});

test('a target that is down: the reason, clearly, and no hang', async ({ page }) => {
	await chooseCustomTarget(page, 'http://127.0.0.1:9', 'http://127.0.0.1:9');
	await expect(page.getByTestId('walk-message')).toHaveCount(0);
	await page.getByTestId('me-credential').selectOption('none');
	await page.getByTestId('read-me').click();
	const me = page.getByTestId('exchange-me');
	await expect(me.getByTestId('annotation')).toHaveAttribute('data-outcome', 'transport', { timeout: BOUNDED_MS });
	await expect(me.locator('.failure[role="alert"]')).toContainText('127.0.0.1:9');
	await expect(me.locator('.failure[role="alert"]')).toContainText(DOWN_MESSAGE);
});

test('a host the operator has not allowed is refused before any request', async ({ page }) => {
	const leftTheExplorer: string[] = [];
	page.on('request', (request) => {
		if (!request.url().startsWith(EXPLORER)) leftTheExplorer.push(request.url());
	});
	await chooseCustomTarget(page, 'http://evil.example', 'http://evil.example');
	const message = page.getByTestId('walk-message');
	await expect(message).toContainText('evil.example is not an allowed target');
	await expect(message).toContainText('EXPLORER_ALLOWED_HOSTS');

	// Opening the link saves first; the refusal stops the browser from going there.
	await page.getByTestId('open-link').click();
	await expect(message).toContainText('not an allowed target');
	expect(new URL(page.url()).origin).toBe(EXPLORER);
	expect(leftTheExplorer).toEqual([]);

	// The server kept the sandbox as target.
	const view = await page.request.get('/').then((r) => r.text());
	expect(view).toContain('The built-in sandbox is the target');
});
