/**
 * A customer's HAR as browsers save it: 100 MB of 2,000 entries (scripts and images with their bodies, the flow
 * among them; src/lib/features/runs/pure/har/large-har.ts), written to the OS's temporary directory, then imported by the built
 * explorer as scripts do, `POST /api/import?kind=har` with the file streamed as the body. Measures the time to the
 * answer and the explorer process's resident memory (VmRSS, sampled every 20 ms) above what it held before.
 */
import type { ChildProcess } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLargeHar } from '../src/lib/features/runs/testing/large-har';
import { buildExplorer, EXPLORER, startExplorer, stopExplorer } from './explorer';
import type { Measurement } from './report';

const MB = 1024 * 1024;
const HAR_BYTES = 100 * MB;
const HAR_ENTRIES = 2000;
const ROUNDS = Number(process.env.BENCH_HAR_ROUNDS ?? 3);
const TIME_TARGET_MS = 5000;
const MEMORY_TARGET_MB = 100;

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
	try {
		const answer = await importFile(path, size);
		if (answer.status !== 200) throw new Error(`the import answered ${answer.status}: ${answer.body.slice(0, 300)}`);
		return { ms: answer.ms, peak: Math.max(peak, residentBytes(pid)), found: (JSON.parse(answer.body) as { found: string[] }).found };
	} finally {
		clearInterval(sampler);
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
				}
			],
			notes: []
		};
	} finally {
		await stopExplorer(server);
		rmSync(dir, { recursive: true, force: true });
	}
}
