/**
 * Issue 17, points 2 and 3: a customer's browser HAR of an integrator's app, imported the way a support engineer
 * does (the file chooser of the runs page's import), diagnosed from the browser's side alone: the app's callback
 * page's answers. Each journey as exported, and sanitised (Chrome's default since version 130: no Cookie,
 * Set-Cookie or Authorization). The good sign-in shows no error; no cookie value, password or secret survives.
 *
 * The HARs are the hand-made browser HARs of src/lib/support/fixtures-browser/ (a passport-oauth2 app's journeys,
 * in the shape Chrome saves).
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leaks } from '../src/lib/http/leak-forms';
import { FIXTURE_COOKIES, FIXTURE_SECRETS } from '../src/lib/support/test-helpers';
import { open } from './support/walk';

interface Journey {
	/** The first finding's id, and the cause ranked first when the finding ranks causes. */
	first: { id: string; candidate?: string } | null;
	also: string[];
	/** The callback's answer failed after the redirect: the redirect must not read as a success. */
	appFailed: boolean;
}

const JOURNEYS: Record<string, Journey> = {
	good: { first: null, also: [], appFailed: false },
	reload: { first: { id: 'callback-failed', candidate: 'used' }, also: ['code-arrived-again'], appFailed: true },
	'redirect-next': { first: { id: 'callback-failed', candidate: 'redirect-mismatch' }, also: [], appFailed: true },
	'cancel-loop': { first: { id: 'cancel-loop' }, also: [], appFailed: false },
	state: { first: { id: 'callback-failed' }, also: ['state-parameter'], appFailed: true }
};

let dir: string;
test.beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'customer-hars-'));
});
test.afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Imports the file through the runs page's file chooser; answers on the run's page. */
async function importThroughPage(page: Page, path: string): Promise<void> {
	await open(page, '/runs');
	const chooser = page.waitForEvent('filechooser');
	await page.getByTestId('import-file').click();
	await (await chooser).setFiles(path);
	await page.waitForURL(/\/runs\/[\w-]+\?/, { timeout: 30_000 });
}

for (const [journey, expected] of Object.entries(JOURNEYS)) {
	for (const sanitised of [false, true]) {
		const name = sanitised ? `${journey}-sanitised` : journey;
		test(`${name}: the first findings from the browser's side${sanitised ? ', and the sanitised note' : ''}`, async ({ page, request }) => {
			const har = await readFile(`src/lib/support/fixtures-browser/${name}.har.json`, 'utf8');
			const path = join(dir, `customer-${name}.har`);
			await writeFile(path, har);
			await importThroughPage(page, path);

			const flags = page.locator('[data-testid="run-flags"] > ul > li');
			if (expected.first === null) {
				await expect(page.getByTestId('run-flags')).toHaveCount(0);
			} else {
				await expect(flags.first()).toHaveAttribute('data-testid', `flag-${expected.first.id}`);
				if (expected.first.candidate)
					await expect(flags.first().getByTestId('flag-candidates').locator('li').first()).toHaveAttribute('data-testid', `candidate-${expected.first.candidate}`);
				for (const id of expected.also) await expect(page.getByTestId(`flag-${id}`)).toHaveCount(1);
			}

			const callback = page.getByTestId('callback-result');
			if (expected.appFailed) {
				await expect(callback).toHaveAttribute('data-app-failed', 'true');
				await expect(callback).not.toContainText('Authorised: a grant code arrived');
				await expect(callback).toContainText("your app's callback answered");
			} else {
				await expect(callback).not.toHaveAttribute('data-app-failed');
			}
			if (journey === 'good') await expect(callback).toContainText('Authorised: a grant code arrived');

			await expect(page.getByTestId('run-sanitised')).toHaveCount(sanitised ? 1 : 0);
			if (sanitised) await expect(page.getByTestId('run-sanitised')).toContainText('unknown, not missing');
			const notes = page.getByTestId('import-notes');
			await expect(notes).toContainText('authorisation link');
			if (sanitised) await expect(notes).toContainText('the HAR was exported sanitised');
			else await expect(notes).not.toContainText('sanitised');

			const runPath = new URL(page.url()).pathname;
			const report = await (await request.get(`${runPath}/export/markdown`)).text();
			if (expected.first) expect(report).toContain(`(section`);
			expect(report.includes('Nothing: each request is consistent with the others.')).toBe(expected.first === null);
			expect(report.includes('Sanitised HAR:')).toBe(sanitised);
			const values = [...FIXTURE_SECRETS, ...FIXTURE_COOKIES].filter((value) => har.includes(value));
			if (!sanitised) expect(values.length).toBeGreaterThan(0); // the file does carry cookies and a password
			const texts = [await page.content(), report, await (await request.get(`${runPath}/export/har`)).text()];
			for (const text of texts) for (const value of values) expect(leaks(text, value, ['shop-client'])).toEqual([]);
		});
	}
}
