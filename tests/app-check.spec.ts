/**
 * The app check (docs/app-check.md) on real apps: the passport app written the way integrators write it
 * (tests/apps/passport-app, naive) and its corrected twin, each on a throwaway sandbox workspace of its own. The
 * driver is called directly, and the CLI once as a child process writing JUnit XML and Markdown; the live page's
 * route refuses an origin the operator did not allow.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { APP_CHECKS, type AppCheckId } from '../src/lib/features/app-check/pure/checks';
import type { AppCheckResult } from '../src/lib/features/app-check/pure/judge';
import { formatAppCheckMarkdown, formatJUnit } from '../src/lib/features/app-check/pure/report';
import { runAppCheck, type AppCheckOutcome } from '../src/lib/features/app-check/driver';
import { loadConfig } from '../src/lib/platform/config';
import { createSandboxWorkspace, startAppOnSandbox, type AppOnSandbox } from './apps/sandbox-client';
import { ACCOUNTS_HOST, AUTH_HOST, EXPLORER, PORT } from './security/support/ports';

test.describe.configure({ mode: 'serial' });

/** The explorer's rules as `npm start` on this machine reads them: bound to loopback, nothing listed. */
function localConfig() {
	const result = loadConfig({ PORT: String(PORT), AUTH_PORT: String(PORT + 1), ACCOUNTS_PORT: String(PORT + 2) });
	if (!result.ok) throw new Error(result.message);
	return result.config;
}

async function check(browser: Browser, started: AppOnSandbox): Promise<AppCheckOutcome> {
	return runAppCheck(
		{
			startUrl: `${started.app.url}/login`,
			click: null,
			authUrl: AUTH_HOST,
			accountsUrl: ACCOUNTS_HOST,
			workspaceKey: started.workspace.key,
			adminToken: null,
			checks: APP_CHECKS,
			config: localConfig()
		},
		browser
	);
}

const byId = (results: AppCheckResult[]) => Object.fromEntries(results.map((r) => [r.id, r])) as Record<AppCheckId, AppCheckResult>;

/** Everything that must never reach a report: the client secret, the workspace key, a sandbox credential (43 base64url characters), a code. */
function expectNoSecrets(text: string, started: AppOnSandbox): void {
	expect(text).not.toContain(started.client.clientSecret);
	expect(text).not.toContain(started.workspace.key);
	expect(text).not.toMatch(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048](?![A-Za-z0-9_-])/);
	expect(text).not.toMatch(/[?&]code=(?!••••••)/);
}

