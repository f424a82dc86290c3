/**
 * The explorer, built and started as `npm start` runs it (one process: explorer, sandbox hosts): full UI walks in
 * headless Chromium, the JavaScript each first page ships, and the cost of the explorer's walk route over calling
 * the sandbox directly.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildAuthorisationLink } from '$lib/flow/link/link';
import type { WalkView } from '$lib/flow/view';
import { findOnPath, requireChromium } from '$lib/chromium';
import type { Measurement } from './report';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Above the 4173-7000 the browser tests of a shared machine use. */
export const PORT = Number(process.env.BENCH_PORT ?? 7100);
export const EXPLORER = `http://localhost:${PORT}`;
const AUTH = `http://localhost:${PORT + 1}`;
const ACCOUNTS = `http://localhost:${PORT + 2}`;
const WALKS = Number(process.env.BENCH_WALKS ?? 5);
const ROUTES = ['/', '/reference', '/learn/cancel'];
/** Route overhead: measured over this many fresh walks of READS_PER_WALK me.json reads each, so no one walk grows long. */
const OVERHEAD_ROUNDS = 25;
/**
 * Batches of OVERHEAD_ROUNDS walks made first and set aside, as the load runs warm up (theirs is far longer: 2 s at
 * 50 connections). On fresh servers by hand, walks 1-25 measured 0.5-1.2 ms above walks 51-75, and the direct call,
 * served by the same process, sped up too (0.9 to 0.4-0.5 ms): likely V8 still optimising code that has run little.
 */
const OVERHEAD_WARMUP_BATCHES = 2;
export const OVERHEAD_WARMUP_WALKS = OVERHEAD_WARMUP_BATCHES * OVERHEAD_ROUNDS;
const READS_PER_WALK = 20;
/** One long walk shows how a walk's length affects the route's cost. */
const LONG_WALK_READS = 300;
const JS_BUDGET_KB = 120;

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/* ------------------------------------------------------------------ server */

/** Whether this run has built the explorer already: every part that starts it needs the build, once. */
let built = false;

export function buildExplorer(log: (line: string) => void): void {
	if (built) return;
	if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(join(ROOT, 'build', 'index.js'))) return log('using the existing build (BENCH_SKIP_BUILD=1)');
	log('building the explorer (npx vite build)…');
	const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('the explorer build failed; see above');
	built = true;
}

