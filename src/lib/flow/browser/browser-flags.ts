/**
 * The flow from the browser's side alone, as a customer's HAR shows it: every arrival at the redirect URI is
 * answered by the integrator's callback page, and that answer (its status, its body) says whether the app's
 * server-side step, exchanging the code, went through. A 4xx or 5xx, or a body naming an error of 7.2 or a client
 * library's message, means it failed; what the recording shows (this code's first or repeated arrival, the time
 * since the link, extra parameters on the link's redirect URI, the library's words) ranks the causes, most likely
 * first, each with the tables' fix. Also flagged: one code arriving more than once, a cancel sent straight back to
 * the authorisation page, and an arrival long after the redirect that issued its code (or, when the record lacks
 * that redirect, after the link).
 *
 * The record is read once per diagnosis (`readBrowserSide`): the arrivals, the app's answer to each and why it
 * failed, shared by the flags (`browserFlags`) and the callback's annotation (`callbackAppFailure`).
 */
import { LIMITS, SECTIONS, TOKEN_ERRORS, errorCause } from '$lib/protocol';
import { headerValue } from '$lib/http/headers';
import { formatDuration, type Annotation, type Candidate } from '../diagnose/diagnose-annotation';
import type { RecordedExchange } from '../exchange';
import type { CrossFlag } from '../flags';
import { STATE_CHECK_FIX } from '../link/lint-params';
import { linkParameter, type FlowRecord } from '../record';
import { isDefaultErrorPage } from './default-error-page';
import { ruleOf } from '../outcome-rule';
import { answerName, handlingOf } from '../handling/answer-handling';
import { serverSideOf, specialInMe, succeeded, today, type ServerSide } from '../server-side';
import { stepOfRequest } from '../steps';
import { appCallFlags } from './app-call-flags';
import { cancelLoopAdvice } from './cancel-advice';
import { tokenToBrowserFlags } from './token-to-browser';
import { browserOnly, causeSeen, unseenServerMessage } from './unseen-server';
import { stateCheckLikely } from './state-unreturned';
import { errorNames, invalidGrantEvidence, rankAcross, ruledOutCauses } from './invalid-grant-evidence';
import { type AppAnswer, type Arrival, arrivals, clock, codeAge, describeAge, describeAnswer, gap, locationOf, millis } from './browser-arrivals';

/** A new authorisation link this soon after an arrival at the redirect URI was the app's doing, not the user's. */
const RESTART_MS = 5000;

interface Failure {
	id: 'callback-failed' | 'cancel-failed';
	/** The callback's headline when it is not "the app answered …". */
	title?: string;
	/** The section of the interface the cause is in, when not the token endpoint's (4.2). */
	section?: string;
	message: string;
	candidates: Candidate[];
	fix: string;
	/** The failed step is on the app's server and out of the record's sight: no candidate is the flag's cause. */
	unseen?: true;
}

/** A cause the record only hints at, kept on the callback as one thing to check: possible, not likely. */
const guesses = (candidates: Candidate[]) => candidates.filter((c) => c.likelihood === 'likely').map((c) => ({ ...c, likelihood: 'possible' as const }));

