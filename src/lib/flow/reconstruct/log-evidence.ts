/**
 * The sandbox's request log as the flow engine reads it: each logged request as evidence of a flow step (with the
 * log's correlation keys), and the target a flow of it reached. Shared by the live view and the embedded sandbox,
 * so both rebuild and diagnose the same flows from the same log.
 */
import { uriParts } from '$lib/http/encoding';
import type { LoggedExchange } from '$lib/http/logged-exchange';
import type { StepId } from '../exchange';
import type { FlowEvidence, ReconstructedFlow } from './reconstruct';
import type { FlowRecord, FlowTarget } from '../record';
import { flowStepOf } from '../steps';

function label(step: StepId, url: string): string {
	if (step === 'link') return 'authorisation link';
	if (step === 'token') return 'token exchange';
	if (step === 'me') return 'me.json';
	const page = uriParts(url).path.split('/')[3];
	return page ? `sign-in: ${page}` : 'sign-in page';
}

/** A log entry as evidence of a flow; null for requests that are no step of one (the control API, errors pages). */
export function evidenceOf(logged: LoggedExchange): FlowEvidence | null {
	const step = flowStepOf(logged.request.method, logged.request.url);
	if (step === null) return null;
	return {
		exchange: {
			id: logged.ref,
			step,
			label: label(step, logged.request.url),
			startedAt: logged.sandboxAt,
			durationMs: logged.durationMs,
			request: logged.request,
			response: logged.response,
			failure: null,
			masked: []
		},
		keys: logged.keys
	};
}

/** The origin a flow's request reached: the sandbox by whichever name the app used (localhost, 127.0.0.1, …). */
function reachedOrigin(flow: ReconstructedFlow, steps: readonly StepId[]): string | undefined {
	const url = flow.exchanges.find((e) => steps.includes(e.step))?.request.url;
	return url && URL.canParse(url) ? new URL(url).origin : undefined;
}

/**
 * The sandbox as the flow's requests named its hosts, else as `hosts` says: the linter would otherwise warn of a
 * link to "another" host when the app reached the sandbox by another name.
 */
export function sandboxTargetOf(flow: ReconstructedFlow, hosts: { authUrl: string; accountsUrl: string }): FlowTarget {
	return {
		kind: 'sandbox',
		authUrl: reachedOrigin(flow, ['link', 'sign-in']) ?? hosts.authUrl,
		accountsUrl: reachedOrigin(flow, ['token', 'me']) ?? hosts.accountsUrl
	};
}

/** A reconstructed flow as the record the engine diagnoses. */
export function sandboxFlowRecord(flow: ReconstructedFlow, hosts: { authUrl: string; accountsUrl: string }): FlowRecord {
	return { target: sandboxTargetOf(flow, hosts), sandboxClock: flow.updatedAt, link: flow.link, callback: flow.callback, exchanges: flow.exchanges, serviceSideOnly: true };
}
