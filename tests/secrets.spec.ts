/**
 * The client secret never reaches the browser, and tokens reach it only when the person presses Reveal. Every
 * response of a walk that uses each transport and tamper is searched, with the storage readable by script and the
 * built client files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { recordResponses, type Received } from './support/responses';
import { AUTH_HOST, DEMO_SECRET, authorise, callMe, exchange, open, signInAndDecide, tamper } from './support/walk';

/** Every way the secret could travel: as is, and inside a Basic credentials header. */
const SECRET_FORMS = [DEMO_SECRET, Buffer.from(`demo-client:${DEMO_SECRET}`).toString('base64')];
/** A masked token as src/lib/flow/mask.ts writes it: the mask, then maybe `…` and the last 4 characters. */
const MASKED_TOKEN = /^••••••(….{4})?$/u;

const where = (r: Received) => `${r.status} ${r.resourceType} ${r.url}`;

function containing(received: Received[], needle: string): string[] {
	return received.filter((r) => r.headers.includes(needle) || r.body.includes(needle)).map(where);
}

async function scriptStorage(page: Page): Promise<string> {
	return page.evaluate(() => JSON.stringify([document.cookie, { ...localStorage }, { ...sessionStorage }]));
}

function clientFiles(dir: string): { path: string; text: string }[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile())
		.map((entry) => {
			const path = join(entry.parentPath, entry.name);
			const raw = readFileSync(path);
			const bytes = path.endsWith('.gz') ? gunzipSync(raw) : path.endsWith('.br') ? brotliDecompressSync(raw) : raw;
			return { path, text: bytes.toString('latin1') };
		});
}

/** The `access_token` and `refresh_token` fields of every exchange body in a walk API answer (a step or a whole view). */
function tokenFields(received: Received): string[] {
	type Exchanges = { exchanges?: { exchange: { response: { body: string } | null } }[] };
	// A step answers what it changed (`step`); `view` is the whole view.
	const payload = JSON.parse(received.body) as { view?: Exchanges; step?: Exchanges } | null;
	return [...(payload?.view?.exchanges ?? []), ...(payload?.step?.exchanges ?? [])].flatMap(({ exchange }) => {
		try {
			const body = JSON.parse(exchange.response?.body ?? '') as Record<string, unknown>;
			return [body.access_token, body.refresh_token].filter((v): v is string => typeof v === 'string');
		} catch {
			return [];
		}
	});
}

test('the client secret and the tokens stay on the server', async ({ page, context }) => {
	const log = await recordResponses(context);
	const revealed: string[] = [];
	page.on('dialog', async (dialog) => {
		revealed.push(dialog.defaultValue());
		await dialog.dismiss();
	});

	// The person types the secret once: it goes to the server and must never come back.
	await open(page, '/');
	await page.getByLabel('Client secret').fill(DEMO_SECRET);
	await page.getByRole('button', { name: 'Save client settings' }).click();
	await expect(page.getByTestId('secret-status')).toContainText('ends …me');
	await expect(page.getByLabel('Client secret')).toHaveValue('');

	await authorise(page);
	await expect(await exchange(page)).toHaveAttribute('data-outcome', 'success');
	await page.getByLabel('Send parameters').selectOption('basic');
	await tamper(page, 'Send again');
	await page.getByLabel('Send parameters').selectOption('form');
	await tamper(page, 'Wrong secret');
	await callMe(page);
	await page.getByLabel('Send the token').selectOption('query');
	await callMe(page);
	await page.locator('summary', { hasText: 'Show the curl command' }).first().click();
	const firstToken = page.getByTestId('exchange-token').first();
	await firstToken.getByRole('button', { name: 'Reveal access token' }).click();
	await firstToken.getByRole('button', { name: 'Reveal refresh token' }).click();
	await expect.poll(() => revealed.length).toBe(2);
	const storageOnWalk = await scriptStorage(page);

	await open(page, '/reference');
	await open(page, '/learn/cancel');
	await page.getByTestId('lesson-cancel').click();
	await signInAndDecide(page, 'student@example.com', 'cancel');
	await page.getByTestId('lesson-authorise').click();
	await signInAndDecide(page, 'student@example.com', 'authorise');
	await expect(page.getByTestId('lesson-summary')).toBeVisible();
	const storageOnLesson = await scriptStorage(page);
	await page.goto(`${AUTH_HOST}/health`);
	const storageOnAuthHost = await scriptStorage(page);

	const { received, failures } = log;
	// The recording worked: every request answered, pages, scripts and walk answers all read.
	expect(failures).toEqual([]);
	expect(received.filter((r) => r.resourceType === 'document').length).toBeGreaterThan(5);
	expect(received.filter((r) => r.resourceType === 'script').length).toBeGreaterThan(3);
	const walkAnswers = received.filter((r) => r.url.includes('/api/walk/') && !r.url.endsWith('/reveal'));
	expect(walkAnswers.length).toBeGreaterThan(5);

	for (const form of SECRET_FORMS) {
		expect(containing(received, form), `responses carrying ${form}`).toEqual([]);
		for (const storage of [storageOnWalk, storageOnLesson, storageOnAuthHost]) expect(storage).not.toContain(form);
	}
	const cookies = await context.cookies();
	expect(cookies.filter((c) => SECRET_FORMS.some((f) => c.value.includes(f)))).toEqual([]);

	// Tokens: in the reveal answers only; everywhere else each token field is the mask.
	const [accessToken, refreshToken] = revealed;
	for (const token of [accessToken!, refreshToken!]) {
		expect(token.length).toBeGreaterThanOrEqual(16);
		expect(containing(received, token).every((w) => w.endsWith('/api/walk/reveal'))).toBe(true);
		expect(containing(received, token).length).toBe(1);
		for (const storage of [storageOnWalk, storageOnLesson, storageOnAuthHost]) expect(storage).not.toContain(token);
	}
	const fields = walkAnswers.flatMap(tokenFields);
	expect(fields.length).toBeGreaterThan(0);
	for (const field of fields) expect(field).toMatch(MASKED_TOKEN);
});

test('no built client file contains the client secret', () => {
	const files = clientFiles(join(process.cwd(), 'build', 'client'));
	expect(files.length).toBeGreaterThan(3);
	const leaking = files.filter((f) => SECRET_FORMS.some((form) => f.text.includes(form))).map((f) => f.path);
	expect(leaking).toEqual([]);
});