function codeFailure(flow: FlowRecord, arrival: Arrival, all: Arrival[], answer: AppAnswer): Failure {
	const head = `Arrival ${arrival.k} at the redirect URI (exchange ${arrival.n}) brought a grant code, and your app's callback answered ${describeAnswer(arrival.exchange, answer)}`;
	const means = answer.library?.means;
	if (means === 'state')
		return {
			id: 'callback-failed',
			message: `${head}: the client library checked \`state\` on the redirect, and the service never sends \`state\` back (5.6), so the check fails on every sign-in before the code is exchanged.`,
			section: SECTIONS.authentication,
			candidates: [],
			fix: STATE_CHECK_FIX
		};
	if (means === 'token-unread')
		return {
			id: 'callback-failed',
			message: `${head}: the library got no answer from the token endpoint that it could read as the interface's JSON error (7.2): your server could not reach it, or reached another address (a wrong token URL answers an HTML 404).`,
			candidates: [],
			fix: 'Send the exchange from your server with POST to {accounts_url}/oauth/token, and check that your server reaches that host (DNS, proxy, TLS).'
		};
	const evidence = invalidGrantEvidence(flow, arrival, all);
	const named = answer.rows.length > 0;
	const rows = named ? answer.rows : TOKEN_ERRORS.filter((r) => r.id === 'token-invalid-grant' || r.id === 'token-invalid-client');
	const candidates = rankAcross(rows, evidence, ruledOutCauses(flow, arrival));
	const best = candidates[0];
	const likely = candidates.filter((c) => c.likelihood === 'likely');
	if (!causeSeen(evidence, named || answer.library !== undefined) && browserOnly(flow)) {
		if (stateCheckLikely(flow, arrival))
			return {
				id: 'callback-failed',
				message: `${head}: most likely your client library's \`state\` check. The link carries \`state\`, the redirect brought none back (the service never sends it, 5.6), and a library that checks it fails on every sign-in before the code is exchanged. The record holds only the browser's side, so that no exchange followed is not seen here: the sandbox's log for this client (one click, under Add evidence) shows it.`,
				section: SECTIONS.authentication,
				candidates: [],
				fix: STATE_CHECK_FIX
			};
		// The named rows' causes, or the guess at one, are listed on the callback, none of them told as the verdict's.
		return { id: 'callback-failed', message: unseenServerMessage(head, answer.rows), candidates: named ? candidates : guesses(candidates), fix: `To see which, ${ADD_SERVER_SIDE}.`, unseen: true };
	}
	const reading =
		likely.length > 0
			? `Most likely: ${likely.map((c) => `\`${c.causeId}\``).join(', then ')} (${errorNames(likely)}); each candidate below says why, and how to fix it.`
			: `The page does not say which cause applies; check the candidates in order${named ? '' : ', and your app\'s server log, which has the token endpoint\'s answer'}.`;
	return {
		id: 'callback-failed',
		message: `${head}: the app's server-side step (exchanging the code, 4.2) failed. ${reading}`,
		candidates,
		fix: best?.likelihood === 'likely' ? best.fix : 'Check each candidate cause below; each says how to fix it.'
	};
}

function restartFailure(flow: FlowRecord, arrival: Arrival, all: Arrival[], restart: Restart): Failure {
	const head = `Arrival ${arrival.k} at the redirect URI (exchange ${arrival.n}) brought a grant code, and your app started a new sign-in instead: ${restart.evidence}. It refused the answer, and the user is sent round again`;
	if (linkParameter(flow, 'state') !== undefined)
		return {
			id: 'callback-failed',
			title: 'A grant code arrived, but your app started a new sign-in',
			message: `${head}. The link carries \`state\`, which the service never sends back (5.6): the usual cause is the client library's \`state\` check failing (passport-oauth2 with \`state: true\` fails with "Unable to verify authorization request state" and its \`failureRedirect\` starts again).`,
			section: SECTIONS.authentication,
			candidates: [],
			fix: STATE_CHECK_FIX
		};
	const candidates = rankAcross(TOKEN_ERRORS.filter((r) => r.id === 'token-invalid-grant'), invalidGrantEvidence(flow, arrival, all), ruledOutCauses(flow, arrival));
	const best = candidates[0];
	return {
		id: 'callback-failed',
		title: 'A grant code arrived, but your app started a new sign-in',
		message: `${head}. Its client library failed on the answer (a refused exchange, or a check of its own) and sent the user to sign in again.`,
		candidates,
		fix: best?.likelihood === 'likely' ? best.fix : 'Check each candidate cause below; each says how to fix it, and your app\'s server log for what its library refused.'
	};
}

/**
 * A cancel the app answered with an error. The row of an exchange without a code (7.2) is cited only when the record
 * shows the app's server sending one after the cancel: an app may fail on a cancel without calling the service.
 */
function cancelFailure(flow: FlowRecord, arrival: Arrival, all: Arrival[], answer: AppAnswer): Failure {
	const cause = errorCause('token-invalid-request', 'missing-code');
	const head = `Arrival ${arrival.k} at the redirect URI (exchange ${arrival.n}) came back without \`code\`: the user cancelled, which is not an error (3), yet your app's callback answered ${describeAnswer(arrival.exchange, answer)}.`;
	const [exchange] = serverSideOf(flow, arrival.index, all[arrival.k]?.index, null).tokens;
	if (exchange)
		return {
			id: 'cancel-failed',
			section: SECTIONS.states,
			message: `${head} Its server then tried to exchange a code anyway (exchange ${exchange.n}).`,
			candidates: [{ rowId: 'token-invalid-request', causeId: cause.id, likelihood: 'likely', why: cause.text, fix: cause.fix }],
			fix: cause.fix
		};
	const unseen = browserOnly(flow) ? " Whether its server then called the token endpoint is not seen here: the record holds only the browser's side." : '';
	return { id: 'cancel-failed', section: SECTIONS.states, message: `${head}${unseen}`, candidates: [], fix: cause.fix };
}

