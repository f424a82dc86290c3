/**
 * How much of a run is diagnosed and shown: a run page, its Markdown report and a live flow read its first
 * MAX_SHOWN_EXCHANGES exchanges, and say so, so that a HAR of thousands of exchanges (an app retrying one code in a
 * loop) answers in well under a second and cannot hold up the process's other listeners. An import keeps at most
 * MAX_KEPT_EXCHANGES of them, and says so: a run that large is read whole by its permalink, its exports and every
 * save, and HARs of tens of thousands of flow requests held the process for minutes. The first exchanges are the
 * ones that tell: a flow goes wrong early, and what follows repeats it.
 */
import type { Run } from './run';
import { formatCount as count } from '$lib/counts';

export const MAX_SHOWN_EXCHANGES = 1000;
export const MAX_KEPT_EXCHANGES = 5000;

/** The note of an import that kept the first MAX_KEPT_EXCHANGES of `total` flow requests. */
export function describeKept(total: number): string {
	return `kept the first ${count(MAX_KEPT_EXCHANGES)} of its ${count(total)} flow requests, the most a run keeps: to diagnose a later part, import a HAR of that part`;
}

/** The exchanges left out, when there are any. */
export interface ExchangeCut {
	shown: number;
	total: number;
}

/** The run as far as it is diagnosed and shown, and what was left out of it. */
export function shownPart<R extends Pick<Run, 'exchanges'>>(run: R): { run: R; cut: ExchangeCut | null } {
	if (run.exchanges.length <= MAX_SHOWN_EXCHANGES) return { run, cut: null };
	return { run: { ...run, exchanges: run.exchanges.slice(0, MAX_SHOWN_EXCHANGES) }, cut: { shown: MAX_SHOWN_EXCHANGES, total: run.exchanges.length } };
}

/** The note the run page and the report show. */
export function describeCut({ shown, total }: ExchangeCut): string {
	return `This run has ${count(total)} exchanges: the diagnosis and the steps shown cover the first ${count(shown)} only, to answer in time. The HAR export has all of them; to diagnose a later part, import a HAR of that part.`;
}
