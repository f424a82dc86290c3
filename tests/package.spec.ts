/**
 * The package as an integrator gets it: packed, installed into an empty folder from the tarball, started with
 * `npx sso-flow-explorer` and walked through a sign-in; its embedded sandbox running the example suite
 * (examples/embedded-sandbox) with its types; and the CI recipe's script (docs/ci.md, examples/ci/app-check.sh)
 * checking an app. No browser page here: the app check launches its own Chromium.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { OUTCOME_IDS } from '../src/lib/protocol';
import { startPassportApp, type PassportApp } from './apps/passport-app';
import { EXTRA_EXPLORER_PORTS } from './security/support/ports';

test.describe.configure({ mode: 'serial' });

const ROOT = process.cwd();
const run = promisify(execFile);
let dir = '';
/** The integrator's project: the example suite's files, the package installed from the tarball. */
let project = '';

interface Ran {
	code: number;
	stdout: string;
	stderr: string;
}

async function sh(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): Promise<Ran> {
	try {
		const { stdout, stderr } = await run(command, args, { ...options, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024, timeout: options.timeout ?? 300_000 });
		return { code: 0, stdout, stderr };
	} catch (error) {
		const e = error as { code?: number; stdout?: string; stderr?: string; message: string };
		return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
	}
}

async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
	const ran = await sh(command, args, { cwd, ...(env ? { env } : {}) });
	expect(ran.code, `${command} ${args.join(' ')}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
	return ran.stdout;
}

test.beforeAll(async () => {
	test.setTimeout(600_000);
	// `npm test` has just built the explorer; prepack would build it again. The rest of prepack (the bundle) runs here.
	expect(existsSync(join(ROOT, 'build', 'handler.js')), 'No build: run `npm run build` first.').toBe(true);
	dir = mkdtempSync(join(tmpdir(), 'sso-package-'));
	await ok('node', ['scripts/bundle.js'], ROOT);
	await ok('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], ROOT);
	const tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!);

	project = join(dir, 'project');
	mkdirSync(project);
	for (const file of ['package.json', 'tsconfig.json', 'app.ts', 'callback.test.ts']) cpSync(join(ROOT, 'examples/embedded-sandbox', file), join(project, file));
	// From npm's cache (the registry only for what it lacks). better-sqlite3's install script would compile SQLite
	// for minutes: the project's own version is installed without it, and the binary this clone built serves.
	const version = (JSON.parse(readFileSync(join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string }).version;
	await ok('npm', ['install', tarball, `better-sqlite3@${version}`, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
	const binary = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
	mkdirSync(join(project, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
	cpSync(join(ROOT, binary), join(project, binary));
});

test.afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the tarball holds the built explorer, the bundled tools and the sandbox with its types, and no sources', async () => {
	const files = (await ok('tar', ['tzf', readdirSync(dir).map((n) => join(dir, n)).find((p) => p.endsWith('.tgz'))!], dir)).split('\n');
	for (const file of ['bin/sso-flow-explorer.js', 'build/handler.js', 'scripts/serve.js', 'dist/app-check.js', 'dist/scenarios.js', 'dist/sandbox.js', 'dist/sandbox.d.ts']) {
		expect(files).toContain(`package/${file}`);
	}
	expect(files.filter((f) => f.startsWith('package/src/') || f.startsWith('package/tests/') || f.startsWith('package/node_modules/'))).toEqual([]);
});

/** Starts `npx sso-flow-explorer …` in the project and waits for its banner's last URL. */
async function startPackaged(args: string[]): Promise<{ child: ChildProcess; banner: string }> {
	// Its own process group: npx runs the server as its child, and stopping npx alone would leave the server up.
	const child = spawn('npx', ['sso-flow-explorer', ...args], { cwd: project, env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	const banner = await new Promise<string>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`No banner within 60 s:\n${output}`)), 60_000);
		const read = (chunk: Buffer) => {
			output += chunk.toString();
			if (/Listening on /.test(output)) {
				clearTimeout(timer);
				resolve(output);
			}
		};
		child.stdout!.on('data', read);
		child.stderr!.on('data', read);
		child.once('exit', (code) => reject(new Error(`Exited ${code} before listening:\n${output}`)));
	});
	return { child, banner };
}

async function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	process.kill(-child.pid!, 'SIGTERM');
	await exited;
}

test('npx sso-flow-explorer: --help, a bad option, then the explorer and both sandbox hosts, walked through a sign-in', async () => {
	test.setTimeout(180_000);
	const help = await sh('npx', ['sso-flow-explorer', '--help'], { cwd: project });
	expect(help.code).toBe(0);
	for (const option of ['--port', '--host', '--data-dir', 'app-check', 'scenarios']) expect(help.stdout).toContain(option);
	const bad = await sh('npx', ['sso-flow-explorer', '--port', 'none'], { cwd: project });
	expect(bad.code).toBe(2);
	expect(bad.stderr).toContain('--port must be a port number');
	expect((await sh('npx', ['sso-flow-explorer', 'scenarios', '--help'], { cwd: project })).code).toBe(0);

	const port = EXTRA_EXPLORER_PORTS.packaged;
	const { child, banner } = await startPackaged(['--port', String(port), '--data-dir', join(dir, 'data')]);
	try {
		const url = (label: string) => banner.match(new RegExp(`${label}\\s+(http://\\S+)`))?.[1];
		const explorer = url('Explorer');
		const auth = url('Sandbox authorisation');
		const accounts = url('Sandbox accounts');
		// The URLs the walk and its links use: one name for all three, so cookies and links agree with the banner.
		expect([explorer, auth, accounts]).toEqual([`http://localhost:${port}`, `http://localhost:${port + 1}`, `http://localhost:${port + 2}`]);
		expect(existsSync(join(dir, 'data', 'sandbox.db'))).toBe(true);
		expect((await fetch(`${explorer}/`)).status).toBe(200);

		// The demo client's sign-in, headless: the link's page, the user's decision, the exchange, me.json.
		const redirectUri = `${explorer}/callback`;
		const link = { response_type: 'code', client_id: 'demo-client', redirect_uri: redirectUri, country: 'uk' };
		const linked = await fetch(`${auth}/sso/student?${new URLSearchParams(link)}`, { redirect: 'manual' });
		expect(linked.status).toBe(303);
		const cookie = linked.headers.get('set-cookie')!.split(';')[0]!;
		const page = await fetch(new URL(linked.headers.get('location')!, auth), { headers: { cookie } });
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('<form');
		const decided = await fetch(`${accounts}/sandbox/authorize`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...link, supergroup: 'student', login: 'student@example.com', decision: 'authorize' })
		});
		const code = new URL(((await decided.json()) as { location: string }).location).searchParams.get('code')!;
		const exchange = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'demo-client', client_secret: 'demo-secret-change-me' };
		const token = await fetch(`${accounts}/oauth/token?${new URLSearchParams(exchange)}`, { method: 'POST' });
		expect(token.status).toBe(200);
		const { access_token } = (await token.json()) as { access_token: string };
		const me = await fetch(`${accounts}/api/v3/me.json`, { headers: { authorization: `Bearer ${access_token}` } });
		expect(me.status).toBe(200);
		expect(await me.json()).toMatchObject({ sbid_number: 'STU0001', verifications: [{ supergroup: 'student' }] });
	} finally {
		await stop(child);
	}
});