/**
 * Why the app's answer to an arrival failed, with its causes; null when it did not fail. A code whose arrival the
 * app answers by starting a new sign-in was refused too (passport's `failureRedirect`); for a cancel that is the
 * cancel loop, flagged on its own.
 */
function failureOf(flow: FlowRecord, arrival: Arrival, all: Arrival[]): Failure | null {
	const { answer } = arrival;
	if (answer.failed) {
		if (arrival.code === null) return cancelFailure(flow, arrival, all, answer);
		const server = serverSideOf(flow, arrival.index, all[arrival.k]?.index, arrival.code);
		if (server.tokens.length > 0) return afterServerFailure(flow, arrival, answer, server);
		// A page of the app's own refused the code on purpose: a repeated arrival (a reload, the back button), or an
		// answer of the service the record does not hold (a deleted account's 404). Handled, so no fault is guessed;
		// the verdict says what was not observed.
		if (handledPage(arrival.exchange, answer) && (isRepeat(arrival, all) || answer.rows.length === 0)) return null;
		return codeFailure(flow, arrival, all, answer);
	}
	const restart = arrival.code === null ? null : restartAfter(flow, arrival);
	return restart ? restartFailure(flow, arrival, all, restart) : null;
}

const isRepeat = (arrival: Arrival, all: Arrival[]) => all.find((a) => a.code === arrival.code) !== arrival;

/** A page of the app's own: no server error, no client library's failure and no framework's default error page. */
const handledPage = (exchange: RecordedExchange, answer: AppAnswer) =>
	answer.status !== null &&
	answer.status < 500 &&
	answer.library === undefined &&
	!(answer.status >= 400 && isDefaultErrorPage((answer.end?.exchange ?? exchange).response?.body ?? ''));

/** How to add what the browser's side cannot show. */
export const ADD_SERVER_SIDE =
	'add the server\'s side: the sandbox\'s log for this client (one click, under Add evidence), or your server\'s HAR or curl of its token and me.json requests';

/**
 * The app's page failed, and the record holds what its server did meanwhile: a refused exchange or me.json call
 * is that request's fault (its own row says why), unless the app answered it with a page of its own, which is
 * right; when every answer was a success, the fault is the app's handling of them, named by what was special.
 */
function afterServerFailure(flow: FlowRecord, arrival: Arrival, answer: AppAnswer, server: ServerSide): Failure | null {
	const page = describeAnswer(arrival.exchange, answer);
	const head = `Arrival ${arrival.k} at the redirect URI (exchange ${arrival.n}) brought a grant code, and your app's callback answered ${page}`;
	const refused = server.tokens.find((t) => !succeeded(t)) ?? (server.tokens.some(succeeded) ? server.mes.find((m) => !succeeded(m)) : undefined);
	if (refused) {
		if (handledPage(arrival.exchange, answer)) return null;
		const step = refused.exchange.step === 'token' ? 'token exchange' : 'me.json call';
		const rule = ruleOf(refused.exchange);
		if (rule)
			return {
				id: 'callback-failed',
				title: `Your app did not handle the outcome you asked for: its callback answered ${page}`,
				section: refused.exchange.step === 'token' ? SECTIONS.errorsToken : SECTIONS.errorsMe,
				message: `${head} after the ${step} (exchange ${refused.n}) was answered ${answerName(refused.exchange)} by your outcome rule \`${rule}\`. That answer is what you asked for; the fault is that your app did not handle it.`,
				candidates: [],
				fix: `${handlingOf(refused.exchange, today(flow, refused.exchange)) ?? `Answer a refused ${step} with a page of your own (sign in again, or sign-in unavailable)`}, never a ${answer.status !== null && answer.status >= 500 ? answer.status : 'server error'}.`
			};
		return {
			id: 'callback-failed',
			title: `The ${step} failed, and your app's callback answered ${page}`,
			section: refused.exchange.step === 'token' ? SECTIONS.tokenEndpoint : SECTIONS.meEndpoint,
			message: `${head} after the ${step} (exchange ${refused.n}) was answered ${refused.exchange.response?.status}: the page failed because that request did. Exchange ${refused.n} says why.`,
			candidates: [],
			fix: `Fix what exchange ${refused.n} shows, and answer a refused ${step} with a page of your own (sign in again, or sign-in unavailable), never a ${answer.status !== null && answer.status >= 500 ? answer.status : 'server error'}.`
		};
	}
	const token = server.tokens.find(succeeded)!;
	const me = server.mes.find(succeeded);
	const specials = me ? specialInMe(me.exchange, today(flow, me.exchange)) : [];
	const seen = me
		? `the token exchange (exchange ${token.n}) and me.json (exchange ${me.n}) both answered 200`
		: `the token exchange (exchange ${token.n}) answered 200, and your app never read me.json`;
	const rule = me ? ruleOf(me.exchange) : null;
	const asked = rule ? ` It came from your outcome rule \`${rule}\`: the outcome you asked for; the question is how your app handled it.` : '';
	const special = specials.length > 0 ? ` What was special about the answer: me.json gave ${specials.map((s) => s.note).join(', and ')}.${asked}` : asked;
	return {
		id: 'callback-failed',
		title: `The service answered, but your app's callback answered ${page}`,
		section: me ? SECTIONS.userInfo : SECTIONS.tokenResponse,
		message: `${head}, though ${seen}: the service's answers were fine, so the fault is in your app's handling of them.${special}`,
		candidates: [],
		fix:
			specials.length > 0
				? specials.map((s) => s.fix).join(' ')
				: `Look in your server's log for the error raised while it handled the ${me ? 'me.json answer (2.4)' : 'token response (2.3)'}, and show the user a page of your own if it cannot go on.`
	};
}

