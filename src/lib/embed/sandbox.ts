/**
 * The package's `sso-flow-explorer/sandbox`: the embedded sandbox (sandbox/embed.ts) with its flows, rebuilt from
 * its request log and diagnosed as the explorer's live page does (flow/log-evidence.ts, reconstruct.ts,
 * diagnoseFlow, the verdict), so an integrator's test can assert what the live view would show. Its public types
 * are the leaf embedded-sandbox.ts's.
 */
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import { sandboxFlowRecord, evidenceOf } from '$lib/flow/reconstruct/log-evidence';
import type { LoggedExchange } from '$lib/http/logged-exchange';
import { reconstructFlows, type ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { flowVerdict } from '$lib/flow/verdict';
import type { EmbeddedSandbox, EmbeddedSandboxOptions, SandboxFlow } from '$lib/embedded-sandbox';
import { startSandbox as startHosts } from '../sandbox/embed';

export { SandboxControlError } from '$lib/embedded-sandbox';
export type * from '$lib/embedded-sandbox';

/** One flow, diagnosed: each step's row (the sign-in pages' too), the flags across its requests, the verdict. */
function diagnosedFlow(flow: ReconstructedFlow, hosts: { authUrl: string; accountsUrl: string }): SandboxFlow {
	const record = sandboxFlowRecord(flow, hosts);
	const diagnosis = diagnoseFlow(record, { followsCancel: flow.followsCancel });
	return {
		id: flow.id,
		clientId: flow.clientId,
		link: flow.link,
		callback: flow.callback,
		followsCancel: flow.followsCancel,
		startedAt: flow.startedAt,
		updatedAt: flow.updatedAt,
		steps: flow.exchanges.map((e, i) => {
			const a = diagnosis.annotations.exchanges[i];
			return {
				id: e.id,
				step: e.step,
				label: e.label,
				startedAt: e.startedAt,
				request: e.request,
				response: e.response,
				diagnosis: a ? { outcome: a.outcome, title: a.title, summary: a.summary, rowId: a.rowId, causeId: a.causeId, fix: a.fix, problems: a.problems } : null
			};
		}),
		flags: diagnosis.flags.map(({ id, severity, message, section, fix, exchangeId }) => ({ id, severity, message, section, fix, exchangeId })),
		verdict: flowVerdict(record, diagnosis)
	};
}

/** The flows of the logged requests, oldest first. */
function flowsOfLog(logged: readonly LoggedExchange[], hosts: { authUrl: string; accountsUrl: string }): SandboxFlow[] {
	return reconstructFlows(logged.flatMap((e) => evidenceOf(e) ?? [])).map((f) => diagnosedFlow(f, hosts));
}

export async function startSandbox(options: EmbeddedSandboxOptions = {}): Promise<EmbeddedSandbox> {
	const { loggedRequests, ...sandbox } = await startHosts(options);
	return { ...sandbox, flows: async () => flowsOfLog(await loggedRequests(), sandbox) };
}
