/**
 * Why the app's server did what it did, from the flow engine, as the live page tells it: the check's entries of the
 * sandbox's log are reconstructed as the live page reconstructs them, made a run by the live page's own builder
 * (liveFlowRun: redacted, the client's secret found under any name in the link) and diagnosed and judged as the live
 * page does (diagnoseRun, flowVerdict), so the app check names the same row, cause and fix: the exact difference of a
 * `redirect_uri`, not "check the client id, secret and redirect_uri". What the check's browser saw of the app (its
 * arrival, its pages, its page's own calls) joins the log's flow, as a browser's HAR joins it on a saved run, so the
 * engine reads both sides: a code the page posted twice, not a guess. What the check itself caused is no fault of
 * the app's: the answer its outcome rule produced, and the exchange its reload of the callback repeated.
 */
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import type { FlowDiagnosis } from '$lib/flow/diagnose-flow';
import { reconstructFlows, type ReconstructedFlow } from '$lib/flow/reconstruct/reconstruct';
import { evidenceOf } from '$lib/flow/reconstruct/log-evidence';
import { byStartTime } from '$lib/flow/flow-time';
import { cancelLoopAdvice } from '$lib/flow/browser/cancel-advice';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { authorisationRefusal } from '$lib/flow/authorisation-verdict';
import type { LogEntry } from '$lib/http/logged-exchange';
import { flowStepOf } from '$lib/flow/steps';
import { originOf } from '$lib/flow/browser/browser-arrivals';
import type { TokenInAnswer } from '$lib/flow/browser/token-advice';
import { tokensHanded } from '$lib/flow/browser/token-to-browser';
import { diagnoseRun, liveFlowRun, type Run } from '$lib/features/runs/pure';
import { ruleStage, type AppCheck } from './checks';
import { serverCalls, type ServerCalls } from './server-calls';

/** A row of the interface's error tables, as the engine names it (the table, the row, its anchor on /reference). */
export type RowReference = Extract<NonNullable<Verdict['reference']>, { kind: 'row' }>;

