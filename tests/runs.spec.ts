/**
 * Issue 5: a walk is saved as a run; its permalink opens the same view in a fresh browser; the HAR export
 * re-imports to the same annotations; the exports carry no secret.
 */
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { DEMO_SECRET, authorise, exchange, open } from './support/walk';

test('a saved run opens by permalink in a fresh context, exports HAR, and re-imports with the same annotations', async ({ page, browser }) => {
	await authorise(page);
	await exchange(page);
	await page.getByTestId('exchange').click(); // the same code again: invalid_grant, "used"
	await expect(page.getByTestId('exchange-token')).toHaveCount(2);
	await page.getByTestId('read-me').click();
	await expect(page.getByTestId('me-result')).toBeVisible();
	const permalink = await page.getByTestId('run-permalink').getAttribute('href');
	expect(permalink).toMatch(/^\/runs\/[\w-]+$/);

	const fresh = await browser.newContext();
	const runPage = await fresh.newPage();
	await open(runPage, permalink!);
	const annotations = runPage.getByTestId('annotation');
	await expect(annotations).toHaveCount(3);
	const rows = await annotations.evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-outcome')}:${n.getAttribute('data-row') ?? ''}`));
	expect(rows).toEqual(['success:', 'error:token-invalid-grant', 'success:']);
	await expect(runPage.getByTestId('redactions')).toContainText('client secret');

	const [download] = await Promise.all([runPage.waitForEvent('download'), runPage.getByTestId('export-har').click()]);
	const har = await readFile((await download.path())!, 'utf8');
	expect(JSON.parse(har).log.version).toBe('1.2');
	expect(har).not.toContain(DEMO_SECRET);

	await open(runPage, '/runs');
	await runPage.getByLabel('Or paste').selectOption('har');
	await runPage.getByLabel('Pasted text').fill(har);
	await runPage.getByRole('button', { name: 'Import' }).click();
	await runPage.waitForURL(/\/runs\/[\w-]+\?/);
	expect(runPage.url()).not.toContain(permalink!);
	await expect(runPage.getByTestId('import-notes')).toBeVisible();
	const reimported = await runPage
		.getByTestId('annotation')
		.evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-outcome')}:${n.getAttribute('data-row') ?? ''}`));
	expect(reimported).toEqual(rows);
	await fresh.close();
});

test('the Markdown report and curl script of a run carry no secret', async ({ page, request }) => {
	await authorise(page);
	await exchange(page);
	const permalink = await page.getByTestId('run-permalink').getAttribute('href');
	for (const format of ['markdown', 'shell', 'har']) {
		const response = await request.get(`${permalink}/export/${format}`);
		expect(response.status()).toBe(200);
		const text = await response.text();
		expect(text).not.toContain(DEMO_SECRET);
		if (format === 'shell') expect(text).toContain('$CLIENT_SECRET');
		if (format === 'markdown') expect(text).toContain('token');
	}
});

test('a file that is not HAR gets a clear error and nothing is stored', async ({ page }) => {
	await open(page, '/runs');
	const before = await page.getByTestId('run-list').locator('li').count().catch(() => 0);
	await page.getByLabel('Pasted text').fill('{"not": "a har"}');
	await page.getByRole('button', { name: 'Import' }).click();
	await expect(page.getByTestId('import-message')).toContainText(/HAR|log/i);
	await page.reload();
	expect(await page.getByTestId('run-list').locator('li').count().catch(() => 0)).toBe(before);
});

test('runs are searchable', async ({ page }) => {
	await authorise(page);
	await exchange(page);
	await open(page, '/runs?q=demo-client');
	await expect(page.getByTestId('run-list').locator('li').first()).toContainText('demo-client');
	await open(page, '/runs?q=no-such-thing-anywhere');
	await expect(page.getByText(/No run of this browser session matches/)).toBeVisible();
});

