/**
 * Issue 17, points 2 and 3: a customer's browser HAR of an integrator's app, imported the way a support engineer
 * does (the file chooser of the runs page's import), diagnosed from the browser's side alone: the app's callback
 * page's answers. Each journey as exported, and sanitised (Chrome's default since version 130: no Cookie,
 * Set-Cookie or Authorization). The good sign-in shows no error; no cookie value or secret survives the import.
 *
 * Two sources: HARs recorded now with real Chromium through the naive passport-oauth2 app (tests/apps, recordSignIn),
 * and the hand-made ones of src/lib/features/runs/pure/har/fixtures-browser/ (the same journeys, with cookie values and a password
 * the test knows).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leaks } from '../src/lib/http/leak-forms';
import { FIXTURE_COOKIES, FIXTURE_SECRETS } from '../src/lib/features/runs/pure/test-helpers';
import type { Har } from '../src/lib/features/runs/pure/har/har-schema';
import { writeLargeHar } from '../src/lib/features/runs/testing/large-har';
import { recordSignIn, sanitise, type Journey } from './support/record-har';
import { open } from './support/walk';

interface Expected {
	/** The first finding's id, and the cause ranked first when the finding ranks causes. */
	first: { id: string; candidate?: string; text?: RegExp } | null;
	also: string[];
	/** The app failed after the redirect: the redirect must not read as a success. */
	appFailed: boolean;
}

const JOURNEYS: Record<Journey, Expected> = {
	good: { first: null, also: [], appFailed: false },
	reload: { first: { id: 'callback-failed', candidate: 'used' }, also: ['code-arrived-again'], appFailed: true },
	'redirect-next': { first: { id: 'callback-failed', candidate: 'redirect-mismatch' }, also: [], appFailed: true },
	'cancel-loop': { first: { id: 'cancel-loop', text: /the callback route treats a redirect without code as "not signed in yet"/ }, also: [], appFailed: false },
	state: { first: { id: 'callback-failed', text: /skip its state check/ }, also: ['state-parameter'], appFailed: true }
};

let dir: string;
test.beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'customer-hars-'));
});
test.afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Imports the file through the runs page's file chooser, as a support engineer does; answers on the run's page. */
async function importThroughPage(page: Page, path: string): Promise<void> {
	await open(page, '/runs');
	const chooser = page.waitForEvent('filechooser');
	await page.getByTestId('import-file').click();
	await (await chooser).setFiles(path);
	await page.getByTestId('import-chosen').getByRole('button', { name: /^Import / }).click();
	await page.waitForURL(/\/runs\/[\w-]+\?/, { timeout: 30_000 });
}

/** Every cookie value a HAR carries, in its cookie lists and in its Cookie and Set-Cookie headers. */
function cookieValues(har: Har): string[] {
	const afterName = (pair: string) => pair.slice(pair.indexOf('=') + 1);
	const values = har.log.entries.flatMap(({ request, response }) => [
		...[...request.cookies, ...response.cookies].map((c) => c.value),
		...request.headers.filter((h) => /^cookie$/i.test(h.name)).flatMap((h) => h.value.split(/;\s*/).map(afterName)),
		...response.headers.filter((h) => /^set-cookie$/i.test(h.name)).flatMap((h) => h.value.split('\n').map((line) => afterName(line.split(';')[0]!)))
	]);
	return [...new Set(values.filter((v) => v.length >= 8))];
}

async function checkImport(page: Page, request: APIRequestContext, har: Har, name: string, expected: Expected, sanitised: boolean, secrets: string[]) {
	const path = join(dir, `customer-${name}.har`);
	await writeFile(path, JSON.stringify(har));
	await importThroughPage(page, path);

	const flags = page.locator('[data-testid="run-flags"] > ul > li');
	if (expected.first === null) {
		await expect(page.getByTestId('run-flags')).toHaveCount(0);
	} else {
		await expect(flags.first()).toHaveAttribute('data-testid', `flag-${expected.first.id}`);
		if (expected.first.text) await expect(flags.first()).toContainText(expected.first.text);
		if (expected.first.candidate)
			await expect(flags.first().getByTestId('flag-candidates').locator('li').first()).toHaveAttribute('data-testid', `candidate-${expected.first.candidate}`);
		for (const id of expected.also) await expect(page.getByTestId(`flag-${id}`)).toHaveCount(1);
	}

	const callback = page.getByTestId('callback-result');
	if (expected.appFailed) {
		await expect(callback).toHaveAttribute('data-app-failed', 'true');
		await expect(callback).not.toContainText('Authorised: a grant code arrived');
		await expect(callback).toContainText('A grant code arrived, but your app');
	} else {
		await expect(callback).not.toHaveAttribute('data-app-failed');
	}
	if (expected.first === null) await expect(callback).toContainText('Authorised: a grant code arrived');

	await expect(page.getByTestId('run-sanitised')).toHaveCount(sanitised ? 1 : 0);
	if (sanitised) await expect(page.getByTestId('run-sanitised')).toContainText('unknown, not missing');
	const notes = page.getByTestId('import-notes');
	await expect(notes).toContainText('authorisation link');
	if (sanitised) await expect(notes).toContainText('the HAR was exported sanitised');
	else await expect(notes).not.toContainText('sanitised');

	const runPath = new URL(page.url()).pathname;
	const report = await (await request.get(`${runPath}/export/markdown`)).text();
	expect(report.includes('Nothing: each request is consistent with the others.')).toBe(expected.first === null);
	expect(report.includes('Sanitised HAR:')).toBe(sanitised);
	const texts = [await page.content(), report, await (await request.get(`${runPath}/export/har`)).text()];
	for (const text of texts) for (const value of secrets) expect(leaks(text, value, [])).toEqual([]);
}

