/**
 * Issue 27, point 12: the smaller things a newcomer trips over. Focus lands on what a save did, not on the page; the
 * two Target radios are one Tab stop; the diagram names the real hosts, and for an imported run the app and the
 * path it came back to; an exchange's summary line carries the path; a me.json call a browser sent is labelled as
 * the browser's; choosing a HAR file (to import, or to add to a run) shows what will be sent before it is; error texts show names as code, not
 * backticks; the clock and reset of the shared default workspace say they affect everyone.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, AUTH_HOST, open, resetSandbox } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const hostOf = (url: string) => new URL(url).host;

/** The shipped success HAR, its app coming back to /auth/return and its me.json call made by the browser (Sec-Fetch-*). */
async function browserHar(): Promise<Buffer> {
	const text = (await readFile('src/lib/features/runs/pure/har/fixtures/success.har.json', 'utf8'))
		.replaceAll('shop.example.com/callback', 'shop.example.com/auth/return')
		.replaceAll('shop.example.com%2Fcallback', 'shop.example.com%2Fauth%2Freturn');
	const har = JSON.parse(text) as { log: { entries: { request: { url: string; headers: { name: string; value: string }[] } }[] } };
	const me = har.log.entries.find((e) => e.request.url.endsWith('/api/v3/me.json'))!;
	me.request.headers.push({ name: 'Sec-Fetch-Mode', value: 'cors' }, { name: 'Sec-Fetch-Site', value: 'cross-site' });
	return Buffer.from(JSON.stringify(har));
}

async function createClient(page: Page, clientId: string): Promise<void> {
	const form = page.getByTestId('client-form');
	await form.getByLabel('client_id').fill(clientId);
	await form.getByLabel('client_secret').fill('focus-secret-1');
	await form.getByLabel('Redirect URIs').fill('https://focus.example.com/cb');
	await form.getByRole('button', { name: 'Create client' }).click();
}

