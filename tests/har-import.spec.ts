/**
 * Issue 17, real sizes: a HAR as browsers save it (the page's whole traffic, with content, here 100 MB of 2,000
 * entries) imports through the runs page's file input, with its upload's progress shown; the run holds the flow's
 * requests and no secret or cookie value of the file. Bodies over a route's limit get a 413 that says the limit
 * in MB, on every route, never a parser's message.
 */
import { expect, test } from '@playwright/test';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PADDING_COOKIE, writeLargeHar } from '../src/lib/features/runs/testing/large-har';
import { FIXTURE_COOKIES, FIXTURE_SECRETS } from '../src/lib/features/runs/pure/test-helpers';
import { leaks } from '../src/lib/http/leak-forms';
import { EXPLORER, open } from './support/walk';

const MB = 1024 * 1024;
let dir: string;

test.beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'har-import-'));
});
test.afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

test('a 100 MB browser HAR uploads with its progress shown, and the run holds the flow without a secret', async ({ page, request }) => {
	test.setTimeout(120_000);
	const path = join(dir, 'customer.har');
	const size = await writeLargeHar(path, { bytes: 100 * MB, entries: 2000 });
	expect(size).toBeGreaterThan(100 * MB);

	await open(page, '/runs');
	await page.getByTestId('import-file').setInputFiles(path);
	await page.getByRole('button', { name: 'Import customer.har' }).click();
	const progress = page.getByTestId('import-progress');
	await expect(progress.getByRole('progressbar', { name: 'Upload of customer.har' })).toBeVisible();
	await page.waitForURL(/\/runs\/[\w-]+\?/, { timeout: 60_000 });
	const notes = page.getByTestId('import-notes');
	await expect(notes).toContainText('ignored 1996 unrelated requests');
	await expect(notes).toContainText('the redirect back carries a code');
	await expect(page.getByRole('region', { name: 'Authorisation link' })).toContainText('https://auth.example.com/sso/student?');
	await expect(page.getByRole('region', { name: 'Redirect' })).toBeVisible();
	for (const step of ['token', 'me']) await expect(page.getByTestId(`exchange-${step}`)).toHaveCount(1);

	const fixture = await readFile('src/lib/features/runs/pure/har/fixtures/chrome-unrelated.har.json', 'utf8');
	const values = [...FIXTURE_SECRETS, ...FIXTURE_COOKIES, PADDING_COOKIE].filter((value) => fixture.includes(value) || value === PADDING_COOKIE);
	expect(values.length).toBeGreaterThan(4); // the file does carry secrets and cookies
	const runPath = new URL(page.url()).pathname;
	const texts = [await page.content()];
	for (const format of ['har', 'markdown', 'shell']) texts.push(await (await request.get(`${runPath}/export/${format}`)).text());
	for (const text of texts) for (const value of values) expect(leaks(text, value, ['shop-client'])).toEqual([]);
});

test('a file over 250 MB is refused by the page before it uploads, in MB, saying what to do', async ({ page }) => {
	const path = join(dir, 'huge.har');
	await writeFile(path, '');
	await truncate(path, 251 * MB); // sparse: no disk written
	await open(page, '/runs');
	await page.getByTestId('import-file').setInputFiles(path);
	await expect(page.getByTestId('import-message')).toHaveText(/^The file is 251 MB; at most 250 MB can be imported\. Record a shorter HAR/);
	await expect(page.getByTestId('import-progress')).toHaveCount(0);
});

test('scripts import a HAR file as the body of POST /api/import?kind=har', async ({ request }) => {
	const har = await readFile('src/lib/features/runs/pure/har/fixtures/success.har.json');
	const answer = await request.post('/api/import?kind=har', { data: har, headers: { 'content-type': 'application/octet-stream' } });
	expect(answer.status(), await answer.text()).toBe(200);
	const { id, found } = (await answer.json()) as { id: string; found: string[] };
	expect(found).toContain('found the token exchange');
	expect((await request.get(`/runs/${id}`)).status()).toBe(200);
	const wrong = await request.post('/api/import?kind=zip', { data: har });
	expect(wrong.status()).toBe(400);
	expect((await wrong.json()).message).toMatch(/Unknown kind "zip"/);
});

/** A raw request: a declared length, or a chunked body, as a script could send. */
function post(path: string, headers: Record<string, string>, body: Buffer | null): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(new URL(path, EXPLORER), { method: 'POST', agent: false, headers: { origin: EXPLORER, ...headers } }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				req.destroy();
				resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
			});
		});
		req.on('error', reject);
		if (body === null) return void req.flushHeaders(); // a declared length the body never comes to: answered at once
		for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
		req.end();
	});
}

test('every route answers a body over its limit with a 413 in MB, never a parser message', async () => {
	const json = { 'content-type': 'application/json' };
	const cases = [
		{ path: '/api/walk/client', headers: { ...json, 'content-length': String(2 * MB) }, body: null, limit: '1 MB' },
		{ path: '/api/lesson', headers: { ...json, 'transfer-encoding': 'chunked' }, body: Buffer.alloc(2 * MB, 0x20), limit: '1 MB' },
		{ path: '/sandbox', headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' }, body: Buffer.alloc(2 * MB, 0x61), limit: '1 MB' },
		{ path: '/api/import', headers: { ...json, 'transfer-encoding': 'chunked' }, body: Buffer.alloc(11 * MB, 0x20), limit: '10 MB' },
		{ path: '/api/import', headers: { ...json, 'content-length': String(11 * MB) }, body: Buffer.alloc(11 * MB, 0x20), limit: '10 MB' },
		{ path: '/api/import?kind=har', headers: { 'content-type': 'application/octet-stream', 'content-length': String(300 * MB) }, body: null, limit: '250 MB can be imported' }
	];
	for (const { path, headers, body, limit } of cases) {
		const answer = await post(path, headers, body);
		expect(answer.status, `${path}: ${answer.text}`).toBe(413);
		expect(JSON.parse(answer.text).message, path).toContain(`at most ${limit}`);
		expect(answer.text).not.toMatch(/undefined/);
	}
});