test.describe('recorded with Chromium through the naive passport-oauth2 app', () => {
	for (const [journey, expected] of Object.entries(JOURNEYS) as [Journey, Expected][]) {
		test(`${journey}: as exported, then sanitised`, async ({ browser, page, request }) => {
			const recorded = await recordSignIn(browser, { variant: 'naive', journey, harPath: join(dir, `recorded-${journey}.har`) });
			const har = JSON.parse(await readFile(recorded.harPath, 'utf8')) as Har;
			const cookies = cookieValues(har);
			expect(cookies.length).toBeGreaterThan(0); // the recording does carry the sessions' cookies
			await checkImport(page, request, har, `recorded-${journey}`, expected, false, cookies);
			await checkImport(page, request, sanitise(har), `recorded-${journey}-sanitised`, expected, true, cookies);
		});
	}
});

test.describe('hand-made browser HARs', () => {
	for (const [journey, expected] of Object.entries(JOURNEYS)) {
		test(`${journey}: as exported, then sanitised`, async ({ page, request }) => {
			const text = await readFile(`src/lib/features/runs/pure/har/fixtures-browser/${journey}.har.json`, 'utf8');
			const secrets = [...FIXTURE_SECRETS, ...FIXTURE_COOKIES].filter((value) => text.includes(value));
			expect(secrets.length).toBeGreaterThan(0); // the file does carry cookies
			const sanitised = JSON.parse(await readFile(`src/lib/features/runs/pure/har/fixtures-browser/${journey}-sanitised.har.json`, 'utf8')) as Har;
			await checkImport(page, request, JSON.parse(text) as Har, journey, expected, false, secrets);
			await checkImport(page, request, sanitised, `${journey}-sanitised`, expected, true, secrets);
		});
	}
});

test('the run page of a failed, sanitised import (ranked causes, the failed callback, the note) has no serious axe violations', async ({ page }) => {
	const path = join(dir, 'customer-axe.har');
	await writeFile(path, await readFile('src/lib/features/runs/pure/har/fixtures-browser/reload-sanitised.har.json', 'utf8'));
	await importThroughPage(page, path);
	await expect(page.getByTestId('flag-candidates').first()).toBeVisible();
	const { violations } = await new AxeBuilder({ page }).analyze();
	expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
});

test("the verdict's exchange link lands on the exchange, a redirect's arrival included (its place in the timeline)", async ({ page }) => {
	const path = join(dir, 'customer-verdict-link.har');
	await writeFile(path, await readFile('src/lib/features/runs/pure/har/fixtures-browser/reload.har.json', 'utf8'));
	await importThroughPage(page, path);
	const link = page.getByTestId('verdict-exchange');
	const target = (await link.getAttribute('href'))!;
	await expect(page.locator(target)).toHaveCount(1);
	await link.click();
	await expect(page.locator(target)).toBeInViewport();
	expect(new URL(page.url()).hash).toBe(target);
});

test.describe('done when: a full, sanitised 60 MB customer HAR', () => {
	const MB = 1024 * 1024;
	const CASES = [
		{ journey: 'reload', severity: 'error', what: /went wrong/, cause: /^used \(likely\)/, fix: /code|once/i },
		{ journey: 'good', severity: 'unobserved', what: /^The browser's side went as far as your app's callback .* not observed/, cause: /^The record holds only the browser's requests/, fix: /the sandbox's log for this client/ }
	] as const;
	for (const c of CASES) {
		test(`${c.journey}: the first lines say what happened, the likely cause and the fix`, async ({ browser, page }) => {
			test.slow(); // a 60 MB upload through the page
			const recorded = await recordSignIn(browser, { variant: 'naive', journey: c.journey, harPath: join(dir, `full-${c.journey}.har`) });
			const har = sanitise(JSON.parse(await readFile(recorded.harPath, 'utf8')) as Har);
			const path = join(dir, `full-${c.journey}-sanitised.har`);
			expect(await writeLargeHar(path, { bytes: 60 * MB, entries: 1500, flow: har.log.entries, sanitised: true })).toBeGreaterThan(59 * MB);
			await importThroughPage(page, path);

			const verdict = page.getByTestId('verdict');
			await expect(verdict).toHaveAttribute('data-severity', c.severity);
			// It leads the page: nothing but the title and the import's notes comes before it.
			expect(await page.locator('main section.card').first().getAttribute('data-testid')).toBe('verdict');
			await expect(page.getByTestId('verdict-what')).toHaveText(c.what);
			await expect(page.getByTestId('verdict-cause')).toHaveText(c.cause);
			await expect(page.getByTestId('verdict-fix')).toHaveText(c.fix);
			await expect(page.getByTestId('run-sanitised')).toHaveCount(1);
			if (c.journey === 'good') await expect(page.getByTestId('run-flags')).toHaveCount(0);
		});
	}
});
