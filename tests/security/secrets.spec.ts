/**
 * Secrets: a crawler in Chromium walks the flow with every transport and tamper, the lesson, every scenario, and
 * then every page it can reach by links (every saved run and its exports, reference, sandbox panel, scenarios), and
 * the sandbox's own pages. No client secret the sandbox holds (the demo client's, and those the scenarios
 * registered) is in any response the browser received, cookie, storage, built client file or export, but for the
 * demo client's public one on /reference and /check; tokens appear
 * only in the answer to an explicit Reveal (every token field of a walk answer is the mask). A second test runs its own explorer process and reads everything it
 * logged during a walk, the scenarios and the sandbox panel's forms.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { recordResponses, type Received } from './support/recorder';
import { addExchange } from './support/browser';
import { ExplorerSession, customTarget, sandboxCode } from './support/explorer';
import { ACCOUNTS_HOST, AUTH_HOST, DATA_DIR, DEMO_CLIENT_ID, DEMO_SECRET, EXPLORER, EXTRA_EXPLORER_PORTS, STUDENT } from './support/ports';
import { everySandboxClient, keepEveryClient, spawnExplorer } from './support/servers';
import { doLesson, open, signInAndDecide } from '../support/walk';
import { leakForms } from '../../src/lib/http/leak-forms';
import { SCENARIOS } from '../../src/lib/features/scenarios/pure/library';
import { AUTH_ICON_PATH } from '../../src/lib/sandbox/auth/styles';

/**
 * A secret as it could travel (leakForms: raw, URI- and form-encoded, JSON-escaped, in Basic credentials), and
 * alone in base64 or hex.
 */
function secretForms(clientId: string, secret: string): string[] {
	return [
		...leakForms(secret, [clientId]),
		Buffer.from(secret).toString('base64'),
		Buffer.from(secret).toString('base64url'),
		Buffer.from(secret).toString('hex')
	];
}

const SECRET_FORMS = secretForms(DEMO_CLIENT_ID, DEMO_SECRET);

/** Every client the sandbox of the server under test holds, with its secret. */

const where = (r: Received) => `${r.status} ${r.resourceType} ${r.url}`;
const containing = (received: Received[], needle: string) =>
	received.filter((r) => r.headers.includes(needle) || (r.body ?? '').includes(needle)).map(where);

async function storageOf(page: Page): Promise<string> {
	return page.evaluate(() => JSON.stringify([location.href, document.cookie, { ...localStorage }, { ...sessionStorage }]));
}

async function openAllDetails(page: Page) {
	await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
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

/** A masked token as src/lib/flow/mask.ts writes it: the mask, then maybe `…` and the last 4 characters. */
const MASKED_TOKEN = /^••••••(….{4})?$/u;

/** The `access_token` and `refresh_token` fields of every exchange body in a walk API answer (its whole view). */
function tokenFields(received: Received): string[] {
	type Exchanges = { exchanges?: { exchange: { response: { body: string } | null } }[] };
	const payload = JSON.parse(received.body ?? 'null') as { view?: Exchanges } | null;
	return (payload?.view?.exchanges ?? []).flatMap(({ exchange }) => {
		try {
			const body = JSON.parse(exchange.response?.body ?? '') as Record<string, unknown>;
			return [body.access_token, body.refresh_token].filter((v): v is string => typeof v === 'string');
		} catch {
			return [];
		}
	});
}

/** Same-origin links of the page, without fragments. */
async function linksOf(page: Page): Promise<string[]> {
	const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href));
	return [...new Set(hrefs.filter((h) => h.startsWith(EXPLORER)).map((h) => h.split('#')[0]!))];
}

