/**
 * A flow rebuilt from the sandbox's log as a run: the one builder of the live page's runs and the app check's, so
 * both channels diagnose the same record (diagnose-run.ts) and give the same verdict. What a browser saw of the same
 * sign-in (the app check's browser) joins it as a browser's HAR joins a saved run; the whole is redacted as a saved
 * run is, the client's secret found anywhere (which tells the engine of a secret in the link, under any name).
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import type { FlowRecord } from '$lib/flow/record';
import type { ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { sandboxFlowRecord } from '$lib/flow/reconstruct/log-evidence';
import { byStartTime } from '$lib/flow/flow-time';
import { redactRun } from './redact/redact';
import { newRun, type Run, type SandboxHosts } from './run';


/** The log's flow with the browser's side joined, in time order (a stable merge: each side is in order already). */
function withBrowserSide(record: FlowRecord, browser: readonly RecordedExchange[]): FlowRecord {
	if (browser.length === 0) return record;
	const exchanges = [...record.exchanges, ...browser].sort(byStartTime);
	return { ...record, exchanges, serviceSideOnly: false };
}

/** The client's flow as a redacted run; `browser`: what a browser saw of it, none for the live page. */
export function liveFlowRun(flow: ReconstructedFlow, clientId: string, clientSecrets: readonly string[], hosts: SandboxHosts, browser: readonly RecordedExchange[] = []): Run {
	const record = withBrowserSide(sandboxFlowRecord(flow, hosts), browser);
	const run = newRun({ ...record, id: flow.id, title: `Live flow, ${clientId}`, createdAt: flow.startedAt, source: 'live' });
	return redactRun(run, { clientSecrets: [...clientSecrets] });
}