async function waitForHealth(server: ChildProcess): Promise<void> {
	const deadline = Date.now() + 120_000;
	while (Date.now() < deadline) {
		if (server.exitCode !== null) throw new Error(`the explorer exited (${server.exitCode}) before it answered /health`);
		try {
			if ((await fetch(`${EXPLORER}/health`)).ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`the explorer did not answer ${EXPLORER}/health within 2 minutes`);
}

/** BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops (to find what the hot path spends). */
const PROFILE_ARGS = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

export async function startExplorer(dataDir: string): Promise<ChildProcess> {
	const server = spawn('node', [...PROFILE_ARGS, 'scripts/start.js'], {
		cwd: ROOT,
		env: { ...process.env, PORT: String(PORT), AUTH_PORT: String(PORT + 1), ACCOUNTS_PORT: String(PORT + 2), DATA_DIR: dataDir, ORIGIN: EXPLORER },
		stdio: ['ignore', 'ignore', 'inherit']
	});
	await waitForHealth(server);
	return server;
}

export function stopExplorer(server: ChildProcess): Promise<void> {
	return new Promise((resolve) => {
		if (server.exitCode !== null) return resolve();
		server.once('exit', () => resolve());
		server.kill('SIGTERM');
	});
}

/* ------------------------------------------------------------------ the walk in Chromium */

async function walk(browser: Browser): Promise<number> {
	const context = await browser.newContext();
	const page = await context.newPage();
	try {
		const started = performance.now();
		await page.goto(`${EXPLORER}/`);
		await page.click('[data-testid=open-link]');
		await page.waitForURL((url) => url.origin === AUTH);
		await page.getByLabel('Email').fill('student@example.com');
		await page.getByLabel('Password').fill('password');
		await page.getByRole('button', { name: 'Sign in' }).click();
		await page.getByRole('button', { name: 'Authorise' }).click();
		await page.waitForURL((url) => url.origin === EXPLORER);
		await page.click('[data-testid=exchange]');
		await page.waitForSelector('[data-testid=exchange-token]');
		await page.click('[data-testid=read-me]');
		await page.waitForSelector('[data-testid=me-result]');
		return performance.now() - started;
	} catch (error) {
		throw new Error(`the walk stopped at ${page.url()}: ${(error as Error).message.split('\n')[0]}`);
	} finally {
		await context.close();
	}
}

/* ------------------------------------------------------------------ JavaScript shipped */

function gzippedBytes(urlPath: string): number {
	const file = join(ROOT, 'build', 'client', urlPath);
	// adapter-node serves the precompressed file it built; measure that when it exists.
	return existsSync(`${file}.gz`) ? readFileSync(`${file}.gz`).length : gzipSync(readFileSync(file)).length;
}

/** Every script a fresh load of the route requests from the explorer, gzipped, summed. */
async function shippedJs(browser: Browser, route: string): Promise<{ kb: number; files: number }> {
	const context = await browser.newContext();
	const page: Page = await context.newPage();
	const scripts = new Set<string>();
	page.on('request', (request) => {
		const url = new URL(request.url());
		if (request.resourceType() === 'script' && url.origin === EXPLORER) scripts.add(url.pathname);
	});
	await page.goto(`${EXPLORER}${route}`, { waitUntil: 'networkidle' });
	await context.close();
	const bytes = [...scripts].reduce((sum, path) => sum + gzippedBytes(path), 0);
	return { kb: bytes / 1024, files: scripts.size };
}

/* ------------------------------------------------------------------ route overhead */

class Session {
	private cookie = '';
	async post(path: string, body: unknown = {}): Promise<Response> {
		const res = await fetch(`${EXPLORER}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: this.cookie }, body: JSON.stringify(body), redirect: 'manual' });
		this.remember(res);
		return res;
	}
	async get(url: string): Promise<Response> {
		const res = await fetch(url, { headers: { cookie: this.cookie }, redirect: 'manual' });
		this.remember(res);
		return res;
	}
	private remember(res: Response): void {
		const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
		if (set.length > 0) this.cookie = set.join('; ');
	}
}

async function ok(res: Response, what: string): Promise<Response> {
	if (!res.ok && res.status !== 303) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
	return res;
}

/** A fresh walk through the explorer's own routes, up to an access token; returns the token for direct calls. */
async function walkToToken(session: Session): Promise<string> {
	const redirectUri = `${EXPLORER}/callback`;
	await ok(await session.post('/api/walk/reset'), 'reset');
	const link = buildAuthorisationLink({ authUrl: AUTH, supergroup: 'student', responseType: 'code', clientId: 'demo-client', redirectUri, country: 'uk' });
	await ok(await session.post('/api/walk/start', { link }), 'start');
	const authorised = await ok(
		await fetch(`${ACCOUNTS}/sandbox/authorize`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: redirectUri, country: 'uk', login: 'student@example.com', decision: 'authorize' })
		}),
		'sandbox authorize'
	);
	const { location } = (await authorised.json()) as { location: string };
	await ok(await session.get(location), 'callback');
	const exchanged = (await (await ok(await session.post('/api/walk/exchange'), 'exchange')).json()) as { view: WalkView };
	const exchangeId = exchanged.view.exchanges.at(-1)?.exchange.id;
	const revealed = await ok(await session.post('/api/walk/reveal', { exchangeId, kind: 'access_token' }), 'reveal');
	return ((await revealed.json()) as { value: string }).value;
}

async function timed(call: () => Promise<Response>, expectedStatus = 200): Promise<number> {
	const started = performance.now();
	const res = await call();
	await res.arrayBuffer();
	if (res.status !== expectedStatus) throw new Error(`a timed call answered ${res.status}, not ${expectedStatus}`);
	return performance.now() - started;
}

interface Samples {
	viaExplorer: number[];
	direct: number[];
	/** A POST through the same hooks and route that answers at once (reveal of an unknown exchange: 404). */
	floor: number[];
}

interface Overhead extends Samples {
	/** The same measurement in batches, made first and set aside (see OVERHEAD_WARMUP_BATCHES). */
	warmUp: Samples[];
	longWalkFirst: number;
	longWalkLast: number;
}

const readMe = (session: Session) => session.post('/api/walk/me', { transport: 'header', userAgent: true, host: true, credential: 'token' });
const answerAtOnce = (session: Session) => session.post('/api/walk/reveal', { exchangeId: 'none', kind: 'access_token' });

/**
 * Fresh walks of READS_PER_WALK me.json reads each: every read through the explorer is followed by a direct read
 * with the same token and by a request that answers at once (the floor).
 */
async function overheadRounds(session: Session, rounds: number): Promise<Samples> {
	const samples: Samples = { viaExplorer: [], direct: [], floor: [] };
	for (let round = 0; round < rounds; round++) {
		const token = await walkToToken(session);
		const directMe = () => fetch(`${ACCOUNTS}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'bench' } });
		// Interleaved, so drift in the machine's load affects both alike.
		for (let i = 0; i < READS_PER_WALK; i++) {
			samples.viaExplorer.push(await timed(() => readMe(session)));
			samples.direct.push(await timed(directMe));
			samples.floor.push(await timed(() => answerAtOnce(session), 404));
		}
	}
	return samples;
}