test('the embedded sandbox runs the example suite, one test per outcome rule, with the types it ships', async () => {
	test.setTimeout(180_000);
	const suite = await ok('npx', ['vitest', 'run', '--reporter', 'verbose'], project); // exits 0: every test passed
	for (const rule of OUTCOME_IDS) expect(suite).toContain(`answers ${rule} with`);
	await ok('npx', ['tsc', '--noEmit'], project);
});

test("the CI recipe's script checks an app against the packaged sandbox: JUnit XML and the Markdown report", async () => {
	test.setTimeout(300_000);
	const script = readFileSync(join(ROOT, 'examples/ci/app-check.sh'), 'utf8');
	expect(readFileSync(join(ROOT, 'docs/ci.md'), 'utf8'), 'docs/ci.md must include examples/ci/app-check.sh as it is').toContain(script);

	const port = EXTRA_EXPLORER_PORTS.ciRecipe;
	const client = { clientId: 'ci-recipe-app', clientSecret: 'ci-recipe-secret-not-real' };
	const app: PassportApp = await startPassportApp({ variant: 'corrected', authHost: `http://localhost:${port + 1}`, accountsHost: `http://localhost:${port + 2}`, ...client });
	const reports = join(dir, 'app-check-report');
	try {
		const ran = await sh('bash', [join(ROOT, 'examples/ci/app-check.sh')], {
			cwd: project,
			env: {
				...process.env,
				APP_START_URL: `${app.url}/login`,
				APP_CLIENT_ID: client.clientId,
				APP_CLIENT_SECRET: client.clientSecret,
				APP_REDIRECT_URI: app.callbackUrl,
				SANDBOX_PORT: String(port),
				REPORT_DIR: reports
			}
		});
		expect(ran.code, `${ran.stdout}\n${ran.stderr}\n${existsSync(join(reports, 'sandbox.log')) ? readFileSync(join(reports, 'sandbox.log'), 'utf8') : ''}`).toBe(0);
	} finally {
		await app.close();
	}
	const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
	expect(junit).toMatch(/<testsuite [^>]*failures="0"/);
	expect(junit.match(/<testcase /g)?.length).toBeGreaterThan(3);
	const report = readFileSync(join(reports, 'report.md'), 'utf8');
	expect(report.length).toBeGreaterThan(200);
	for (const text of [junit, report]) expect(text).not.toContain(client.clientSecret);
	// The script stopped the sandbox it started.
	await expect(fetch(`http://localhost:${port}/health`)).rejects.toThrow();
});
