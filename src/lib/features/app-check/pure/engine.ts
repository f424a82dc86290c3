/**
 * Why the app's server did what it did, from the flow engine: the check's entries of the sandbox's log become flow
 * evidence, reconstructed and diagnosed as the live page does (flow/reconstruct.ts, diagnoseFlow, flowVerdict), so
 * the app check names the same cause and fix as the live page (the exact difference of a `redirect_uri`, not "check
 * the client id, secret and redirect_uri"), and the same findings about the link (its `client_secret`, its `state`).
 * The answer the check's own outcome rule produced is the check's doing, not a fault: a verdict about it is left out.
 * What the check's browser saw of the app (its arrival, its pages, its page's own calls) joins the log's flow, as a
 * browser's HAR joins it on a saved run, so the engine reads both sides: a code the page posted twice, not a guess.
 */
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { reconstructFlows } from '$lib/flow/reconstruct/reconstruct';
import { evidenceOf, sandboxFlowRecord } from '$lib/flow/reconstruct/log-evidence';
import { libraryShown } from '$lib/flow/browser/cancel-advice';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { authorisationRefusal } from '$lib/flow/authorisation-verdict';
import type { LogEntry } from '$lib/http/logged-exchange';
import type { FlowRecord } from '$lib/flow/record';
import { flowStepOf } from '$lib/flow/steps';
import { originOf } from '$lib/flow/browser/browser-arrivals';
import type { TokenInAnswer } from '$lib/flow/browser/token-advice';
import { tokensHanded } from '$lib/flow/browser/token-to-browser';
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

/** A request the check's browser made after the sandbox's redirect (to the app, or back to the sandbox), as it saw it. */
export interface BrowserRequestSeen {
	method: string;
	url: string;
	requestBody: string | null;
	/** When it was sent, ms since the epoch (the check's clock, which is the sandbox's when they share a machine). */
	startedMs: number;
	durationMs: number;
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * What the browser saw, as the flow's exchanges of the browser's side: at the app, `arrival`s (its pages, its page's
 * calls); at the sandbox's origins, its links and sign-in pages (the app sending the user back to sign in), and not
 * its token endpoint or me.json, which the log holds already.
 */
export function browserExchanges(seen: readonly BrowserRequestSeen[], serviceOrigins: readonly string[]): RecordedExchange[] {
	return seen.flatMap((r, i): RecordedExchange[] => {
		const step = serviceOrigins.includes(originOf(r.url) ?? '') ? flowStepOf(r.method, r.url) : 'arrival';
		if (step === null || step === 'token' || step === 'me') return [];
		return [
			{
				id: `browser-${i + 1}`,
				step,
				label: "the app check's browser",
				startedAt: new Date(r.startedMs).toISOString(),
				durationMs: r.durationMs,
				request: { method: r.method, url: r.url, headers: [], body: r.requestBody },
				response: { status: r.status, statusText: '', headers: Object.entries(r.headers).map(([name, value]) => ({ name, value })), body: r.body, truncated: false },
				failure: null,
				masked: []
			}
		];
	});
}

/** The log's flow with the browser's side joined, in time order (a stable merge: each side is in order already). */
function withBrowserSide(record: FlowRecord, browser: readonly RecordedExchange[]): FlowRecord {
	if (browser.length === 0) return record;
	const exchanges = [...record.exchanges, ...browser].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
	return { ...record, exchanges, serviceSideOnly: false };
}

/** A finding of the engine about the sign-in's link or pages (a `client_secret` or `state` in the link): what, and the fix. */
export interface LinkFinding {
	severity: 'error' | 'warning';
	message: string;
	fix: string;
}

/**
 * What the engine says of the check's sign-in: the failed request of the app's server, its findings about the link,
 * and about what the browser saw (`page`: the app's pages, its page's calls), which explain a failure the judge
 * found and never make one.
 */
export interface CheckDiagnosis {
	server: ServerDiagnosis | null;
	link: LinkFinding[];
	page: LinkFinding[];
	/** The first of the app's answers that handed the browser a token (the engine's token-to-browser finding), at its URL. */
	tokenHanded: (TokenInAnswer & { url: string }) | null;
}

const isServerStep = (step: StepId | undefined) => step === 'token' || step === 'me';

/** The engine's flags the judge words itself, from what the user got: a token handed to the browser, a sign-in loop. */
const WORDED_BY_JUDGE: ReadonlySet<string> = new Set(['token-to-browser', 'cancel-loop']);

/**
 * The engine's diagnosis of the check's sign-in (the client's newest flow with an exchange or a me.json call, else
 * its first, in the entries after `afterId`): the failed request of the app's server, when it failed for a
 * reason other than the check's rule, and the engine's findings that are not about such a request: the link's, and
 * those on what the browser saw (`browser`, browserExchanges).
 */
export function diagnoseCheck(entries: readonly LogEntry[], clientId: string, afterId: number, rule: OutcomeRule | null, browser: readonly RecordedExchange[] = []): CheckDiagnosis {
	const evidence = entries.filter((e) => e.id > afterId).flatMap((e) => evidenceOf(e.entry) ?? []);
	const flows = reconstructFlows(evidence).filter((f) => f.clientId === clientId);
	// Without an exchange, the check's own sign-in: the first flow (an app that loops starts more).
	const flow = flows.findLast((f) => f.exchanges.some((e) => isServerStep(e.step))) ?? flows[0];
	if (!flow) return { server: null, link: [], page: [], tokenHanded: null };
	const recorded = withBrowserSide(sandboxFlowRecord(flow, UNNAMED_HOSTS), browser);
	const diagnosis = diagnoseFlow(recorded, { followsCancel: flow.followsCancel });
	const stepOf = (exchangeId: string | undefined) => recorded.exchanges.find((e) => e.id === exchangeId)?.step;
	const flagged = diagnosis.flags.filter((f) => !isServerStep(stepOf(f.exchangeId)) && !WORDED_BY_JUDGE.has(f.id));
	const seen = new Set(browser.map((e) => e.id));
	const finding = ({ severity, message, fix }: LinkFinding): LinkFinding => ({ severity, message, fix });
	const [ofPage, ofLink] = [flagged.filter((f) => seen.has(f.exchangeId ?? '')), flagged.filter((f) => !seen.has(f.exchangeId ?? ''))];
	const verdict = flowVerdict(recorded, diagnosis);
	// The sign-in page refused the link (7.1): its row is the verdict, and the first thing wrong with the link.
	const refused = authorisationRefusal(recorded) ? [{ severity: 'error' as const, message: verdict.what, fix: verdict.fix }] : [];
	const handed = tokensHanded(recorded)[0];
	return {
		server: serverDiagnosis(recorded.exchanges, verdict, rule),
		link: [...refused, ...ofLink.map(finding)],
		page: ofPage.map(finding),
		tokenHanded: handed ? { ...handed.found, url: handed.exchange.request.url } : null
	};
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
