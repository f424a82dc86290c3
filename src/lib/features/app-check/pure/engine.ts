/**
 * Why the app's server did what it did, from the flow engine: the check's entries of the sandbox's log become flow
 * evidence, reconstructed and diagnosed as the live page does (flow/reconstruct.ts, diagnoseFlow, flowVerdict), so
 * the app check names the same cause and fix as the live page (the exact difference of a `redirect_uri`, not "check
 * the client id, secret and redirect_uri"). The answer the check's own outcome rule produced is the check's doing,
 * not a fault: a verdict about it is left out.
 */
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { reconstructFlows, type FlowEvidence, type FlowKeys, type ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { flowStepOf } from '$lib/flow/steps';
import { libraryShown } from '$lib/flow/browser/cancel-advice';
import { flowVerdict } from '$lib/flow/verdict';
import type { HttpHeader } from '$lib/http/exchange';
import type { OutcomeRule } from './checks';
import { record, text, type LogEntryLike } from './sandbox-log';

/** The engine's account of a failed request of the app's server: which, what happened, why, and the fix. */
export interface ServerDiagnosis {
	step: Extract<StepId, 'token' | 'me'>;
	what: string;
	cause: string;
	fix: string;
}

const headersOf = (value: unknown): HttpHeader[] =>
	Array.isArray(value) ? value.flatMap((h) => (text(record(h)['name']) !== null && text(record(h)['value']) !== null ? [{ name: text(record(h)['name'])!, value: text(record(h)['value'])! }] : [])) : [];

/** A log entry as the control API answers it, read as flow evidence; null for requests that are no step of a flow. */
export function logEvidence(raw: LogEntryLike): FlowEvidence | null {
	const entry = record(raw.entry);
	const request = record(entry['request']);
	const method = text(request['method']);
	const url = text(request['url']);
	if (method === null || url === null) return null;
	const step = flowStepOf(method, url);
	if (step === null) return null;
	const response = entry['response'] === null ? null : record(entry['response']);
	const keys = record(entry['keys']);
	const exchange: RecordedExchange = {
		id: text(entry['ref']) ?? `log-${raw.id}`,
		step,
		label: step,
		startedAt: text(entry['sandboxAt']) ?? new Date(0).toISOString(),
		durationMs: typeof entry['durationMs'] === 'number' ? entry['durationMs'] : 0,
		request: { method, url, headers: headersOf(request['headers']), body: text(request['body']) },
		response:
			response && typeof response['status'] === 'number'
				? { status: response['status'], statusText: text(response['statusText']) ?? '', headers: headersOf(response['headers']), body: text(response['body']) ?? '', truncated: response['truncated'] === true }
				: null,
		failure: null,
		masked: []
	};
	const flowKeys: FlowKeys = {
		...(text(keys['clientId']) ? { clientId: text(keys['clientId'])! } : {}),
		...(text(keys['authFlow']) ? { authFlow: text(keys['authFlow'])! } : {}),
		...(text(keys['code']) ? { code: text(keys['code'])! } : {}),
		...(text(keys['presented']) ? { presented: text(keys['presented'])! } : {}),
		...(Array.isArray(keys['issued']) ? { issued: keys['issued'].filter((k): k is string => typeof k === 'string') } : {})
	};
	return { exchange, keys: flowKeys };
}

const originOf = (flow: ReconstructedFlow, steps: readonly StepId[]) => {
	const url = flow.exchanges.find((e) => steps.includes(e.step))?.request.url;
	return url && URL.canParse(url) ? new URL(url).origin : '';
};

/**
 * The engine's diagnosis of the check's sign-in (the client's newest flow with an exchange or a me.json call, in the
 * entries after `afterId`) when it failed at the token endpoint or me.json for a reason other than the check's rule.
 */
export function diagnoseServer(entries: readonly LogEntryLike[], clientId: string, afterId: number, rule: OutcomeRule | null): ServerDiagnosis | null {
	const evidence = entries.filter((e) => e.id > afterId).flatMap((e) => logEvidence(e) ?? []);
	const flows = reconstructFlows(evidence).filter((f) => f.clientId === clientId);
	const flow = flows.findLast((f) => f.exchanges.some((e) => e.step === 'token' || e.step === 'me'));
	if (!flow) return null;
	const recorded = {
		target: { kind: 'sandbox' as const, authUrl: originOf(flow, ['link', 'authorise']), accountsUrl: originOf(flow, ['token', 'me']) },
		sandboxClock: flow.updatedAt,
		link: flow.link,
		callback: flow.callback,
		exchanges: flow.exchanges
	};
	const verdict = flowVerdict(recorded, diagnoseFlow(recorded, { followsCancel: flow.followsCancel }));
	const about = verdict.exchange ? flow.exchanges[verdict.exchange.n - 1] : undefined;
	if (verdict.severity !== 'error' || !about || (about.step !== 'token' && about.step !== 'me')) return null;
	// The first answer of the rule's stage is the rule's: what the check asked for, not a fault of the app.
	const ruleStage = rule === null ? null : rule.startsWith('me-') ? 'me' : 'token';
	if (about === flow.exchanges.find((e) => e.step === ruleStage)) return null;
	return { step: about.step, what: verdict.what, cause: verdict.cause, fix: verdict.fix };
}

/** The client library the client's requests in the log show (passport-oauth2's `Node-oauth` User-Agent), if any. */
export function libraryOf(entries: readonly LogEntryLike[], clientId: string): 'passport-oauth2' | null {
	const mine = reconstructFlows(entries.flatMap((e) => logEvidence(e) ?? [])).filter((f) => f.clientId === clientId);
	return libraryShown(mine.flatMap((f) => f.exchanges));
}
