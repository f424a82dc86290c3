/**
 * Why the app's server did what it did, from the flow engine: the check's entries of the sandbox's log become flow
 * evidence, reconstructed and diagnosed as the live page does (flow/reconstruct.ts, diagnoseFlow, flowVerdict), so
 * the app check names the same cause and fix as the live page (the exact difference of a `redirect_uri`, not "check
 * the client id, secret and redirect_uri"). The answer the check's own outcome rule produced is the check's doing,
 * not a fault: a verdict about it is left out.
 */
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import type { StepId } from '$lib/flow/exchange';
import { reconstructFlows } from '$lib/flow/reconstruct/reconstruct';
import { evidenceOf, sandboxFlowRecord } from '$lib/flow/reconstruct/log-evidence';
import { libraryShown } from '$lib/flow/browser/cancel-advice';
import { flowVerdict } from '$lib/flow/verdict';
import type { LogEntry } from '$lib/http/logged-exchange';
import type { OutcomeRule } from './checks';

/** The engine's account of a failed request of the app's server: which, what happened, why, and the fix. */
export interface ServerDiagnosis {
	step: Extract<StepId, 'token' | 'me'>;
	what: string;
	cause: string;
	fix: string;
}

/** The check's app may reach the sandbox by any name: its hosts are as the flow's requests named them. */
const UNNAMED_HOSTS = { authUrl: '', accountsUrl: '' };

/**
 * The engine's diagnosis of the check's sign-in (the client's newest flow with an exchange or a me.json call, in the
 * entries after `afterId`) when it failed at the token endpoint or me.json for a reason other than the check's rule.
 */
export function diagnoseServer(entries: readonly LogEntry[], clientId: string, afterId: number, rule: OutcomeRule | null): ServerDiagnosis | null {
	const evidence = entries.filter((e) => e.id > afterId).flatMap((e) => evidenceOf(e.entry) ?? []);
	const flows = reconstructFlows(evidence).filter((f) => f.clientId === clientId);
	const flow = flows.findLast((f) => f.exchanges.some((e) => e.step === 'token' || e.step === 'me'));
	if (!flow) return null;
	const recorded = sandboxFlowRecord(flow, UNNAMED_HOSTS);
	const verdict = flowVerdict(recorded, diagnoseFlow(recorded, { followsCancel: flow.followsCancel }));
	const about = verdict.exchange ? flow.exchanges[verdict.exchange.n - 1] : undefined;
	if (verdict.severity !== 'error' || !about || (about.step !== 'token' && about.step !== 'me')) return null;
	// The first answer of the rule's stage is the rule's: what the check asked for, not a fault of the app.
	const ruleStage = rule === null ? null : rule.startsWith('me-') ? 'me' : 'token';
	if (about === flow.exchanges.find((e) => e.step === ruleStage)) return null;
	return { step: about.step, what: verdict.what, cause: verdict.cause, fix: verdict.fix };
}

/** The client library the client's requests in the log show (passport-oauth2's `Node-oauth` User-Agent), if any. */
export function libraryOf(entries: readonly LogEntry[], clientId: string): 'passport-oauth2' | null {
	const mine = reconstructFlows(entries.flatMap((e) => evidenceOf(e.entry) ?? [])).filter((f) => f.clientId === clientId);
	return libraryShown(mine.flatMap((f) => f.exchanges));
}
