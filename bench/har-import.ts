/**
 * A customer's HAR as browsers save it: 100 MB of 2,000 entries (scripts and images with their bodies, the flow
 * among them; src/lib/features/runs/testing/large-har.ts), written to the OS's temporary directory, then imported by the built
 * explorer as scripts do, `POST /api/import?kind=har` with the file streamed as the body. Measures the time to the
 * answer and the explorer process's resident memory (VmRSS, sampled every 20 ms) above what it held before. Then a
 * HAR of 300 sign-ins, each with a code, tokens and a client secret of its own and a 40 KB page (a support engineer's
 * day against one app). During every import, the sandbox's accounts host is asked for /health every 20 ms: the
 * longest wait is how long the import held the process's other listeners.
 */
import type { ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLargeHar } from '../src/lib/features/runs/testing/large-har';
import { buildExplorer, EXPLORER, PORT, startExplorer, stopExplorer } from './explorer';
import type { Measurement } from './report';

const MB = 1024 * 1024;
const HAR_BYTES = 100 * MB;
const HAR_ENTRIES = 2000;
const ROUNDS = Number(process.env.BENCH_HAR_ROUNDS ?? 3);
const TIME_TARGET_MS = 5000;
const MEMORY_TARGET_MB = 100;
const SIGN_INS = 300;
/** How long an import may hold the process's other listeners. */
const STALL_TARGET_MS = 200;
const SANDBOX_HEALTH = `http://127.0.0.1:${PORT + 2}/health`;

/** A HAR of `count` sign-ins of one app: each arrival's page (40 KB) and its token exchange, with values of its own. */
function manySignInsHar(count: number): string {
	const page = `<!doctype html><html><body>${'<div class="row"><span>lorem ipsum dolor sit amet</span></div>\n'.repeat(640)}</body></html>`;
	const headers = (fields: Record<string, string>) => Object.entries(fields).map(([name, value]) => ({ name, value }));
	const entry = (i: number, request: object, status: number, mimeType: string, text: string) => ({
		startedDateTime: new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString(),
		time: 10,
		cache: {},
		timings: { send: 0, wait: 10, receive: 0 },
		request: { httpVersion: 'HTTP/1.1', cookies: [], headersSize: -1, queryString: [], headers: [], bodySize: 0, ...request },
		response: { status, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: headers({ 'content-type': mimeType }), cookies: [], content: { size: text.length, mimeType, text }, redirectURL: '', headersSize: -1, bodySize: text.length }
	});
	const entries = Array.from({ length: count }, (_, i) => {
		const own = (name: string) => `${name}${i.toString(36).padStart(4, '0')}`.padEnd(32, 'x');
		const form = `grant_type=authorization_code&code=${own('code')}&redirect_uri=https%3A%2F%2Fshop.example%2Fcallback&client_id=shop&client_secret=${own('secret')}`;
		return [
			entry(i, { method: 'GET', url: `https://shop.example/callback?code=${own('code')}` }, 200, 'text/html', page),
			entry(
				i,
				{ method: 'POST', url: 'https://accounts.example/oauth/token', headers: headers({ 'content-type': 'application/x-www-form-urlencoded' }), bodySize: form.length, postData: { mimeType: 'application/x-www-form-urlencoded', text: form } },
				200,
				'application/json',
				JSON.stringify({ access_token: own('access'), token_type: 'Bearer', refresh_token: own('refresh'), expires_in: 7200 })
			)
		];
	});
	return JSON.stringify({ log: { version: '1.2', creator: { name: 'bench', version: '1' }, entries: entries.flat() } });
}

/** Asks the sandbox for /health every 20 ms until stopped; answers the longest wait for an answer. */
function stallWatch(): { stop(): Promise<number> } {
	let worst = 0;
	let running = true;
	const loop = (async () => {
		while (running) {
			const started = performance.now();
			await fetch(SANDBOX_HEALTH).then((r) => r.arrayBuffer());
			worst = Math.max(worst, performance.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	})();
	return {
		async stop() {
			running = false;
			await loop;
			return worst;
		}
	};
}

function residentBytes(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
	if (!line) throw new Error(`no VmRSS for process ${pid}`);
	return Number(line[1]) * 1024;
}

/** Streams the file as the body of the import; answers the status and the time to the whole answer. */
function importFile(path: string, size: number): Promise<{ status: number; ms: number; body: string }> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const req = request(`${EXPLORER}/api/import?kind=har`, {
			method: 'POST',
			agent: false,
			headers: { 'content-type': 'application/octet-stream', 'content-length': String(size), origin: EXPLORER }
		});
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString() }));
		});
		req.on('error', reject);
		createReadStream(path).pipe(req);
	});
}