/* ------------------------------------------------------------------ the rules */

function callbackFailedFlags(side: BrowserSide): CrossFlag[] {
	return side.arrivals.flatMap((arrival, i): CrossFlag[] => {
		const failure = side.failures[i];
		if (!failure) return [];
		return [
			{
				id: failure.id,
				severity: 'error',
				message: failure.message,
				section: failure.section ?? SECTIONS.tokenEndpoint,
				fix: failure.fix,
				exchangeId: arrival.exchange.id,
				...(failure.candidates.length > 0 && !failure.unseen ? { candidates: failure.candidates } : {})
			}
		];
	});
}

/**
 * The same code arriving again, whose later arrivals the app failed on. What used the code is said only as far as the
 * record shows it: when it holds the app's server's exchanges, the first arrival's must have succeeded (a refused
 * exchange uses no code, so a later invalid_grant is not this); from the browser's side alone, that is the condition.
 */
function codeArrivedAgainFlags(side: BrowserSide): CrossFlag[] {
	const { flow, arrivals: all } = side;
	const codes = [...new Set(all.flatMap((a) => (a.code === null ? [] : [a.code])))];
	return codes.flatMap((code): CrossFlag[] => {
		const same = all.filter((a) => a.code === code);
		if (same.length < 2) return [];
		const first = same[0]!;
		const outcomes = same.map((a) => {
			const after = a === first ? '' : `, ${gap((millis(a.exchange.startedAt) - millis(first.exchange.startedAt)) / 1000)} after the first`;
			return `arrival ${a.k} (exchange ${a.n}, ${clock(a.exchange.startedAt)}${after}) answered ${describeAnswer(a.exchange, a.answer)}`;
		});
		// Later arrivals the app answered with pages of its own are the service and the app as specified: no fault.
		if (!same.slice(1).some((a) => side.failures[a.k - 1] !== null)) return [];
		const firstExchanges = serverSideOf(flow, first.index, all[first.k]?.index, code).tokens;
		const used = firstExchanges.find(succeeded);
		if (firstExchanges.length > 0 && !used) return [];
		const spent = used
			? `the first arrival's exchange (exchange ${used.n}) used it, so every later arrival's exchange gets invalid_grant`
			: "if the first arrival's exchange succeeded, every later arrival's exchange gets invalid_grant (the record holds only the browser's side, so whether it did is not seen here)";
		return [
			{
				id: 'code-arrived-again',
				severity: 'error',
				message: `The same grant code arrived ${same.length} times at the redirect URI: ${outcomes.join('; ')}. A code works once (2.2): ${spent}.`,
				section: SECTIONS.code,
				fix: errorCause('token-invalid-grant', 'used').fix,
				exchangeId: same.at(-1)!.exchange.id
			}
		];
	});
}

/** The app sent the browser from an arrival straight to a new authorisation link: how the recording shows it. */
interface Restart {
	/** The arrival's own answer was the redirect there (else a link followed too soon for the user to have asked). */
	redirected: boolean;
	evidence: string;
}