// axe on a run's page takes long on a busy machine.
test.describe.configure({ timeout: 120_000 });

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('after Create client and Save client, focus is on what the save did, not on the page', async ({ page }) => {
			try {
				await open(page, '/sandbox');
				const clientId = `focus-${viewport.name}`;
				await createClient(page, clientId);
				const feedback = page.locator('#clients').getByTestId('panel-feedback');
				await expect(feedback).toContainText(clientId);
				await expect(feedback).toBeFocused();

				await page.getByTestId('clients-table').getByRole('button', { name: `Edit ${clientId}` }).click();
				await page.getByTestId('client-form').getByLabel('Name').fill('Focus app');
				await page.getByTestId('client-form').getByRole('button', { name: 'Save client' }).click();
				await expect(page.getByTestId('clients-table')).toContainText('Focus app');
				await expect(feedback).toBeFocused();
				expect(await seriousViolations(page)).toEqual([]);
			} finally {
				await resetSandbox();
			}
		});

		test("the walk's Save client settings moves focus to what it saved", async ({ page }) => {
			await open(page, '/');
			await page.getByLabel('Country').fill('fr');
			await page.getByRole('button', { name: 'Save client settings' }).click();
			await expect(page.getByTestId('client-saved')).toBeFocused();
		});

		test('the two Target radios are one Tab stop, moved between with the arrow keys', async ({ page }) => {
			await open(page, '/');
			const sandbox = page.getByRole('radio', { name: 'Built-in sandbox' });
			await sandbox.focus();
			await page.keyboard.press('Tab');
			await expect(page.getByLabel('Client ID')).toBeFocused();
			await sandbox.focus();
			await page.keyboard.press('ArrowRight');
			await expect(page.getByRole('radio', { name: 'Custom deployment' })).toBeChecked();
		});

		test("the walk's diagram names the sandbox's real hosts", async ({ page }) => {
			await open(page, '/');
			const diagram = page.locator('figure.sequence');
			await expect(diagram.locator('[data-lane="auth"]')).toHaveText(hostOf(AUTH_HOST));
			await expect(diagram.locator('[data-lane="accounts"]')).toHaveText(hostOf(ACCOUNTS_HOST));
			await expect(diagram.locator('[data-lane="client"]')).toHaveText('this explorer');
			await expect(diagram).not.toContainText('{auth_url}');
			await expect(diagram).not.toContainText('{accounts_url}');
			await expect(diagram).toContainText('GET /callback');
		});

		test('an imported run names the app and its redirect path, summary lines carry the path, and a browser me.json call is the browser\'s', async ({ page }) => {
			await open(page, '/runs');
			await page.getByTestId('import-file').setInputFiles({ name: 'customer.har', mimeType: 'application/json', buffer: await browserHar() });
			// Chosen is not imported: the page says what it will import, and waits for Import.
			const chosen = page.getByTestId('import-chosen');
			await expect(chosen).toContainText('customer.har');
			await expect(chosen).toContainText(/\d+ KB/);
			await page.waitForTimeout(300);
			expect(new URL(page.url()).pathname).toBe('/runs');
			expect(await seriousViolations(page)).toEqual([]);
			await chosen.getByRole('button', { name: 'Import customer.har' }).click();
			await page.waitForURL(/\/runs\/[\w-]+\?/);

			const diagram = page.locator('figure.sequence');
			await expect(diagram.locator('[data-lane="client"]')).toHaveText('shop.example.com');
			await expect(diagram.locator('[data-lane="auth"]')).toHaveText('auth.example.com');
			await expect(diagram.locator('[data-lane="accounts"]')).toHaveText('accounts.example.com');
			await expect(diagram).toContainText('Accounts host: accounts.example.com');
			await expect(diagram).toContainText('GET /auth/return');
			await expect(diagram).not.toContainText('this explorer');
			await expect(diagram).not.toContainText('GET /callback');

			await expect(page.getByTestId('exchange-token').getByTestId('exchange-target')).toHaveText('POST https://accounts.example.com/oauth/token');
			await expect(page.getByTestId('exchange-me').getByTestId('exchange-target')).toHaveText('GET https://accounts.example.com/api/v3/me.json');

			const me = page.locator('[data-testid^="timeline-"][data-step="me"]');
			await expect(me).toHaveAttribute('data-channel', 'front');
			await expect(me).toContainText('sent by the browser');
			expect(await seriousViolations(page)).toEqual([]);
		});

		test('a chosen HAR file can be put back without importing it', async ({ page }) => {
			await open(page, '/runs');
			await page.getByTestId('import-file').setInputFiles({ name: 'not-this.har', mimeType: 'application/json', buffer: await browserHar() });
			await page.getByTestId('import-chosen').getByRole('button', { name: 'Cancel' }).click();
			await expect(page.getByTestId('import-chosen')).toHaveCount(0);
			expect(new URL(page.url()).pathname).toBe('/runs');
		});

		test("a server-side HAR chosen on a run's page is added only once confirmed", async ({ page }) => {
			await open(page, '/runs');
			await page.getByTestId('import-file').setInputFiles({ name: 'customer.har', mimeType: 'application/json', buffer: await browserHar() });
			await page.getByTestId('import-chosen').getByRole('button', { name: 'Import customer.har' }).click();
			await page.waitForURL(/\/runs\/[\w-]+\?/);
			const entries = page.locator('[data-testid^="timeline-"]');
			const before = await entries.count();
			const sent: string[] = [];
			page.on('request', (request) => void (request.method() === 'POST' && sent.push(request.url())));
			const server = await readFile('src/lib/features/runs/pure/har/fixtures/wrong-secret.har.json');
			await page.getByTestId('evidence-har-file').setInputFiles({ name: 'server.har', mimeType: 'application/json', buffer: server });
			const chosen = page.getByTestId('evidence-har-chosen');
			await expect(chosen).toContainText('server.har');
			await expect(chosen).toContainText(/\d+(\.\d+)? KB/);
			// Choosing is not adding: Cancel puts the file back, and nothing was sent.
			await chosen.getByRole('button', { name: 'Cancel' }).click();
			await expect(chosen).toHaveCount(0);
			await expect(page.getByTestId('evidence-message')).toHaveCount(0);
			expect(sent).toEqual([]);
			expect(await entries.count()).toBe(before);
			await page.getByTestId('evidence-har-file').setInputFiles({ name: 'server.har', mimeType: 'application/json', buffer: server });
			expect(await seriousViolations(page)).toEqual([]);
			await page.getByTestId('evidence-har-chosen').getByRole('button', { name: 'Add server.har' }).click();
			await expect(page.getByTestId('evidence-message')).toContainText(/added \d+ exchange/);
			await expect(page.locator('[data-testid^="timeline-"]', { hasText: 'from a HAR' }).first()).toBeVisible();
		});

		test('an error text shows the names it quotes as code, without backticks', async ({ page }) => {
			await open(page, '/runs');
			await page.getByLabel('Or paste').selectOption('curl');
			await page.getByLabel('Pasted text').fill('wget https://accounts.example.com/oauth/token');
			await page.getByRole('button', { name: 'Import', exact: true }).click();
			const message = page.getByTestId('import-message');
			await expect(message).toContainText('it should start with curl');
			await expect(message.locator('code')).toHaveText('curl');
			expect(await message.innerText()).not.toContain('`');
			expect(await seriousViolations(page)).toEqual([]);
		});

		test("the shared default workspace's clock and reset say they affect everyone; one's own workspace's do not", async ({ page }) => {
			await open(page, '/sandbox');
			await expect(page.getByTestId('clock-shared')).toContainText('moves it for everyone using this explorer');
			await expect(page.getByTestId('reset-shared')).toContainText('for everyone using this explorer');
			expect(await seriousViolations(page)).toEqual([]);
			await page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
			await expect(page.getByTestId('workspace-name')).toBeVisible();
			await expect(page.getByTestId('clock-shared')).toHaveCount(0);
			await expect(page.getByTestId('reset-shared')).toHaveCount(0);
		});
	});
}