test('a crawl of every page finds the client secret nowhere, and tokens only where revealed', async ({ page, context }) => {
	test.setTimeout(240_000);
	const log = await recordResponses(context, EXPLORER);
	const revealed: string[] = [];
	page.on('dialog', async (dialog) => {
		revealed.push(dialog.defaultValue());
		await dialog.dismiss();
	});
	const storages: string[] = [];

	// The walk, with the secret typed once into the form.
	await open(page, '/');
	await page.getByLabel('Client secret').fill(DEMO_SECRET);
	await page.getByRole('button', { name: 'Save client settings' }).click();
	await expect(page.getByTestId('secret-status')).toContainText('ends …me');
	await expect(page.getByLabel('Client secret')).toHaveValue('');
	await page.getByTestId('open-link').click();
	await signInAndDecide(page, STUDENT, 'authorise');
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
	await addExchange(page, 'token', () => page.getByTestId('exchange').click());
	const tamper = page.locator('details.tamper');
	await tamper.locator('summary').click();
	for (const transport of ['basic', 'bearer', 'form', 'query']) {
		await page.getByLabel('Send parameters').selectOption(transport);
		for (const button of ['Send again', 'Wrong secret', 'Change redirect_uri']) {
			await addExchange(page, 'token', () => tamper.getByRole('button', { name: button, exact: true }).click());
		}
	}
	await page.getByLabel('Drop', { exact: true }).selectOption('client_secret');
	await addExchange(page, 'token', () => tamper.getByRole('button', { name: 'Send without it' }).click());
	for (const [transport, credential, userAgent] of [
		['header', 'token', true],
		['query', 'token', true],
		['header', 'token', false],
		['header', 'code', true],
		['query', 'none', true]
	] as const) {
		await page.getByLabel('Send the token').selectOption(transport);
		await page.getByTestId('me-user-agent').setChecked(userAgent);
		await page.getByTestId('me-credential').selectOption(credential);
		await addExchange(page, 'me', () => page.getByTestId('read-me').click());
	}
	const firstToken = page.getByTestId('exchange-token').first();
	await firstToken.getByRole('button', { name: 'Reveal access token' }).click();
	await firstToken.getByRole('button', { name: 'Reveal refresh token' }).click();
	await expect.poll(() => revealed.length).toBe(2);
	await openAllDetails(page);
	storages.push(await storageOf(page));

	// The lesson, both trips.
	await doLesson(page);
	await expect(page.getByTestId('lesson-summary')).toBeVisible();
	storages.push(await storageOf(page));

	// Every scenario, run from its page (each registers clients of its own in a throwaway workspace, walks the
	// sandbox and saves a run). The workspaces go with their clients; the database keeps a copy of each client.
	keepEveryClient(DATA_DIR);
	await open(page, '/scenarios');
	// The page lists a few scenarios at a time: every one, so that the page holds every scenario's steps.
	while (await page.getByTestId('show-older').count()) await page.getByTestId('show-older').click();
	const total = await page.locator('[data-testid^="scenario-"][id]').count();
	expect(total).toBe(SCENARIOS.length);
	expect(total).toBeGreaterThan(0);
	await page.getByTestId('run-all').click();
	await expect(page.getByTestId('scenario-result')).toHaveCount(total, { timeout: 60_000 });
	await openAllDetails(page);
	storages.push(await storageOf(page));

	// Every page reachable by links from every page of the explorer (each saved run among them).
	const ROUTES = ['/', '/runs', '/reference', '/learn/cancel', '/sandbox', '/scenarios'];
	const queue = ROUTES.map((p) => `${EXPLORER}${p}`);
	const seen = new Set<string>();
	const exports = new Set<string>();
	const pages: string[] = [];
	while (queue.length > 0) {
		const url = queue.shift()!;
		if (seen.has(url)) continue;
		seen.add(url);
		const path = new URL(url).pathname;
		if (path.startsWith('/callback')) continue;
		if (/\/export\//.test(path)) {
			exports.add(url);
			continue;
		}
		const response = await page.goto(url);
		pages.push(`${response?.status() ?? 'no answer'} ${path}${new URL(url).search}`);
		// A live page opens its event stream once hydrated, which can be after the load event: the crawl waits for
		// it, so that the stream is among what the browser received before the crawl moves on.
		if (/^\/live\/[^/]+$/.test(path) && response?.ok()) await expect(page.getByTestId('live-status')).toHaveAttribute('data-connected', 'true');
		await openAllDetails(page);
		storages.push(await storageOf(page));
		queue.push(...(await linksOf(page)));
	}
	// The sandbox's own pages and JSON, as a browser could open them.
	for (const url of [`${AUTH_HOST}/health`, `${ACCOUNTS_HOST}/health`, `${ACCOUNTS_HOST}/sandbox/state`, `${ACCOUNTS_HOST}/sandbox/log?limit=500`]) {
		await page.goto(url);
		storages.push(await storageOf(page));
	}
	for (const route of ROUTES) expect(pages, `the crawl opened ${route}`).toContain(`200 ${route}`);
	expect(pages.filter((p) => !p.startsWith('200 ')), 'pages that did not answer 200').toEqual([]);
	const runPages = pages.filter((p) => /^200 \/runs\/[^/?]+$/.test(p)).length;
	expect(runPages, 'a run page for the walk, the lesson and each scenario').toBeGreaterThanOrEqual(total + 2);

	// A HAR export downloaded as a person would, and every export link the crawl found.
	await open(page, '/runs');
	await page.locator('[data-testid="run-list"] a').first().click();
	const download = page.waitForEvent('download');
	await page.getByTestId('export-har').click();
	const exported = [readFileSync(await (await download).path(), 'utf8')];
	expect(exports.size).toBeGreaterThan(0);
	for (const url of exports) exported.push(await (await page.request.get(url)).text());

	// A live page's event stream never ends, so the browser keeps no body of it: its opening is read here and
	// searched with the rest (the flows it pushes as requests arrive are searched by live.spec.ts).
	const received = await Promise.all(
		(await log.settle()).map(async (r) => (r.resourceType === 'eventsource' && r.body === null ? { ...r, body: await streamOpening(page, r.url) } : r))
	);
	expect(received.filter((r) => r.resourceType === 'eventsource' && r.body!.startsWith(': live flows')).length, 'live views the crawl read').toBeGreaterThan(0);
	expect(received.filter((r) => r.resourceType === 'document' && r.body !== null).length).toBeGreaterThan(10);
	expect(received.filter((r) => r.resourceType === 'script').length).toBeGreaterThan(3);
	// Only redirects have no body to search; and built files, whose bodies a quick navigation may drop, are
	// searched on disk below; the sandbox's icon is a constant of its source.
	const builtFile = (r: Received) =>
		r.url.startsWith(`${EXPLORER}/_app/immutable/`) || r.url === `${EXPLORER}/favicon.svg` || r.url === `${AUTH_HOST}${AUTH_ICON_PATH}`;
	expect(received.filter((r) => r.body === null && (r.status < 300 || r.status >= 400) && !builtFile(r)).map(where)).toEqual([]);
	const cookies = JSON.stringify(await context.cookies());
	const files = clientFiles(join(process.cwd(), 'build', 'client'));
	expect(files.length).toBeGreaterThan(3);
	const clients = everySandboxClient(DATA_DIR);
	expect(clients.filter((c) => c.clientId.startsWith('scenario-')).length, 'clients the scenarios registered').toBeGreaterThan(0);
	test.info().annotations.push({ type: 'crawl', description: `${pages.length} pages (${runPages} runs), ${received.length} responses, ${exported.length} exports, ${clients.length} client secrets` });

	// The demo client's secret is a public test value (issue 27, point 9): shown on /reference beside the scripts that
	// read it, and given to /check's in-browser check so it can name it in a link. Every other response stays free of it.
	const showsDemoSecret = (r: Received) => ['/reference', '/check'].includes(new URL(r.url).pathname.replace(/\/__data\.json$/, ''));
	for (const { clientId, secret } of clients) {
		const searched = secret === DEMO_SECRET ? received.filter((r) => !showsDemoSecret(r)) : received;
		for (const form of secretForms(clientId, secret)) expect(containing(searched, form), `responses carrying ${form}`).toEqual([]);
	}
	for (const form of clients.flatMap((c) => secretForms(c.clientId, c.secret))) {
		expect(storages.filter((s) => s.includes(form)), `storage carrying ${form}`).toEqual([]);
		expect(cookies).not.toContain(form);
		expect(exported.filter((e) => e.includes(form)).length, `exports carrying ${form}`).toBe(0);
		expect(files.filter((f) => f.text.includes(form)).map((f) => f.path), `client files carrying ${form}`).toEqual([]);
	}

	const [accessToken, refreshToken] = revealed;
	for (const token of [accessToken!, refreshToken!]) {
		expect(token.length).toBeGreaterThanOrEqual(22);
		expect(containing(received, token)).toEqual([`200 fetch ${EXPLORER}/api/walk/reveal`]);
		expect(storages.filter((s) => s.includes(token))).toEqual([]);
		expect(cookies).not.toContain(token);
		expect(exported.filter((e) => e.includes(token)).length).toBe(0);
	}
	// Everywhere but the reveal answers, each token field of a walk answer is the mask.
	const walkAnswers = received.filter((r) => r.url.startsWith(`${EXPLORER}/api/walk/`) && !r.url.endsWith('/reveal'));
	expect(walkAnswers.length).toBeGreaterThan(5);
	const fields = walkAnswers.flatMap(tokenFields);
	expect(fields.length).toBeGreaterThan(0);
	for (const field of fields) expect(field).toMatch(MASKED_TOKEN);
});