test('a customer\'s HAR: what went wrong on one screen, then reproduced as a scenario on the sandbox', async ({ page }) => {
	const har = await readFile('src/lib/features/runs/pure/har/fixtures/reused-code.har.json', 'utf8');
	await open(page, '/runs');
	await page.getByLabel('Or paste').selectOption('har');
	await page.getByLabel('Pasted text').fill(har);
	await page.getByRole('button', { name: 'Import' }).click();
	await page.waitForURL(/\/runs\/[\w-]+\?/);
	await expect(page.getByTestId('flag-code-reused')).toBeVisible();
	await expect(page.locator('[data-testid="annotation"][data-row="token-invalid-grant"]')).toHaveCount(1);

	await page.getByTestId('reproduce-code-exchanged-twice').click();
	await page.waitForURL(/\/scenarios\?run=code-exchanged-twice#code-exchanged-twice$/);
	const scenario = page.getByTestId('scenario-code-exchanged-twice');
	// The link points at the scenario; the person's click runs it (a GET never changes the sandbox).
	await expect(scenario.getByRole('button', { name: /^Run / })).toBeFocused();
	await scenario.getByRole('button', { name: /^Run / }).click();
	await expect(scenario.getByTestId('scenario-result')).toHaveAttribute('data-passed', 'true');
	await expect(scenario.getByTestId('scenario-step').last().getByTestId('annotation')).toHaveAttribute('data-row', 'token-invalid-grant');
	// Only the requested scenario ran.
	await expect(page.getByTestId('scenario-result')).toHaveCount(1);
});

test('flags across requests show the names they quote as code, not as raw backticks', async ({ page }) => {
	await open(page, '/runs');
	await page.getByLabel('Or paste').selectOption('har');
	await page.getByLabel('Pasted text').fill(await readFile('src/lib/features/runs/pure/har/fixtures/redirect-uri-mismatch.har.json', 'utf8'));
	await page.getByRole('button', { name: 'Import' }).click();
	await page.waitForURL(/\/runs\/[\w-]+\?/);
	const flag = page.getByTestId('flag-redirect-uri-differs');
	await expect(flag.locator('code', { hasText: 'redirect_uri' }).first()).toBeVisible();
	await expect(flag).not.toContainText('`');
});

test("the owner deletes a run from its page: asked first, the list says so, the permalink is gone; others see no Delete", async ({ page, browser }) => {
	await authorise(page);
	await exchange(page);
	const permalink = (await page.getByTestId('run-permalink').getAttribute('href'))!;
	await open(page, '/runs');
	await expect(page.getByTestId('run-usage')).toContainText(/This session keeps 1 of at most 1,000 runs, \d+ KB\s+of 256 MB/);

	const stranger = await (await browser.newContext()).newPage();
	await open(stranger, permalink);
	await expect(stranger.getByRole('heading', { level: 1 })).toBeVisible();
	await expect(stranger.getByTestId('delete-run')).toHaveCount(0);

	await open(page, permalink);
	// Dismissed, the run stays; accepted, it goes.
	page.once('dialog', (dialog) => void dialog.dismiss());
	await page.getByTestId('delete-run').click();
	await expect(page).toHaveURL(new RegExp(`${permalink}$`));
	page.once('dialog', (dialog) => void dialog.accept());
	await page.getByTestId('delete-run').click();
	await page.waitForURL(/\/runs\?deleted=1$/);
	await expect(page.getByTestId('run-deleted')).toBeVisible();
	await expect(page.getByTestId('runs-empty')).toBeVisible();
	expect((await page.request.get(permalink)).status()).toBe(404);
	// The walk goes on, no longer saved: its next step says so rather than bringing the run back.
	await open(page, '/');
	await page.getByTestId('read-me').click();
	await expect(page.getByTestId('me-result')).toBeVisible();
	await expect(page.getByTestId('run-unsaved')).toContainText('This run was deleted on its page');
	expect((await page.request.get(permalink)).status()).toBe(404);
});
