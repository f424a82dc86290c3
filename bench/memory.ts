/** Memory and database size after a million codes issued and left to expire, then purged by ordinary traffic. */
import { startChild } from './child';
import type { MemoryFigures, Snapshot } from './memory-child';
import type { Measurement } from './report';

const CODES = Number(process.env.BENCH_CODES ?? 1_000_000);

const mb = (n: number) => `${n.toFixed(1)} MB`;

function describe(name: string, s: Snapshot): string {
	return `${name}: RSS ${mb(s.rssMb)}, heap ${mb(s.heapMb)}, database file ${mb(s.dbFileMb)} + WAL ${mb(s.walFileMb)}, live data ${mb(s.liveDataMb)}, ${s.codeRows} code rows`;
}

export async function benchMemory(log: (line: string) => void): Promise<{ measurements: Measurement[]; notes: string[] }> {
	const child = await startChild<MemoryFigures>('./memory-child.ts', [String(CODES)], ['--expose-gc']);
	await new Promise((resolve) => child.process.once('exit', resolve));
	const f = child.message;
	const { baseline: base, peak, afterPurge: after } = f;
	log(describe('baseline', base));
	log(describe(`after ${f.codes} codes (${f.issueSeconds.toFixed(1)} s)`, peak));
	log(describe(`after purge (${f.purgeIssues} new codes, ${f.purgeSeconds.toFixed(1)} s)`, after));

	const onDisk = (s: Snapshot) => s.dbFileMb + s.walFileMb;
	const grown = (s: Snapshot, key: 'rssMb' | 'heapMb') => s[key] - base[key];
	return {
		measurements: [
			{ metric: `codes issued, then expired`, measured: `${f.codes} in ${f.issueSeconds.toFixed(1)} s`, target: '1 000 000', pass: f.codes >= 1_000_000 },
			{ metric: 'expired code rows left after purge', measured: `${after.codeRows - f.purgeIssues} (of ${peak.codeRows})`, target: '0', pass: after.codeRows - f.purgeIssues <= 0 },
			{ metric: 'RSS growth after purge (vs baseline)', measured: `${mb(grown(after, 'rssMb'))} (peak ${mb(grown(peak, 'rssMb'))})`, target: '< 64 MB', pass: grown(after, 'rssMb') < 64 },
			{ metric: 'JS heap growth after purge (vs baseline)', measured: `${mb(grown(after, 'heapMb'))} (peak ${mb(grown(peak, 'heapMb'))})`, target: '< 16 MB', pass: grown(after, 'heapMb') < 16 },
			{ metric: 'database live data after purge', measured: `${mb(after.liveDataMb)} (peak ${mb(peak.liveDataMb)})`, target: '< 10% of peak', pass: after.liveDataMb < peak.liveDataMb * 0.1 },
			{ metric: 'database files on disk after purge', measured: `${mb(onDisk(after))} (peak ${mb(onDisk(peak))}, baseline ${mb(onDisk(base))})`, target: '< 10% of peak', pass: onDisk(after) < onDisk(peak) * 0.1 }
		],
		notes: [
			describe('Baseline', base),
			describe(`After ${f.codes} codes issued in ${f.issueSeconds.toFixed(1)} s`, peak),
			describe(`After the clock moved past 2 h + the 24 h purge grace and ${f.purgeIssues} new codes were issued (${f.purgeSeconds.toFixed(1)} s), each purging up to 100 expired rows, then 1.5 s without traffic`, after)
		]
	};
}