test("the explorer's server log holds no client secret and no token, whatever the walk did", async () => {
	test.setTimeout(60_000);
	const port = EXTRA_EXPLORER_PORTS.serverLog;
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-log-'));
	const server = spawnExplorer({
		port,
		dataDir,
		env: { EXPLORER_ALLOWED_HOSTS: '127.0.0.1:9,unreachable.invalid', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' }
	});
	try {
		await server.ready;
		const explorer = `http://localhost:${port}`;
		const accounts = `http://localhost:${port + 2}`;
		const session = await new ExplorerSession(explorer).open();
		const tokens: string[] = [];

		// The secret typed in, a walk with every transport and tamper, tokens revealed.
		const settings = {
			target: { kind: 'sandbox' },
			clientId: DEMO_CLIENT_ID,
			clientSecret: DEMO_SECRET,
			redirectUri: `${explorer}/callback`,
			supergroup: 'student',
			country: 'uk',
			responseType: 'code',
			extraLinkParams: []
		};
		expect((await session.walk('client', settings)).status).toBe(200);
		// A link that carries the secret's value is refused; the refusal must not log it.
		const leaky = `http://localhost:${port + 1}/sso/student?client_id=${DEMO_CLIENT_ID}&redirect_uri=${encodeURIComponent(`${explorer}/callback?s=${DEMO_SECRET}`)}`;
		expect((await session.walk('start', { link: leaky })).status).toBe(400);
		const code = await sandboxCode(accounts, `${explorer}/callback`);
		await session.callback(`code=${encodeURIComponent(code)}`);
		for (const transport of ['query', 'form', 'basic', 'bearer'])
			for (const tamper of [undefined, 'again', 'secret', 'redirect_uri', 'grant_type']) {
				expect((await session.walk('exchange', { transport, tamper })).status).toBe(200);
			}
		const view = (await session.walk('me', { credential: 'token', transport: 'query' })).body.view!;
		for (const credential of ['code', 'none']) await session.walk('me', { credential });
		for (const kind of ['access_token', 'refresh_token']) {
			const answer = await session.post<{ value: string }>('/api/walk/reveal', { exchangeId: view.exchanges[0]!.exchange.id, kind });
			expect(answer.status).toBe(200);
			tokens.push(answer.body.value);
		}
		// Refreshing with the revealed token straight at the sandbox, and a wrong secret there too.
		const refresh = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens[1]!, client_id: DEMO_CLIENT_ID, client_secret: DEMO_SECRET });
		const refreshed = (await (await fetch(`${accounts}/oauth/token?${refresh}`, { method: 'POST' })).json()) as { access_token?: string };
		if (refreshed.access_token) tokens.push(refreshed.access_token);
		await fetch(`${accounts}/oauth/token?grant_type=authorization_code&code=x&client_id=${DEMO_CLIENT_ID}&client_secret=${DEMO_SECRET}-wrong`, { method: 'POST' });

		// Bad input of every kind, with the secret in it.
		await session.request('/api/walk/client', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"clientSecret":"${DEMO_SECRET}"` });
		await session.walk('client', { ...settings, country: DEMO_SECRET.repeat(10) });
		await session.walk('client', customTarget(`http://${DEMO_SECRET}.example`, 'http://127.0.0.1:9', { clientSecret: DEMO_SECRET }));
		await session.walk('client', customTarget('http://127.0.0.1:9', 'http://unreachable.invalid', { clientSecret: DEMO_SECRET }));
		await session.callback('code=for-the-broken-target');
		await session.walk('exchange', { transport: 'basic' });
		await session.post('/api/import', { kind: 'har', text: `{"log":{"entries":[{"request":{"url":"http://x/?client_secret=${DEMO_SECRET}"}}]}}` });
		const fixture = readFileSync(join(process.cwd(), 'src', 'lib', 'features', 'runs', 'pure', 'har', 'fixtures', 'success.har.json'), 'utf8');
		const imported = await session.post<{ id: string }>('/api/import', { kind: 'har', text: fixture.replaceAll('shop-secret', DEMO_SECRET) });
		await session.request(`/runs/${imported.body.id}/export/har`).then((r) => r.text());
		await session.request(`/runs/${view.runId}/export/har`).then((r) => r.text());
		await session.request(`/runs/${view.runId}`).then((r) => r.text());
		await session.post('/api/lesson', { outcome: 'cancel' });

		// Every scenario (each registers clients with secrets of its own, in a throwaway workspace removed
		// afterwards, so the database keeps a copy of each), through the API its page uses.
		keepEveryClient(dataDir);
		const scenarioIds = SCENARIOS.map((s) => s.id);
		expect(scenarioIds.length).toBeGreaterThan(10);
		for (const id of scenarioIds) {
			const run = await session.request(`/api/scenarios/${id}`, { method: 'POST' });
			expect(run.status, id).toBe(200);
			await run.text();
		}
		// The sandbox panel's forms: a client created, then given a new secret, and a user with a password.
		const panelSecrets = ['panel-secret-first-0123', 'panel-secret-second-4567'];
		for (const secret of panelSecrets) {
			const form = new URLSearchParams({ client_id: 'panel-log-client', client_secret: secret, redirect_uris: `${explorer}/callback`, countries: 'uk', verification_key: 'supergroup' });
			const saved = await session.request('/sandbox?/saveClient', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: explorer }, body: form });
			expect(saved.status).toBe(200);
			expect(await saved.text()).toContain('panel-log-client');
		}
		const userForm = new URLSearchParams({ login: 'panel-log@example.com', password: 'panel-password-89ab' });
		const user = await session.request('/sandbox?/saveUser', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: explorer }, body: userForm });
		expect(await user.text()).toContain('created with sbid_number');
		// Stopped, so that everything it will ever log has been read.
		server.process.kill('SIGTERM');
		await server.exited;

		const output = server.output();
		expect(output).toContain('SSO Flow Explorer');
		const clients = everySandboxClient(dataDir);
		expect(clients.filter((c) => c.clientId.startsWith('scenario-')).length, 'clients the scenarios registered').toBeGreaterThan(0);
		expect(clients.map((c) => c.secret)).toEqual(expect.arrayContaining([panelSecrets[1]]));
		const secrets = [...clients.flatMap((c) => secretForms(c.clientId, c.secret)), ...SECRET_FORMS, ...panelSecrets, 'panel-password-89ab'];
		for (const form of secrets) expect(output, `the log carries ${form}`).not.toContain(form);
		for (const token of tokens) expect(output).not.toContain(token);
	} finally {
		server.process.kill('SIGTERM');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
});