test('the naive passport app: the check finds its cancel loop and its 5xx with a stack trace on a reused code', async ({ browser }) => {
	test.setTimeout(240_000);
	const naive = await startAppOnSandbox({ variant: 'naive' });
	try {
		const outcome = await check(browser, naive);
		const results = byId(outcome.results);
		expect(outcome.info.clientId).toBe(naive.client.clientId);

		const cancel = results.cancel;
		expect(cancel.verdict).toBe('fail');
		expect(cancel.findings).toEqual(['the app sent the user straight back to the sign-in page without them asking (a loop)']);
		expect(cancel.evidence?.user.backToSignIn).toBe(true);
		expect(cancel.evidence?.server.signInVisits).toBe(2);
		expect(cancel.evidence?.server.exchanges).toEqual([]);
		expect(new URL(cancel.evidence!.user.callbackUrl!).searchParams.has('code')).toBe(false);

		const reused = results['code-reused'];
		expect(reused.verdict).toBe('fail');
		expect(reused.findings[0]).toMatch(/^the user's page shows a stack trace \("at .+:\d+:\d+\)?"\)$/);
		expect(reused.findings[1]).toBe('the user got a 500 server error');
		expect(reused.evidence?.user.final?.status).toBe(500);
		expect(reused.evidence?.server.exchanges).toEqual([
			{ status: 200, error: null },
			{ status: 400, error: 'invalid_grant' }
		]);

		// A normal sign-in works, and an empty verifications list is a normal page.
		expect(results.success.verdict).toBe('pass');
		expect(results.success.evidence?.server).toMatchObject({ exchanges: [{ status: 200, error: null }], meCalls: [200] });
		expect(results['no-active-verification'].verdict).toBe('pass');
		// The README's code has no error handling at all: every refusal of the service reaches Express's default
		// handler, a 500 with a stack trace; and it reads `supergroup` only, so the `group` key crashes its page.
		for (const id of ['code-expired', 'invalid-client', 'me-401', 'me-403', 'me-404', 'group-key'] as const) {
			expect(results[id].verdict, id).toBe('fail');
			expect(results[id].findings[0], id).toMatch(/^the user's page shows a stack trace \("at /);
			expect(results[id].evidence?.rule?.used, id).toBe(true);
		}
		expect(outcome.results.filter((r) => r.verdict === 'pass').map((r) => r.id)).toEqual(['success', 'no-active-verification']);

		// What reaches the live page and the reports (not `known`, the reporters' list of what to hide).
		expectNoSecrets(JSON.stringify({ results: outcome.results, info: outcome.info }), naive);
		expectNoSecrets(formatAppCheckMarkdown(outcome.results, outcome.info, outcome.known), naive);
		expectNoSecrets(formatJUnit(outcome.results, outcome.info, outcome.known), naive);
	} finally {
		await naive.close();
	}
});

test('the corrected passport app passes every check', async ({ browser }) => {
	test.setTimeout(240_000);
	const corrected = await startAppOnSandbox({ variant: 'corrected' });
	try {
		const outcome = await check(browser, corrected);
		expect(outcome.results.map((r) => [r.id, r.verdict, r.reason])).toEqual(APP_CHECKS.map((c) => [c.id, 'pass', expect.stringMatching(/^As a client should: /)]));
		const results = byId(outcome.results);
		expect(results.cancel.evidence?.user).toMatchObject({ backToSignIn: false, final: { status: 200, title: 'Sign-in cancelled' } });
		expect(results['code-reused'].evidence?.user.final?.status).toBe(400);
		expect(results['me-404'].evidence?.server.meCalls).toEqual([404]);
		expect(results['group-key'].evidence?.rule).toEqual({ outcome: 'me-group-key', used: true });
		expectNoSecrets(JSON.stringify({ results: outcome.results, info: outcome.info }), corrected);
	} finally {
		await corrected.close();
	}
});

async function listen(server: Server): Promise<number> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

test('an allowed app that redirects the browser to an origin the operator did not allow: refused, none of its content in any output', async ({ browser }) => {
	test.setTimeout(120_000);
	const INTERNAL = 'internal-metadata-c41d';
	let internalHits = 0;
	const internal = createServer((_req, res) => {
		internalHits++;
		res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${INTERNAL}</title><pre>${INTERNAL}\n    at secret (/srv/internal.js:1:1)</pre>`);
	});
	const internalPort = await listen(internal);
	const app = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/latest/meta-data` }).end());
	const appPort = await listen(app);
	const workspace = await createSandboxWorkspace();
	try {
		// A shared explorer listing the app's origin only (private addresses on, so the listed one is allowed).
		const shared = loadConfig({ PORT: String(PORT), AUTH_PORT: String(PORT + 1), ACCOUNTS_PORT: String(PORT + 2), HOST: '0.0.0.0', EXPLORER_ALLOWED_HOSTS: `127.0.0.1:${appPort}`, EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		if (!shared.ok) throw new Error(shared.message);
		const outcome = await runAppCheck(
			{ startUrl: `http://127.0.0.1:${appPort}/login`, click: null, authUrl: AUTH_HOST, accountsUrl: ACCOUNTS_HOST, workspaceKey: workspace.key, adminToken: null, checks: APP_CHECKS.slice(0, 1), config: shared.config, stepTimeoutMs: 5_000 },
			browser
		);
		const [result] = outcome.results;
		expect(result?.verdict).toBe('not-run');
		expect(result?.reason).toMatch(new RegExp(`Refused: http://127\\.0\\.0\\.1:${internalPort}: The app check does not drive http://127\\.0\\.0\\.1:${internalPort}: 127\\.0\\.0\\.1:${internalPort} is not an allowed target`));
		expect(internalHits).toBe(0);
		for (const text of [JSON.stringify({ results: outcome.results, info: outcome.info }), formatAppCheckMarkdown(outcome.results, outcome.info, outcome.known), formatJUnit(outcome.results, outcome.info, outcome.known)]) {
			expect(text).not.toContain(INTERNAL);
			expect(text).not.toContain('internal.js');
		}
	} finally {
		internal.close();
		app.close();
		await workspace.remove();
	}
});

function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			'npx',
			['tsx', 'scripts/app-check.ts', ...args],
			{ env: { ...process.env, AUTH_PORT: String(PORT + 1), ACCOUNTS_PORT: String(PORT + 2), ...env }, timeout: 180_000 },
			(error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
		);
	});
}

/** JUnit XML as a CI server reads it: parsed by the browser's XML parser. */
async function parseJUnit(page: Page, xml: string) {
	return page.evaluate((text) => {
		const doc = new DOMParser().parseFromString(text, 'application/xml');
		if (doc.querySelector('parsererror')) throw new Error('not well-formed XML');
		const suite = doc.querySelector('testsuite')!;
		return {
			tests: suite.getAttribute('tests'),
			failures: suite.getAttribute('failures'),
			cases: [...doc.querySelectorAll('testcase')].map((c) => ({
				name: c.getAttribute('name'),
				failure: c.querySelector('failure')?.getAttribute('message') ?? null,
				body: c.querySelector('failure')?.textContent ?? ''
			}))
		};
	}, xml);
}

