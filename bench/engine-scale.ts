/**
 * `BENCH_ONLY=engine npm run bench`: the flow engine on runs of thousands of exchanges that share one grant code (an
 * app retrying a code in a loop), in this process, no server: what a run page, its exports and a live flow cost
 * at 500, 1,500 and 5,000 exchanges (issue 24). Each figure is the median of BENCH_ENGINE_ROUNDS (5) rounds after one
 * warm-up round. A run page and its Markdown report diagnose the first MAX_SHOWN_EXCHANGES and say so.
 */
import { presentRun } from '../src/lib/features/runs/controller';
import { shownPart } from '../src/lib/features/runs/pure/exchange-cap';
import { diagnoseRun } from '../src/lib/features/runs/pure/diagnose-run';
import { runToHar } from '../src/lib/features/runs/pure/har/har';
import { redactRun } from '../src/lib/features/runs/pure/redact/redact';
import { runToMarkdown } from '../src/lib/features/runs/pure/report';
import { runToShellScript } from '../src/lib/features/runs/pure/shell-script';
import type { Run } from '../src/lib/features/runs/pure/run';
import { reconstruction } from '../src/lib/flow/reconstruct/reconstruct';
import { sharedCodeFlow } from '../src/lib/flow/testing/shared-code-flow';
import type { Measurement } from './report';

const SIZES = [500, 1500, 5000];
const ROUNDS = Number(process.env.BENCH_ENGINE_ROUNDS ?? 5);
const TARGET_MS = 1000;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median time of `work`, in milliseconds, after one warm-up. */
function timed(work: () => unknown): number {
	work();
	return median(
		Array.from({ length: ROUNDS }, () => {
			const started = performance.now();
			work();
			return performance.now() - started;
		})
	);
}

function sharedCodeRun(n: number): Run {
	return { ...sharedCodeFlow(n), id: `bench-${n}`, title: `${n} exchanges of one code`, createdAt: '2026-01-01T09:59:00.000Z', redactions: [], source: 'har' };
}

export async function benchEngine(log: (line: string) => void): Promise<Measurement[]> {
	const measurements: Measurement[] = [];
	const measure = (metric: string, ms: number, target: boolean) => {
		log(`${metric}: ${ms.toFixed(0)} ms`);
		measurements.push({ metric, measured: `${ms.toFixed(0)} ms`, target: target ? `< ${TARGET_MS} ms` : 'reported', pass: target ? ms < TARGET_MS : null });
	};
	for (const n of SIZES) {
		const whole = sharedCodeRun(n);
		const run = redactRun(whole, {});
		const count = n.toLocaleString('en-GB');
		measure(`${count} exchanges: the import's redaction of the run`, timed(() => redactRun(whole, {})), false);
		measure(`${count} exchanges: the run page (diagnosis, verdict, timeline)`, timed(() => presentRun(run)), true);
		measure(
			`${count} exchanges: the Markdown report`,
			timed(() => {
				const { run: shown, cut } = shownPart(run);
				return runToMarkdown(shown, diagnoseRun(shown), { origin: 'http://localhost:4173', cut });
			}),
			true
		);
		measure(`${count} exchanges: the curl script`, timed(() => runToShellScript(run, { origin: 'http://localhost:4173' })), true);
		measure(`${count} exchanges: the HAR export`, timed(() => JSON.stringify(runToHar(run), null, 2)), true);
		const evidence = run.exchanges.map((exchange) => ({ exchange }));
		measure(`${count} exchanges: a live flow rebuilt and diagnosed whole`, timed(() => presentRun({ ...run, exchanges: reconstruction(evidence).flows.at(-1)!.exchanges })), true);
		const built = reconstruction(evidence);
		const next = sharedCodeFlow(1).exchanges[1]!;
		measure(`${count} exchanges: one arrival added to a live feed's flows`, timed(() => built.add({ exchange: { ...next, startedAt: '2026-01-01T11:00:00.000Z' } })), true);
	}
	return measurements;
}
