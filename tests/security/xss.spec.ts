/**
 * XSS: a custom target answering with hostile strings in every field (headers, status text, JSON keys and values,
 * error_description, message, HTML bodies, a javascript: Location), hostile client settings, a hostile redirect to
 * /callback and a hostile HAR import all render inert in Chromium: no script runs, no dialog opens, and no
 * element or attribute from a payload exists in the DOM. Every page the walk touches is checked.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addExchange } from './support/browser';
import { HOSTILE, PAYLOADS, expectInert, hostileTarget, poisonHar } from './support/hostile';
import { EXPLORER, HOSTILE_ORIGIN, HOSTILE_PORT } from './support/ports';
import { startTarget, type Target } from './support/servers';
import { open } from '../support/walk';

let target: Target;
test.beforeAll(async () => {
	target = await startTarget(HOSTILE_PORT, hostileTarget(EXPLORER));
});
test.afterAll(async () => target.close());

/** Fails the test on any dialog; records console errors for the message. */
function watch(page: Page) {
	const dialogs: string[] = [];
	page.on('dialog', async (dialog) => {
		dialogs.push(`${dialog.type()}: ${dialog.message()}`);
		await dialog.dismiss();
	});
	return { dialogs };
}

async function meAndWait(page: Page, credential: 'token' | 'code' | 'none') {
	await page.getByTestId('me-credential').selectOption(credential);
	await addExchange(page, 'me', () => page.getByTestId('read-me').click());
}

/**
 * Opens every <details> so hidden parts (curl, raw bodies, link parts) are rendered too, then waits until every
 * code block is highlighted: shiki's HTML, loaded on demand, replaces the plain text through the page's one
 * {@html}, and is what must stay inert.
 */
async function openAllDetails(page: Page) {
	await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
	await expect(page.locator('.code > pre.plain')).toHaveCount(0, { timeout: 15_000 });
}

test('a walk against a hostile target, with hostile settings, renders inert', async ({ page }) => {
	const { dialogs } = watch(page);
	await open(page, '/');
	// Hostile client settings, saved through the API in the page's own session, then shown by the page.
	const saved = await page.request.post('/api/walk/client', {
		data: {
			target: { kind: 'custom', authUrl: HOSTILE_ORIGIN, accountsUrl: HOSTILE_ORIGIN },
			clientId: PAYLOADS.slice(0, 4).join(''),
			redirectUri: `${EXPLORER}/callback?next=${encodeURIComponent(HOSTILE)}`,
			supergroup: PAYLOADS[0],
			country: '<img src=x>',
			responseType: PAYLOADS[3],
			extraLinkParams: [
				[PAYLOADS[0], PAYLOADS[1]],
				[PAYLOADS[2], HOSTILE]
			]
		}
	});
	expect(saved.status(), await saved.text()).toBe(200);
	await page.reload();
	await expect(page.getByTestId('auth-link')).toContainText(HOSTILE_ORIGIN);
	await openAllDetails(page);
	await expectInert(page, 'walk page with hostile settings');

	// Step 2 for real: the target's "authorisation page" sends the browser to /callback with hostile parameters.
	await page.getByTestId('open-link').click();
	await page.waitForURL(`${EXPLORER}/#step-authorise`);
	await expect(page.getByTestId('callback-result')).toBeVisible();
	await expect(page.getByTestId('callback-url')).toContainText('callback?code=');
	await expectInert(page, 'after the hostile callback');

	await addExchange(page, 'token', () => page.getByTestId('exchange').click());
	const tamper = page.locator('details.tamper');
	await tamper.locator('summary').click();
	await addExchange(page, 'token', () => tamper.getByRole('button', { name: 'Send again' }).click());
	await addExchange(page, 'token', () => tamper.getByRole('button', { name: 'Wrong grant_type' }).click());
	await meAndWait(page, 'token');
	await page.getByTestId('me-user-agent').uncheck();
	await meAndWait(page, 'token');
	await page.getByTestId('me-user-agent').check();
	await meAndWait(page, 'none');
	await meAndWait(page, 'code');
	// The hostile strings arrived and are shown as text.
	await expect(page.getByTestId('exchange-token').nth(1)).toContainText('<script>window.__pwned=1</script>');
	await expect(page.getByTestId('exchange-me').first()).toContainText('onerror');
	await openAllDetails(page);
	await expect(page.locator('.code > pre.shiki').first()).toBeVisible();
	await expectInert(page, 'walk page after the exchanges and me.json');
	expect(target.received.filter((r) => r.startsWith('POST /oauth/token')).length).toBe(3);

	// The saved run, the list of runs and a search for the payload.
	const runLink = page.getByTestId('run-permalink');
	const runHref = await runLink.getAttribute('href');
	expect(runHref).toMatch(/^\/runs\/[\w-]+$/);
	for (const path of [runHref!, '/runs', `/runs?q=${encodeURIComponent(PAYLOADS[0]!)}`, `${runHref}?note=${encodeURIComponent(HOSTILE)}`]) {
		await open(page, path);
		await openAllDetails(page);
		await expectInert(page, path);
	}
	expect(dialogs).toEqual([]);
});

test('a hostile redirect delivered straight to /callback renders inert', async ({ page }) => {
	const { dialogs } = watch(page);
	await open(page, '/');
	await page.request.post('/api/walk/reset', { data: {} });
	await page.reload();
	await page.getByTestId('open-link').click();
	await page.waitForURL((url) => url.origin !== EXPLORER);
	for (const query of [
		`code=${encodeURIComponent(HOSTILE)}&x=${encodeURIComponent(HOSTILE)}`,
		`error=${encodeURIComponent(HOSTILE)}&error_description=${encodeURIComponent(HOSTILE)}&${encodeURIComponent(PAYLOADS[1]!)}=1`,
		`code=${encodeURIComponent(PAYLOADS[2]!)}#${encodeURIComponent(PAYLOADS[0]!)}`
	]) {
		await open(page, `/callback?${query}`);
		await expect(page.getByTestId('callback-result')).toBeVisible();
		await openAllDetails(page);
		await expectInert(page, `/callback?${query}`);
	}
	expect(dialogs).toEqual([]);
});

test('a hostile HAR imported through the page renders inert, on the import and on the run page', async ({ page }) => {
	const { dialogs } = watch(page);
	const har = poisonHar(readFileSync(join(process.cwd(), 'src', 'lib', 'features', 'runs', 'pure', 'har', 'fixtures', 'success.har.json'), 'utf8'));
	await open(page, '/runs');
	await page.getByTestId('import-file').setInputFiles({ name: `${PAYLOADS[1]}.har`, mimeType: 'application/json', buffer: Buffer.from(har) });
	await page.getByTestId('import-chosen').getByRole('button', { name: /^Import / }).click();
	await page.waitForURL(/\/runs\/[\w-]+/);
	await expect(page.locator('h1')).toBeVisible();
	await openAllDetails(page);
	await expectInert(page, 'imported hostile HAR');
	// The payloads are there, as text.
	expect(await page.locator('main').innerText()).toContain('<script>window.__pwned=1</script>');
	await open(page, '/runs');
	await expectInert(page, '/runs after the import');
	expect(dialogs).toEqual([]);
});