test('the CLI writes a table, JUnit XML with the failures and a Markdown report with the evidence, and exits 1', async ({ page }) => {
	test.setTimeout(240_000);
	const naive = await startAppOnSandbox({ variant: 'naive' });
	const dir = await mkdtemp(join(tmpdir(), 'app-check-'));
	try {
		const junit = join(dir, 'app-check.xml');
		const report = join(dir, 'app-check.md');
		const run = await runCli(['--start-url', `${naive.app.url}/login`, '--only', 'success,cancel,code-reused', '--junit', junit, '--report', report], {
			SANDBOX_WORKSPACE_KEY: naive.workspace.key
		});
		expect(run.code, run.stderr).toBe(1);
		expect(run.stdout).toMatch(/^cancel\s+\| no exchange; no me\.json; back to the link ×1\s+\| 200 \/flow\/\S+, back at sign-in\s+\| FAIL$/m);
		expect(run.stdout).toMatch(/^code-reused\s+\| exchanged 200, 400 invalid_grant; me\.json 200\s+\| 500 \/auth\/callback, stack trace\s+\| FAIL$/m);
		expect(run.stdout).toContain('1 passed, 2 failed, 0 not run');

		const xml = await readFile(junit, 'utf8');
		const parsed = await parseJUnit(page, xml);
		expect(parsed).toMatchObject({ tests: '3', failures: '2' });
		expect(parsed.cases.map((c) => [c.name, c.failure === null])).toEqual([
			['success: Success', true],
			['cancel: Cancel', false],
			['code-reused: Callback reloaded (code reused)', false]
		]);
		expect(parsed.cases[1]!.failure).toMatch(/^The app sent the user straight back to the sign-in page without them asking \(a loop\)\./);
		expect(parsed.cases[2]!.body).toMatch(/^stack: at .+:\d+:\d+/m);

		const markdown = await readFile(report, 'utf8');
		expect(markdown).toContain('**1 passed, 2 failed, 0 not run** of 3 checks.');
		expect(markdown).toContain("- The browser arrived at the sandbox's sign-in link again after the redirect.");
		expect(markdown).toMatch(/```\nat .+:\d+:\d+/);
		for (const text of [run.stdout, run.stderr, xml, markdown]) expectNoSecrets(text, naive);
	} finally {
		await rm(dir, { recursive: true, force: true });
		await naive.close();
	}
});

test('an origin the operator did not allow is refused, by the CLI and the live page\'s route, with the rule', async ({ request }) => {
	const cli = await runCli(['--start-url', 'http://10.1.2.3/login']);
	expect(cli.code).toBe(2);
	expect(cli.stderr).toContain('The app check could not run: The app check does not drive http://10.1.2.3: 10.1.2.3 is not an allowed target.');

	const refused = await request.post(`${EXPLORER}/live/demo-client/app-check`, { data: { start_url: 'http://169.254.169.254/latest/meta-data' } });
	expect(refused.status()).toBe(400);
	expect((await refused.json()).message).toMatch(/^The app check does not drive http:\/\/169\.254\.169\.254: .*EXPLORER_ALLOWED_HOSTS/);

	const sandbox = await request.post(`${EXPLORER}/live/demo-client/app-check`, { data: { start_url: `${AUTH_HOST}/sso/student` } });
	expect(sandbox.status()).toBe(400);
	expect((await sandbox.json()).message).toMatch(/is the sandbox itself/);
});

test('the live page\'s route runs the check for a client of the session\'s workspace, streamed, with no secret', async ({ page, request }) => {
	test.setTimeout(120_000);
	const naive = await startAppOnSandbox({ variant: 'naive' });
	try {
		const path = `/live/${naive.client.clientId}/app-check`;
		const body = { start_url: `${naive.app.url}/login`, only: ['success', 'cancel'] };
		// Another session (in the default workspace) does not see the client at all.
		const stranger = await request.post(`${EXPLORER}${path}`, { data: body });
		expect(stranger.status()).toBe(404);
		expect((await stranger.json()).message).toBe(`No client \`${naive.client.clientId}\` in your sandbox workspace.`);

		await page.goto(`${EXPLORER}/workspaces/${naive.workspace.id}`);
		await page.getByLabel('Workspace key').fill(naive.workspace.key);
		await page.getByRole('button', { name: 'Join workspace' }).click();
		await expect(page.getByTestId('workspace-id')).toHaveText(naive.workspace.id);
		const answer = await page.evaluate(
			async ({ path, body }) => {
				const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
				return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
			},
			{ path, body }
		);
		expect(answer.status).toBe(200);
		expect(answer.type).toBe('application/x-ndjson; charset=utf-8');
		const lines = answer.text.trim().split('\n').map((line) => JSON.parse(line));
		expect(lines.map((l) => [l.type, l.result?.id ?? null, l.result?.verdict ?? null])).toEqual([
			['started', null, null],
			['result', 'success', 'pass'],
			['result', 'cancel', 'fail'],
			['done', null, null]
		]);
		expect(lines[2].result.findings).toEqual(['the app sent the user straight back to the sign-in page without them asking (a loop)']);
		expect(lines[3]).toMatchObject({ summary: '1 passed, 1 failed, 0 not run', passed: false, info: { clientId: naive.client.clientId } });
		expectNoSecrets(answer.text, naive);
	} finally {
		await naive.close();
	}
});