async function routeOverhead(): Promise<Overhead> {
	const session = new Session();
	const warmUp: Samples[] = [];
	for (let batch = 0; batch < OVERHEAD_WARMUP_BATCHES; batch++) warmUp.push(await overheadRounds(session, OVERHEAD_ROUNDS));
	const measured = await overheadRounds(session, OVERHEAD_ROUNDS);
	await walkToToken(session);
	const long: number[] = [];
	for (let i = 0; i < LONG_WALK_READS; i++) long.push(await timed(() => readMe(session)));
	return { ...measured, warmUp, longWalkFirst: median(long.slice(0, 20)), longWalkLast: median(long.slice(-20)) };
}

/** Median through the explorer minus median direct, in ms. */
const overheadOf = (samples: Samples) => median(samples.viaExplorer) - median(samples.direct);

/* ------------------------------------------------------------------ all of it */

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * The browsers a walk is timed in. Chromium's headless shell (Debian's `chromium-headless-shell`, the build
 * Playwright itself runs headless by default) when installed: the walk's target is read from it. Full Chromium in its
 * new headless mode runs the browser's own interface too; on this machine of two cores that took about a second of
 * CPU per walk in the browser's process and its interface's renderer, none of it the explorer's, so its walk is
 * reported beside the target, not held to it. Without the shell, full Chromium carries the target.
 */
function walkBrowsers(fullChromium: string): { name: string; path: string; target: boolean }[] {
	const full = { name: 'full Chromium (new headless)', path: fullChromium };
	const shell = findOnPath(['chromium-headless-shell']);
	return shell ? [{ name: "Chromium's headless shell", path: shell, target: true }, { ...full, target: false }] : [{ ...full, target: true }];
}

interface TimedWalks {
	browser: string;
	target: boolean;
	walks: number[];
	failures: string[];
}

/** One warm-up walk, then WALKS timed ones, in the browser at `path`; it is closed when this returns. */
async function timeWalks(path: string, log: (line: string) => void): Promise<{ walks: number[]; failures: string[] }> {
	const browser = await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
	try {
		const failures: string[] = [];
		/** A walk that fails is noted and tried once more, so one stall on a busy machine does not end the run. */
		const timedWalk = async () => {
			try {
				return await walk(browser);
			} catch (error) {
				failures.push((error as Error).message);
				log(`a walk failed, trying once more: ${(error as Error).message}`);
				return walk(browser);
			}
		};
		await timedWalk(); // warm-up: first compilation of the server's routes, Chromium's caches
		const walks: number[] = [];
		for (let i = 0; i < WALKS; i++) walks.push(await timedWalk());
		return { walks, failures };
	} finally {
		await browser.close();
	}
}

/** Walks in each of `walkBrowsers`, and the JavaScript each route ships. */
async function benchInBrowser(log: (line: string) => void) {
	const fullChromium = requireChromium();
	const timed: TimedWalks[] = [];
	for (const { name, path, target } of walkBrowsers(fullChromium)) {
		const { walks, failures } = await timeWalks(path, log);
		log(`walks in ${name} (ms): ${walks.map((w) => w.toFixed(0)).join(', ')}`);
		timed.push({ browser: name, target, walks, failures });
	}
	const browser = await chromium.launch({ executablePath: fullChromium, args: CHROMIUM_ARGS });
	try {
		const js: [string, { kb: number; files: number }][] = [];
		for (const route of ROUTES) js.push([route, await shippedJs(browser, route)]);
		for (const [route, { kb, files }] of js) log(`JS for ${route}: ${kb.toFixed(1)} KB gzipped in ${files} files`);
		return { timed, js };
	} finally {
		await browser.close();
	}
}