/** The engine's account of what the app's server did wrong: which request (none: a step it never took), what, why, the fix, and where the reference explains it. */
export interface ServerDiagnosis {
	severity: 'error' | 'warning';
	step: Extract<StepId, 'token' | 'me'> | null;
	what: string;
	cause: string;
	fix: string;
	reference: Verdict['reference'];
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

/** A finding of the engine about the sign-in's link or pages (a `client_secret` or `state` in the link): what, and the fix. */
export interface LinkFinding {
	severity: 'error' | 'warning';
	message: string;
	fix: string;
	/** The row of the tables it is, when it is one: the sign-in page's refusal of the link (7.1). */
	row?: RowReference;
}

/**
 * What the engine says of the check's sign-in: the failed request of the app's server, its findings about the link,
 * and about what the browser saw (`page`: the app's pages, its page's calls), which explain a failure the judge
 * found and never make one; and the app's server's calls, as the engine's reconstruction joined them.
 */
export interface CheckDiagnosis {
	server: ServerDiagnosis | null;
	link: LinkFinding[];
	page: LinkFinding[];
	/** The first of the app's answers that handed the browser a token (the engine's token-to-browser finding), at its URL. */
	tokenHanded: (TokenInAnswer & { url: string }) | null;
	calls: ServerCalls;
	/**
	 * The engine's fix for a sign-in started again after a cancel (cancelLoopAdvice), naming the client library when
	 * any of the client's requests in the log shows it: a cancel's own flow holds no token request to show it.
	 */
	loopFix: string;
}

/** The check whose sign-in is diagnosed, and what is needed to read it. */
export interface CheckScope {
	clientId: string;
	/** The id of the log's newest entry before the check began: only what came after is the check's. */
	afterId: number;
	/** What the check itself does: its outcome rule, and whether it reloads the callback. */
	check: Pick<AppCheck, 'rule' | 'action'>;
	/** The client's secrets, when the check was given them: found in the link under any name, they are an error there. */
	clientSecrets: readonly string[];
}

const isServerStep = (step: StepId | undefined): step is 'token' | 'me' => step === 'token' || step === 'me';

/** The engine's flags the judge words itself, from what the user got: a token handed to the browser, a sign-in loop. */
const WORDED_BY_JUDGE: ReadonlySet<string> = new Set(['token-to-browser', 'cancel-loop']);


/**
 * The engine's diagnosis of the check's sign-in: the client's newest flow with an exchange or a me.json call, else
 * its first, in the entries after `afterId`, with what the check's browser saw of it (`browser`, browserExchanges).
 */
export function diagnoseCheck(entries: readonly LogEntry[], scope: CheckScope, browser: readonly RecordedExchange[] = []): CheckDiagnosis {
	const read = entries.flatMap((e) => {
		const evidence = evidenceOf(e.entry);
		return evidence ? [{ id: e.id, evidence }] : [];
	});
	const all = reconstructFlows(read.filter((r) => r.id > scope.afterId).map((r) => r.evidence));
	const flows = all.filter((f) => f.clientId === scope.clientId);
	// Without an exchange, the check's own sign-in: the first flow (an app that loops starts more).
	const found = flows.findLast((f) => f.exchanges.some((e) => isServerStep(e.step))) ?? flows[0];
	// Over the whole log: the client's requests before the check may show its library too (by the sandbox's keys).
	const loopFix = cancelLoopAdvice(read.flatMap(({ evidence: e }) => (e.keys?.clientId === scope.clientId ? [e.exchange] : []))).fix;
	if (!found) return { server: null, link: [], page: [], tokenHanded: null, calls: serverCalls(flows, null), loopFix };
	const tied = tiedByTime(found, all);
	const flow = tied.length === 0 ? found : { ...found, exchanges: [...found.exchanges, ...tied].sort(byStartTime) };
	const run = liveFlowRun(flow, scope.clientId, scope.clientSecrets, UNNAMED_HOSTS, browser);
	const diagnosis = diagnoseRun(run, { followsCancel: flow.followsCancel });
	const handed = tokensHanded(run)[0];
	return {
		server: serverDiagnosis(run, diagnosis, scope.check),
		...findings(run, diagnosis, new Set(browser.map((e) => e.id))),
		tokenHanded: handed ? { ...handed.found, url: handed.exchange.request.url } : null,
		calls: { ...serverCalls(flows, flow), meTiedByTime: tied.length > 0 },
		loopFix
	};
}

/**
 * me.json calls the log could tie to no client (they carried no token: the sandbox files them by nothing), made
 * after the flow's first exchange, when the flow has none of its own: in the check's window, the app's, as far as
 * time can tell. Without them the check would say the app never read me.json, when it did and was refused.
 */
function tiedByTime(flow: ReconstructedFlow, all: readonly ReconstructedFlow[]): RecordedExchange[] {
	const exchanged = flow.exchanges.find((e) => e.step === 'token');
	if (!exchanged || flow.exchanges.some((e) => e.step === 'me')) return [];
	const after = Date.parse(exchanged.startedAt);
	return all.filter((f) => f.clientId === null).flatMap((f) => f.exchanges.filter((e) => e.step === 'me' && Date.parse(e.startedAt) >= after));
}

const stepIn = (run: Run, exchangeId: string | undefined) => run.exchanges.find((e) => e.id === exchangeId)?.step;

/** The engine's findings that are no request of the app's server: the link's, and those on what the browser saw (`seen`). */
function findings(run: Run, diagnosis: FlowDiagnosis, seen: ReadonlySet<string>): Pick<CheckDiagnosis, 'link' | 'page'> {
	const flagged = diagnosis.flags.filter((f) => !isServerStep(stepIn(run, f.exchangeId)) && !WORDED_BY_JUDGE.has(f.id));
	const finding = ({ severity, message, fix }: LinkFinding): LinkFinding => ({ severity, message, fix });
	// The sign-in page refused the link (7.1): its row is the verdict, and the first thing wrong with the link.
	const refusal = authorisationRefusal(run) ? flowVerdict(run, diagnosis) : null;
	const refused: LinkFinding[] = refusal
		? [{ severity: 'error', message: refusal.what, fix: refusal.fix, ...(refusal.reference?.kind === 'row' ? { row: refusal.reference } : {}) }]
		: [];
	return {
		link: [...refused, ...flagged.filter((f) => !seen.has(f.exchangeId ?? '')).map(finding)],
		page: flagged.filter((f) => seen.has(f.exchangeId ?? '')).map(finding)
	};
}

/**
 * The engine's verdict on the requests of the app's server: the live page's verdict, told over the flags about
 * those requests (the link's and the pages' are the check's link and page findings), when it is an error or a
 * warning the check did not cause. One not tied to a request is a step the server never took (a warning); an error
 * not tied to one is the redirect's, not the server's.
 */
function serverDiagnosis(run: Run, diagnosis: FlowDiagnosis, check: CheckScope['check']): ServerDiagnosis | null {
	const verdict = flowVerdict(run, { ...diagnosis, flags: diagnosis.flags.filter((f) => isServerStep(stepIn(run, f.exchangeId))) });
	if (verdict.severity !== 'error' && verdict.severity !== 'warning') return null;
	const about = verdict.exchange ? run.exchanges[verdict.exchange.n - 1] : undefined;
	if (about ? !isServerStep(about.step) || causedByCheck(run.exchanges, about, check) : verdict.severity === 'error') return null;
	const { severity, what, cause, fix, reference } = verdict;
	return { severity, step: isServerStep(about?.step) ? about.step : null, what, cause, fix, reference };
}

/**
 * What the check itself caused, no fault of the app's: the first answer of its rule's stage (what the check asked
 * for), and after its reload of the callback, any exchange but the first (the reload sends the used code again).
 */
function causedByCheck(exchanges: readonly RecordedExchange[], about: RecordedExchange, check: CheckScope['check']): boolean {
	const stage = check.rule === null ? null : ruleStage(check.rule);
	if (about === exchanges.find((e) => e.step === stage)) return true;
	return check.action === 'authorise-then-reload-callback' && about.step === 'token' && about !== exchanges.find((e) => e.step === 'token');
}