export function restartAfter(flow: FlowRecord, arrival: Arrival): Restart | null {
	const location = headerValue(arrival.exchange.response?.headers ?? [], 'location');
	const target = locationOf(arrival.exchange);
	if (target !== undefined && stepOfRequest('GET', target) === 'link')
		return { redirected: true, evidence: `its callback answered ${arrival.exchange.response?.status} with a redirect to the authorisation page` };
	const offset = flow.exchanges.slice(arrival.index + 1).findIndex((e) => e.step === 'link');
	const next = offset === -1 ? undefined : flow.exchanges[arrival.index + 1 + offset]!;
	const seconds = next ? (millis(next.startedAt) - millis(arrival.exchange.startedAt)) / 1000 : Infinity;
	if (!next || seconds * 1000 > RESTART_MS) return null;
	const via = location === undefined ? '' : `its callback answered ${arrival.exchange.response?.status} to ${location}, and `;
	return {
		redirected: false,
		evidence: `${via}the browser opened a new authorisation link (exchange ${arrival.index + 2 + offset}) ${gap(seconds)} later, too soon for the user to have asked`
	};
}

function cancelLoopFlags(flow: FlowRecord, all: Arrival[]): CrossFlag[] {
	const advice = cancelLoopAdvice(flow.exchanges);
	return all.flatMap((arrival): CrossFlag[] => {
		if (arrival.code !== null) return [];
		const restart = restartAfter(flow, arrival);
		if (!restart) return [];
		return [
			{
				id: 'cancel-loop',
				severity: restart.redirected ? 'error' : 'warning',
				message: `The user cancelled (arrival ${arrival.k}, exchange ${arrival.n}, came back without \`code\`), and your app sent them straight back to the authorisation page: ${restart.evidence}. The user cannot cancel. ${advice.cause}`,
				section: SECTIONS.states,
				fix: advice.fix,
				exchangeId: arrival.exchange.id
			}
		];
	});
}

function slowArrivalFlags(flow: FlowRecord, all: Arrival[]): CrossFlag[] {
	return all.flatMap((arrival): CrossFlag[] => {
		const age = codeAge(flow, arrival);
		if (!age || !(age.seconds >= LIMITS.codeTtlSeconds)) return [];
		return [
			{
				id: 'slow-arrival',
				severity: 'warning',
				message: `The browser arrived at the redirect URI (arrival ${arrival.k}, exchange ${arrival.n}) ${describeAge(age)}. A code lives ${formatDuration(LIMITS.codeTtlSeconds)} from its redirect. An arrival this late is a page left open or an old redirect replayed from history or a bookmark: its code may be used or expired, and what your app kept in its session for this sign-in may be gone.`,
				section: SECTIONS.code,
				fix: errorCause('token-invalid-grant', 'expired').fix,
				exchangeId: arrival.exchange.id
			}
		];
	});
}

/** The browser's side of a flow, read once per diagnosis: its arrivals at the redirect URI and why each failed. */
export interface BrowserSide {
	flow: FlowRecord;
	arrivals: Arrival[];
	/** Each arrival's failure, by its place in `arrivals`; null when the app's answer did not fail. */
	failures: (Failure | null)[];
}

export function readBrowserSide(flow: FlowRecord): BrowserSide {
	const all = arrivals(flow);
	return { flow, arrivals: all, failures: all.map((arrival) => failureOf(flow, arrival, all)) };
}

/** What the browser's side of the flow shows is wrong: the app's answers to its arrivals at the redirect URI. */
export function browserFlags(side: BrowserSide): CrossFlag[] {
	const { flow, arrivals: all } = side;
	if (all.length === 0) return [];
	return [...callbackFailedFlags(side), ...codeArrivedAgainFlags(side), ...cancelLoopFlags(flow, all), ...slowArrivalFlags(flow, all), ...tokenToBrowserFlags(flow, all), ...appCallFlags(flow, all)];
}

/**
 * The callback's annotation when the app's own page at the redirect URI then failed: the redirect itself was fine
 * (a code, or a cancel), but the sign-in was not, so it must not read as a success. Null when the app's answer is
 * not in the record or did not fail.
 */
export function callbackAppFailure(side: BrowserSide): Annotation | null {
	const { callback } = side.flow;
	if (!callback) return null;
	const i = side.arrivals.findLastIndex((a) => a.exchange.request.url === callback.url);
	const arrival = side.arrivals[i];
	const failure = side.failures[i];
	if (!arrival || !failure) return null;
	const status = describeAnswer(arrival.exchange, arrival.answer);
	return {
		outcome: 'error',
		title:
			failure.title ??
			(arrival.code === null
				? `Cancelled by the user, but your app's callback answered ${status}`
				: `A grant code arrived, but your app's callback answered ${status}`),
		summary: failure.message,
		candidates: failure.candidates,
		fix: failure.fix
	};
}