test('a link with the real secret in client_secret is refused by the server, not stored in the walk and sent back', async () => {
	// The page blocks such a link itself; a script posting to /api/walk/start must be refused by the server too.
	const session = await new ExplorerSession(EXPLORER).open();
	await session.walk('reset');
	const link = `${AUTH_HOST}/sso/student?response_type=code&client_id=${DEMO_CLIENT_ID}&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk&client_secret=${DEMO_SECRET}`;
	const answer = await session.walk('start', { link });
	const page = await (await session.request('/__data.json')).text();
	expect(answer.text).not.toContain(DEMO_SECRET);
	expect(page).not.toContain(DEMO_SECRET);
	expect(answer.status).toBe(400);
});

/**
 * The first events a server-sent event stream sends (until it pauses for half a second), read with the page's
 * cookies but outside it: the crawl's recorder holds every fetch of the page until its body ends, and this one never does.
 */
async function streamOpening(page: Page, url: string): Promise<string> {
	const cookies = (await page.context().cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ');
	const aborter = new AbortController();
	const response = await fetch(url, { headers: { cookie: cookies, accept: 'text/event-stream' }, signal: aborter.signal });
	const reader = response.body!.getReader();
	const decoder = new TextDecoder();
	let text = '';
	for (;;) {
		const pause = new Promise<{ done: true; value?: undefined }>((resolve) => setTimeout(() => resolve({ done: true }), 500));
		const { done, value } = await Promise.race([reader.read(), pause]);
		if (done) break;
		text += decoder.decode(value, { stream: true });
	}
	aborter.abort();
	return text;
}