/** The import, with the server's peak resident memory while it ran. */
async function measuredImport(server: ChildProcess, path: string, size: number) {
	const pid = server.pid!;
	let peak = residentBytes(pid);
	const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
	const stalls = stallWatch();
	try {
		const answer = await importFile(path, size);
		if (answer.status !== 200) throw new Error(`the import answered ${answer.status}: ${answer.body.slice(0, 300)}`);
		return { ms: answer.ms, peak: Math.max(peak, residentBytes(pid)), found: (JSON.parse(answer.body) as { found: string[] }).found, stall: await stalls.stop() };
	} finally {
		clearInterval(sampler);
		await stalls.stop();
	}
}

export async function benchHarImport(log: (line: string) => void): Promise<{ measurements: Measurement[]; notes: string[] }> {
	buildExplorer(log);
	const dir = mkdtempSync(join(tmpdir(), 'sso-bench-har-'));
	const path = join(dir, 'customer.har');
	const size = await writeLargeHar(path, { bytes: HAR_BYTES, entries: HAR_ENTRIES });
	log(`wrote a HAR of ${(size / MB).toFixed(1)} MB, ${HAR_ENTRIES} entries, to ${path}`);
	const server = await startExplorer(join(dir, 'data'));
	try {
		// One small import first, so the route's code is loaded and compiled before the clock runs.
		const fixture = new URL('../src/lib/features/runs/pure/har/fixtures/success.har.json', import.meta.url);
		const warm = await importFile(fixture.pathname, readFileSync(fixture).byteLength);
		if (warm.status !== 200) throw new Error(`the warm-up import answered ${warm.status}: ${warm.body}`);
		const before = residentBytes(server.pid!);
		const rounds = [];
		for (let i = 0; i < ROUNDS; i++) {
			const round = await measuredImport(server, path, size);
			log(`import ${i + 1}: ${round.ms.toFixed(0)} ms, peak RSS ${((round.peak - before) / MB).toFixed(1)} MB above the ${(before / MB).toFixed(0)} MB before the first (${round.found.find((f) => f.startsWith('ignored')) ?? ''})`);
			rounds.push(round);
		}
		const times = rounds.map((r) => r.ms).sort((a, b) => a - b);
		const median = times[times.length >> 1]!;
		const growth = (Math.max(...rounds.map((r) => r.peak)) - before) / MB;
		const manyPath = join(dir, 'sign-ins.har');
		writeFileSync(manyPath, manySignInsHar(SIGN_INS));
		const manySize = readFileSync(manyPath).byteLength;
		const many = [];
		for (let i = 0; i < ROUNDS; i++) {
			const round = await measuredImport(server, manyPath, manySize);
			log(`import of ${SIGN_INS} sign-ins (${(manySize / MB).toFixed(1)} MB) ${i + 1}: ${round.ms.toFixed(0)} ms, the sandbox's longest wait ${round.stall.toFixed(0)} ms`);
			many.push(round);
		}
		const manyMedian = many.map((r) => r.ms).sort((a, b) => a - b)[many.length >> 1]!;
		const stall = Math.max(...rounds.map((r) => r.stall), ...many.map((r) => r.stall));
		return {
			measurements: [
				{
					metric: `${(size / MB).toFixed(0)} MB HAR of ${HAR_ENTRIES} entries, POST /api/import?kind=har, median of ${ROUNDS}`,
					measured: `${median.toFixed(0)} ms`,
					target: `< ${TIME_TARGET_MS} ms`,
					pass: median < TIME_TARGET_MS
				},
				{
					metric: "the explorer's memory growth during those imports (peak RSS above before)",
					measured: `${growth.toFixed(1)} MB`,
					target: `< ${MEMORY_TARGET_MB} MB`,
					pass: growth < MEMORY_TARGET_MB
				},
				{
					metric: `${(manySize / MB).toFixed(0)} MB HAR of ${SIGN_INS} sign-ins, each with values of its own, median of ${ROUNDS}`,
					measured: `${manyMedian.toFixed(0)} ms`,
					target: 'reported',
					pass: null
				},
				{
					metric: "the sandbox's longest wait for GET /health during any of those imports (asked every 20 ms)",
					measured: `${stall.toFixed(0)} ms (100 MB: ${rounds.map((r) => r.stall.toFixed(0)).join(', ')}; sign-ins: ${many.map((r) => r.stall.toFixed(0)).join(', ')})`,
					target: `< ${STALL_TARGET_MS} ms`,
					pass: stall < STALL_TARGET_MS
				}
			],
			notes: []
		};
	} finally {
		await stopExplorer(server);
		rmSync(dir, { recursive: true, force: true });
	}
}
