/**
 * The sandbox's own log as evidence for a run: whether the log may hold the run's flow (a run on the sandbox's
 * hosts, walked or imported), and which of its entries are the run's, told by the run's client and codes.
 */
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { codeIn } from '$lib/flow/callback';
import { requestClientId } from '$lib/flow/request-params';
import type { LogEntry } from '$lib/http/logged-exchange';
import { stepOfRequest } from '$lib/flow/steps';
import type { Evidence } from './join';
import { originOf, type Run, type SandboxHosts } from './run';
import { exchangeCode, exchangeToken, tokenTailsOf } from './redact/token-tails';
import { sameSecret } from '$lib/http/secret-tail';
import { isPlaceholder } from '$lib/http/placeholder';


/**
 * Whether the sandbox's log may hold the run's flow: the run's target is the built-in sandbox, or every host the
 * run reached is one of the sandbox's (a HAR, curl command or raw HTTP recorded against it and imported). Which
 * entries are the run's is then told by its client and codes (sandboxLogEvidence).
 */
export function onSandboxHosts(run: Pick<Run, 'target'>, sandbox: SandboxHosts): boolean {
	if (run.target.kind === 'sandbox') return true;
	const own = new Set([originOf(sandbox.authUrl), originOf(sandbox.accountsUrl)]);
	const reached = [run.target.authUrl, run.target.accountsUrl].filter((url) => url !== '');
	return reached.length > 0 && reached.every((url) => own.has(originOf(url)));
}

const LOG_LABELS: Record<Exclude<StepId, 'sign-in' | 'arrival'>, string> = {
	link: "the sandbox's log: the authorisation link",
	token: "the sandbox's log: the token exchange",
	me: "the sandbox's log: the me.json call"
};

/** After a cancel, how long the client's token exchanges without a code are taken as this flow's. */
const AFTER_CANCEL_MS = 10 * 60 * 1000;

interface LoggedStep {
	exchange: RecordedExchange;
	/** Real time when it arrived. */
	ms: number;
}

/** A me.json call that presents one of the run's grant codes as its token (an app's mistake, 5.4) is the run's too. */
export const presentsCode = (me: RecordedExchange, codes: readonly string[]) => codes.some((code) => sameSecret(exchangeToken(me), code));

/**
 * The sandbox's log entries of this run's flow, oldest first, as evidence. The log holds every flow of the client
 * (other walks, other people's), so only this one's are taken: the token exchanges of the run's grant codes (after
 * a cancel, the client's exchanges without a code that soon followed), the me.json calls made with the tokens they
 * or the run issued (or with one of its codes, by mistake), and the client's authorisation link that started it (the last one before the redirect back).
 */
export function sandboxLogEvidence(entries: readonly LogEntry[], clientId: string, run: Pick<Run, 'exchanges' | 'callback'>, logCapacity: number): Evidence {
	const steps = entries
		// Written (wall time) as the response ended: it arrived its duration earlier.
		.map(({ at, entry }) => ({ entry, ms: Date.parse(at) - entry.durationMs }))
		.sort((a, b) => a.ms - b.ms)
		.flatMap(({ entry, ms }, i): LoggedStep[] => {
			const step = stepOfRequest(entry.request.method, entry.request.url);
			if (!step) return [];
			const sandboxMs = Date.parse(entry.sandboxAt);
			const exchange: RecordedExchange = {
				id: `log-${i + 1}`,
				step,
				label: LOG_LABELS[step],
				startedAt: new Date(ms).toISOString(),
				// Real time, and the sandbox's lead then: what the code's age is read on (flow-time.ts).
				sandboxOffsetMs: sandboxMs - ms,
				durationMs: entry.durationMs,
				request: entry.request,
				response: entry.response,
				failure: entry.response ? null : { kind: 'unreachable', message: 'The client went away before the sandbox answered.' },
				masked: []
			};
			return [{ exchange, ms }];
		});
	const ofClient = steps.filter((s) => s.exchange.step !== 'me' && requestClientId(s.exchange.request) === clientId);
	const codes = [codeIn(run.callback?.url), ...run.exchanges.map(exchangeCode)].filter((c): c is string => c !== undefined);
	const callbackMs = run.callback ? Date.parse(run.callback.receivedAt) : NaN;
	// The redirect back is on real time, as every record's (a walk keeps the sandbox's lead beside it: flow-time.ts).
	const before = (s: LoggedStep, ms: number) => s.ms <= ms;
	const cancelled = run.callback !== null && codeIn(run.callback.url) === undefined;
	const tokens = ofClient.filter(
		(s) =>
			s.exchange.step === 'token' &&
			(codes.some((code) => sameSecret(exchangeCode(s.exchange), code)) ||
				(cancelled && !exchangeCode(s.exchange) && !before(s, callbackMs) && before(s, callbackMs + AFTER_CANCEL_MS)))
	);
	const tails = new Set([...tokens.map((s) => s.exchange), ...run.exchanges].filter((e) => e.step === 'token').flatMap(tokenTailsOf));
	const mes = steps.filter((s) => s.exchange.step === 'me' && (tokenTailsOf(s.exchange).some((t) => tails.has(t)) || presentsCode(s.exchange, codes)));
	const firstToken = tokens[0]?.ms ?? Infinity;
	const link = ofClient.filter((s) => s.exchange.step === 'link' && (Number.isNaN(callbackMs) ? s.ms <= firstToken : before(s, callbackMs) && s.ms <= firstToken)).at(-1);
	const taken = new Set([link, ...tokens, ...mes]);
	const exchanges = steps.filter((s) => taken.has(s)).map((s) => s.exchange);
	const shortfall = tokens.length > 0 || cancelled ? undefined : whyNoTokenExchange(ofClient.filter((s) => s.exchange.step === 'token').length, clientId, codes, logCapacity);
	return { source: 'sandbox-log', timed: true, record: { link: null, callback: null, exchanges }, redactions: [], ...(shortfall ? { shortfall } : {}) };
}

/**
 * Why the log gave none of the flow's token exchanges: a run whose code was sanitised, or that has none, cannot be
 * told apart from the client's other flows; otherwise its exchanges were never logged here or were pushed out.
 */
function whyNoTokenExchange(clientExchanges: number, clientId: string, codes: readonly string[], logCapacity: number): string {
	const held = `The sandbox's log holds ${clientExchanges} token exchange${clientExchanges === 1 ? '' : 's'} of client ${clientId}`;
	const known = codes.filter((code) => !isPlaceholder(code));
	if (clientExchanges > 0 && known.length === 0) {
		const what = codes.length > 0 ? `this run's grant code was replaced by a sanitiser (${codes[0]})` : 'this run has no grant code';
		return `${held}, but ${what}, so none can be told to be this flow's. Record the flow again without sanitising the code, or save it from the client's live page while it happens.`;
	}
	if (clientExchanges > 0) {
		return `${held}, none of them with this run's grant code: the app never exchanged it here, or the log has pushed it out (it keeps each workspace's newest ${logCapacity} requests).`;
	}
	return `${held}: the app never exchanged a code with this sandbox, or the log has pushed its requests out (it keeps each workspace's newest ${logCapacity} requests).`;
}
