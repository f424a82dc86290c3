/**
 * The live page's flows: the newest LIVE_FLOWS_SHOWN, those the page loaded and those the event stream sent since,
 * each in its latest state (the server and the page share the bound).
 */

/**
 * The newest flows shown and kept up to date: under load every exchange of a fresh code is a flow of its own,
 * and diagnosing hundreds at each push would cost the sandbox's hosts, which share this process.
 */
export const LIVE_FLOWS_SHOWN = 20;

interface DatedFlow {
	id: string;
	run: { createdAt: string };
}

/** `loaded` with each of `updates` replacing its older self (by id), newest first, at most LIVE_FLOWS_SHOWN. */
export function mergeFlows<F extends DatedFlow>(loaded: readonly F[], updates: readonly F[]): F[] {
	const byId = new Map(loaded.map((f) => [f.id, f]));
	for (const flow of updates) byId.set(flow.id, flow);
	return [...byId.values()].sort((a, b) => Date.parse(b.run.createdAt) - Date.parse(a.run.createdAt)).slice(0, LIVE_FLOWS_SHOWN);
}

/** The live page's filter: every flow, the failed ones (their verdict is an error), or those of one outcome. */
export type FlowFilter = 'all' | 'failed' | `outcome:${string}`;

interface FilteredFlow {
	outcome: string;
	verdict: { severity: string };
}

export function matchesFlowFilter(flow: FilteredFlow, filter: FlowFilter): boolean {
	if (filter === 'all') return true;
	if (filter === 'failed') return flow.verdict.severity === 'error';
	return flow.outcome === filter.slice('outcome:'.length);
}

/** The outcomes the flows ended with, each once, for the filter's choices. */
export function flowOutcomes(flows: readonly FilteredFlow[]): string[] {
	return [...new Set(flows.map((f) => f.outcome))].sort();
}
