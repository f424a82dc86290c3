/**
 * Why the app's server did what it did, from the flow engine: the check's entries of the sandbox's log become flow
 * evidence, reconstructed and diagnosed as the live page does (flow/reconstruct.ts, diagnoseFlow, flowVerdict), so
 * the app check names the same cause and fix as the live page (the exact difference of a `redirect_uri`, not "check
 * the client id, secret and redirect_uri"), and the same findings about the link (its `client_secret`, its `state`).
 * The answer the check's own outcome rule produced is the check's doing, not a fault: a verdict about it is left out.
 */
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { reconstructFlows } from '$lib/flow/reconstruct/reconstruct';
import { evidenceOf, sandboxFlowRecord } from '$lib/flow/reconstruct/log-evidence';
import { libraryShown } from '$lib/flow/browser/cancel-advice';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { authorisationRefusal } from '$lib/flow/authorisation-verdict';
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

/** A finding of the engine about the sign-in's link or pages (a `client_secret` or `state` in the link): what, and the fix. */
export interface LinkFinding {
	severity: 'error' | 'warning';
	message: string;
	fix: string;
}

/** What the engine says of the check's sign-in: the failed request of the app's server, and what is wrong before it. */
export interface CheckDiagnosis {
	server: ServerDiagnosis | null;
	link: LinkFinding[];
}

const isServerStep = (step: StepId | undefined) => step === 'token' || step === 'me';

/**
 * The engine's diagnosis of the check's sign-in (the client's newest flow with an exchange or a me.json call, else
 * its first, in the entries after `afterId`): the failed request of the app's server, when it failed for a
 * reason other than the check's rule, and the engine's findings that are not about such a request (the link's).
 */
export function diagnoseCheck(entries: readonly LogEntry[], clientId: string, afterId: number, rule: OutcomeRule | null): CheckDiagnosis {
	const evidence = entries.filter((e) => e.id > afterId).flatMap((e) => evidenceOf(e.entry) ?? []);
	const flows = reconstructFlows(evidence).filter((f) => f.clientId === clientId);
	// Without an exchange, the check's own sign-in: the first flow (an app that loops starts more).
	const flow = flows.findLast((f) => f.exchanges.some((e) => isServerStep(e.step))) ?? flows[0];
	if (!flow) return { server: null, link: [] };
	const recorded = sandboxFlowRecord(flow, UNNAMED_HOSTS);
	const diagnosis = diagnoseFlow(recorded, { followsCancel: flow.followsCancel });
	const stepOf = (exchangeId: string | undefined) => flow.exchanges.find((e) => e.id === exchangeId)?.step;
	const flagged = diagnosis.flags.filter((f) => !isServerStep(stepOf(f.exchangeId))).map(({ severity, message, fix }) => ({ severity, message, fix }));
	const verdict = flowVerdict(recorded, diagnosis);
	// The sign-in page refused the link (7.1): its row is the verdict, and the first thing wrong with the link.
	const refused = authorisationRefusal(recorded) ? [{ severity: 'error' as const, message: verdict.what, fix: verdict.fix }] : [];
	return { server: serverDiagnosis(flow.exchanges, verdict, rule), link: [...refused, ...flagged] };
}

/** The verdict, when it is an error of the token endpoint or me.json that the check's own rule did not produce. */
function serverDiagnosis(exchanges: readonly RecordedExchange[], verdict: Verdict, rule: OutcomeRule | null): ServerDiagnosis | null {
	const about = verdict.exchange ? exchanges[verdict.exchange.n - 1] : undefined;
	if (verdict.severity !== 'error' || !about || (about.step !== 'token' && about.step !== 'me')) return null;
	// The first answer of the rule's stage is the rule's: what the check asked for, not a fault of the app.
	const ruleStage = rule === null ? null : rule.startsWith('me-') ? 'me' : 'token';
	if (about === exchanges.find((e) => e.step === ruleStage)) return null;
	return { step: about.step, what: verdict.what, cause: verdict.cause, fix: verdict.fix };
}

/** The client library the client's requests in the log show (passport-oauth2's `Node-oauth` User-Agent), if any. */
export function libraryOf(entries: readonly LogEntry[], clientId: string): 'passport-oauth2' | null {
	const mine = reconstructFlows(entries.flatMap((e) => evidenceOf(e.entry) ?? [])).filter((f) => f.clientId === clientId);
	return libraryShown(mine.flatMap((f) => f.exchanges));
}