export async function benchExplorer(log: (line: string) => void): Promise<{ measurements: Measurement[]; notes: string[] }> {
	buildExplorer(log);
	const dataDir = mkdtempSync(join(tmpdir(), 'sso-bench-explorer-'));
	const server = await startExplorer(dataDir);
	try {
		const { timed, js } = await benchInBrowser(log);
		// Measured with Chromium closed: on a machine of two cores, its processes would compete with the server.
		const overhead = await routeOverhead();
		const viaMedian = median(overhead.viaExplorer);
		const directMedian = median(overhead.direct);
		const floorMedian = median(overhead.floor);
		log(`me.json via POST /api/walk/me: median ${viaMedian.toFixed(2)} ms; direct: median ${directMedian.toFixed(2)} ms; a route answering at once: ${floorMedian.toFixed(2)} ms`);
		const batches = overhead.warmUp.map((samples, i) => ({
			walks: `${i * OVERHEAD_ROUNDS + 1}-${(i + 1) * OVERHEAD_ROUNDS}`,
			via: median(samples.viaExplorer),
			direct: median(samples.direct),
			overhead: overheadOf(samples)
		}));
		for (const b of batches) log(`warm-up walks ${b.walks} (set aside): via ${b.via.toFixed(2)} ms, direct ${b.direct.toFixed(2)} ms, overhead ${b.overhead.toFixed(2)} ms`);
		log(`one walk of ${LONG_WALK_READS} reads: median of the first 20 ${overhead.longWalkFirst.toFixed(2)} ms, of the last 20 ${overhead.longWalkLast.toFixed(2)} ms`);

		return {
			measurements: [
				...timed.map(({ browser, target, walks }) => ({
					metric: `full UI walk in ${browser}, median of ${WALKS}`,
					measured: `${median(walks).toFixed(0)} ms`,
					target: target ? '< 1500 ms' : '(reported)',
					pass: target ? median(walks) < 1500 : null
				})),
				...js.map(([route, { kb, files }]) => ({
					metric: `JS shipped for ${route} (gzipped)`,
					measured: `${kb.toFixed(1)} KB (${files} files)`,
					target: `< ${JS_BUDGET_KB} KB`,
					pass: kb < JS_BUDGET_KB
				})),
				{
					metric: 'explorer route overhead over direct me.json, median',
					measured: `${overheadOf(overhead).toFixed(2)} ms (${viaMedian.toFixed(2)} vs ${directMedian.toFixed(2)})`,
					target: '< 2 ms',
					pass: overheadOf(overhead) < 2
				},
				{
					metric: `same, walks ${batches.map((b) => b.walks).join(' and ')}, the warm-up set aside before it`,
					measured: batches.map((b) => `${b.overhead.toFixed(2)} ms`).join(', '),
					target: '(reported)',
					pass: null
				},
				{
					metric: `same, read #${LONG_WALK_READS - 19}-${LONG_WALK_READS} of one long walk`,
					measured: `${(overhead.longWalkLast - directMedian).toFixed(2)} ms (first 20: ${(overhead.longWalkFirst - directMedian).toFixed(2)} ms)`,
					target: '(reported)',
					pass: null
				},
				{
					metric: 'floor: POST to a walk route that answers at once (404), median',
					measured: `${floorMedian.toFixed(2)} ms`,
					target: '(reported)',
					pass: null
				}
			],
			notes: [
				...timed.map(({ browser, walks }) => `Walk times in ${browser} (ms), after one warm-up walk: ${walks.map((w) => w.toFixed(0)).join(', ')}.`),
				...timed.flatMap(({ browser, failures }) => failures.map((f) => `A walk in ${browser} failed and was retried: ${f}`)),
				`Route overhead: ${OVERHEAD_ROUNDS} fresh walks × ${READS_PER_WALK} reads, each POST /api/walk/me followed by a direct GET me.json with the same token and by a POST /api/walk/reveal for an unknown exchange, which passes the same hooks (CSRF check, session) and answers a 404 at once: the cost of one request through SvelteKit, before the route does anything (${overhead.viaExplorer.length} samples each). Before them, ${OVERHEAD_WARMUP_WALKS} walks made the same way, right after the browser walks, are set aside as the load benchmark's warm-up is, their figures reported by ${OVERHEAD_ROUNDS}: the first walks on a fresh server run slower, and so does the direct call the same process serves (likely V8 still optimising code that has run little). Chromium is closed by then. On this machine the figure moves by up to a third from one run to the next.`
			]
		};
	} finally {
		await stopExplorer(server);
		rmSync(dataDir, { recursive: true, force: true });
	}
}
