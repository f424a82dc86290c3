/**
 * The verdict a support engineer pastes: what happened in one sentence, the row of the tables (or the section of
 * the interface) it is, the likely cause and the fix. Chosen from the flow engine's diagnosis, generic over its
 * findings (a cross-request flag, an exchange's annotation, the callback's), so a new kind of flag needs nothing
 * here: an error over a warning, a flag that names an exchange and a fix over one that does not, and a failed
 * exchange told with the flag that explains it. A cancel is a normal outcome, not an error; a request never sent (a
 * pasted command) is no failure either, and sending it is the next step; a flow with nothing wrong says so.
 */
import { SECTIONS, errorRow, type ErrorRowId } from '$lib/protocol';
import { handlingOf } from './handling/answer-handling';
import { authorisationRefusal, type AuthorisationRefusal } from './authorisation-verdict';
import { ADD_SERVER_SIDE } from './browser/browser-flags';
import { ADD_PAGE, pageUnseen } from './browser/unseen-page';
import { arrivals } from './browser/browser-arrivals';
import { codeIn } from './callback';
import { RULE_FIX, ruleOf, ruleSentence } from './outcome-rule';
import type { Annotation } from './diagnose/diagnose';
import type { FlowDiagnosis } from './diagnose-flow';
import type { RecordedExchange, StepId } from './exchange';
import type { CrossFlag } from './flags';
import type { FlowRecord } from './record';
import { sectionAnchor } from './section-anchor';
import { today } from './server-side';

export interface Verdict {
	/**
	 * `cancel`: the user cancelled, which is normal; `unsent`: a request was never sent, so sending it is next;
	 * `unobserved`: the record cannot show whether the sign-in succeeded (only the browser's side), so adding the
	 * server's side is next; `success`: nothing to fix.
	 */
	severity: 'error' | 'warning' | 'cancel' | 'unsent' | 'unobserved' | 'success';
	/** What happened, one sentence. */
	what: string;
	/** Where the reference explains it: a row of the tables, else a section of the interface. */
	reference: { kind: 'row'; table: string; rowId: ErrorRowId; anchor: string } | { kind: 'section'; section: string; anchor: string } | null;
	/** The exchange it is about (its id and its number in the flow, from 1). */
	exchange: { id: string; n: number } | null;
	cause: string;
	fix: string;
}


const STEP_NAMES: Record<StepId, string> = { link: 'authorisation link', 'sign-in': 'sign-in page', arrival: 'redirect back', token: 'token exchange', me: 'me.json call' };

const failed = (a: Annotation | null | undefined) => a?.outcome === 'error' || a?.outcome === 'transport';

function rowReference(rowId: ErrorRowId): Verdict['reference'] {
	return { kind: 'row', table: errorRow(rowId).table, rowId, anchor: rowId };
}

function sectionReference(section: string): Verdict['reference'] {
	return section ? { kind: 'section', section, anchor: sectionAnchor(section) } : null;
}

const sentence = (text: string) => {
	const trimmed = text.trim().replace(/\s+/g, ' ');
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/** Of the flags, the most telling: errors first (the engine sorts them so), then one naming an exchange and a fix. */
function mostTelling(flags: CrossFlag[], severity: CrossFlag['severity']): CrossFlag | undefined {
	const of = flags.filter((f) => f.severity === severity);
	return of.find((f) => f.exchangeId !== undefined && f.fix !== '') ?? of.find((f) => f.fix !== '') ?? of[0];
}

function exchangeRef(flow: FlowRecord, id: string | undefined): { exchange: RecordedExchange; n: number } | null {
	const index = id === undefined ? -1 : flow.exchanges.findIndex((e) => e.id === id);
	return index === -1 ? null : { exchange: flow.exchanges[index]!, n: index + 1 };
}

/** A flag that ranks candidate causes (the app's failed callback) is told by its most likely one: its row and fix. */
function fromFlag(flow: FlowRecord, flag: CrossFlag): Verdict {
	const about = exchangeRef(flow, flag.exchangeId);
	const likeliest = flag.candidates?.[0];
	return {
		severity: flag.severity,
		what: about
			? `The ${STEP_NAMES[about.exchange.step]} (exchange ${about.n}) went wrong: ${firstSentence(flag.message)}`
			: sentence(firstSentence(flag.message)),
		reference: likeliest ? rowReference(likeliest.rowId) : sectionReference(flag.section),
		exchange: about && { id: about.exchange.id, n: about.n },
		cause: likeliest ? sentence(`${likeliest.causeId} (${likeliest.likelihood}): ${likeliest.why}`) : sentence(flag.message),
		fix: sentence(likeliest?.fix ?? flag.fix)
	};
}

const firstSentence = (text: string) => sentence(/^.*?[.!?](?=\s|$)/s.exec(text.trim())?.[0] ?? text);

/** A failed exchange, told with the flag about it if there is one (it says why), else its row's likely cause. */
function fromFailedExchange(flow: FlowRecord, index: number, annotation: Annotation, flags: CrossFlag[]): Verdict {
	const exchange = flow.exchanges[index]!;
	const about = flags.filter((f) => f.severity === 'error' && f.exchangeId === exchange.id);
	// Of the flags about it, one whose fix is a cause of the row it answered explains that answer best.
	const rowFixes = new Set(annotation.rowId ? errorRow(annotation.rowId).causes.map((c) => c.fix) : []);
	const flag = about.find((f) => rowFixes.has(f.fix)) ?? about[0];
	const likely = annotation.candidates.find((c) => c.likelihood === 'likely') ?? annotation.candidates[0];
	const cause = flag?.message ?? likely?.why ?? annotation.summary;
	const fix = flag?.fix || likely?.fix || annotation.fix || '';
	const row = annotation.rowId ?? likely?.rowId;
	return {
		severity: 'error',
		what: sentence(`The ${STEP_NAMES[exchange.step]} (exchange ${index + 1}) failed: ${annotation.title}`),
		reference: row ? rowReference(row) : flag ? sectionReference(flag.section) : null,
		exchange: { id: exchange.id, n: index + 1 },
		cause: sentence(cause),
		fix: fix ? sentence(fix) : 'See the row of the reference.'
	};
}

/**
 * A record, and how it was made when known (a saved run's `source`): a walk's or a scenario's server-side requests are
 * the explorer's own, so it is the client there, and it showed each answer.
 */
type SourcedRecord = FlowRecord & { source?: string };

const explorerIsClient = (flow: SourcedRecord) => flow.source === 'walk' || flow.source === 'scenario';

/** What an app does with an answer the interface specifies, said where the explorer was the client. */
const APP_HANDLING = 'Nothing to fix here. Your own app, given this answer, shows the user a page of its own (never a 5xx or a framework\'s default error page) and does not retry the request.';

export function flowVerdict(flow: SourcedRecord, { annotations, flags, excused }: FlowDiagnosis): Verdict {
	const refused = authorisationRefusal(flow);
	if (refused) return refusalVerdict(refused);
	// A rule's answer is what the user asked for, and a refusal the interface specifies after what the user did (a
	// deleted account, a reload) no fault of its request unless the app's page then failed: the verdict is about
	// what the app did with it.
	const failedAt = annotations.exchanges.findIndex((a, i) => failed(a) && ruleOf(flow.exchanges[i]!) === null && !excused.has(flow.exchanges[i]!.id));
	if (failedAt !== -1) return fromFailedExchange(flow, failedAt, annotations.exchanges[failedAt]!, flags);
	const error = mostTelling(flags, 'error');
	if (error) return fromFlag(flow, error);
	const unsentAt = annotations.exchanges.findIndex((a) => a?.outcome === 'unsent');
	if (unsentAt !== -1) return unsentVerdict(flow, unsentAt);
	const callback = annotations.callback;
	if (failed(callback))
		return {
			severity: 'error',
			what: sentence(`The redirect back went wrong: ${callback!.title}`),
			reference: callback!.rowId ? rowReference(callback!.rowId) : null,
			exchange: null,
			cause: sentence(callback!.summary),
			fix: sentence(callback!.fix ?? 'Check the redirect URI in the link, and what the target sends back.')
		};
	const warning = mostTelling(flags, 'warning');
	if (warning) return fromFlag(flow, warning);
	if (callback?.outcome === 'cancel') return cancelVerdict(flow, callback);
	return answeredVerdict(flow, excused) ?? unobservedVerdict(flow) ?? unfinishedVerdict(flow) ?? successVerdict(flow);
}

/**
 * No redirect back, and no exchange: the user has not come back to the app (still signing in or verifying, gone,
 * or the record stops there). Nothing failed, and nothing succeeded either: no code was delivered.
 */
function unfinishedVerdict(flow: FlowRecord): Verdict | null {
	if (flow.callback !== null || flow.exchanges.some((e) => e.step === 'token' || e.step === 'me')) return null;
	return {
		severity: 'unobserved',
		what: sentence(`The flow has not come back to your app${lastStep(flow)}: no redirect to the redirect URI was recorded, so it has neither failed nor succeeded yet`),
		reference: null,
		exchange: null,
		cause: "The user is still on the service's pages (signing in, verifying, deciding), left them, or the record stops before the redirect.",
		fix: 'Finish the sign-in in the browser: the redirect to your redirect URI, with `code` (or without it, for a cancel), completes the step.'
	};
}

/** A cancel: normal. With the service's side alone, what the app then showed the user was not observed. */
function cancelVerdict(flow: FlowRecord, callback: Annotation): Verdict {
	const unseen = pageUnseen(flow);
	return {
		severity: 'cancel',
		what: unseen
			? 'The user cancelled at the sign-in page; that is a normal outcome, not an error. How your app answered the user is not observed here.'
			: 'The user cancelled; that is a normal outcome, not an error.',
		reference: null,
		exchange: null,
		cause: sentence(callback.summary),
		fix: unseen ? `${sentence(callback.fix ?? 'Nothing to fix.')} ${ADD_PAGE}` : sentence(callback.fix ?? 'Nothing to fix.')
	};
}

/** Nothing wrong. With the service's side alone, that is the service's side's success, not the app's. */
function successVerdict(flow: FlowRecord): Verdict {
	if (pageUnseen(flow))
		return {
			severity: 'success',
			what: sentence(`The service's side succeeded${lastStep(flow)}; how your app answered the user is not observed here`),
			reference: null,
			exchange: null,
			cause: 'Nothing failed in the requests that reached the service. The page your app showed the user, and what it handed the browser, never reach the service.',
			fix: `Nothing to fix on the service's side. ${ADD_PAGE}`
		};
	return {
		severity: 'success',
		what: sentence(`The flow succeeded; nothing to fix${lastStep(flow)}`),
		reference: null,
		exchange: null,
		cause: 'Nothing failed and no check across the requests found a problem.',
		fix: 'Nothing to fix.'
	};
}

/** The authorisation page refused the link (7.1): the page's row, its words, and the cause they name. */
function refusalVerdict({ index, exchange, row, detail, cause }: AuthorisationRefusal): Verdict {
	return {
		severity: 'error',
		what: sentence(`The authorisation page (exchange ${index + 1}) refused the link and showed the user: ${row.message}`),
		reference: rowReference(row.id),
		exchange: { id: exchange.id, n: index + 1 },
		cause: sentence(detail ? `The page says: ${detail}` : (cause?.text ?? row.causes.map((c) => c.text).join(' Or: '))),
		fix: sentence(cause?.fix ?? row.causes.map((c) => c.fix).join(' Or: '))
	};
}

/** Why the service refused, as the interface specifies, after what the user did (diagnose/refused-as-specified.ts). */
const REFUSAL_WHY: Partial<Record<StepId, string>> = {
	me: 'The user asked for their account to be deleted after the token was granted: me.json answers 404 (7.3), as the interface specifies. Your app should treat the user as unknown.',
	token: 'The code had already been exchanged and the sign-in had finished; a reload or the back button sent it to your app again, and a code works once (2.2), so the service answered invalid_grant, as the interface specifies.'
};

/**
 * An answer an outcome rule produced, or a refusal the interface specifies after what the user did, with nothing
 * else wrong: no fault. With the app's page in the record (no error flag found it failing) the app handled it,
 * unless it answered a refusal as it answers a sign-in (below 400), which asks the question again; without the page
 * (the live view holds only the service's side), how the app handled it was not observed.
 */
function answeredVerdict(flow: SourcedRecord, excused: ReadonlySet<string>): Verdict | null {
	const index = flow.exchanges.findIndex((e) => ruleOf(e) !== null || excused.has(e.id));
	if (index === -1) return null;
	const exchange = flow.exchanges[index]!;
	const rule = ruleOf(exchange);
	const last = arrivals(flow).at(-1);
	// The page the user was left on: where the app's own redirects ended, else its answer at the redirect URI.
	const page = (last?.answer.end?.exchange ?? last?.exchange)?.response ?? undefined;
	const status = exchange.response?.status ?? 0;
	const answered = `The ${STEP_NAMES[exchange.step]} (exchange ${index + 1}) was answered ${status} ${rule ? 'by your outcome rule, as asked' : 'as the interface specifies'}`;
	const unclear = page !== undefined && status >= 400 && page.status < 400;
	const judged: Pick<Verdict, 'severity' | 'what' | 'fix'> = explorerIsClient(flow)
		? { severity: 'success', what: `${answered}, and the explorer, the client here, showed it: nothing to fix.`, fix: ruleFix(flow, exchange, APP_HANDLING) }
		: {
				severity: page ? (unclear ? 'warning' : 'success') : 'unobserved',
				what: !page
					? `${answered}; how your app handled it is not in this record.`
					: unclear
						? `${answered}, and your app answered ${page.status}, as for a sign-in that went through: check that it handled the refusal.`
						: `${answered}, and your app answered it with a page of its own (${page.status}): nothing to fix.`,
				fix: !page ? `${ruleFix(flow, exchange)} ${ADD_PAGE}` : unclear ? ruleFix(flow, exchange) : 'Nothing to fix.'
			};
	return {
		...judged,
		reference: rule ? null : sectionReference(exchange.step === 'me' ? SECTIONS.errorsMe : SECTIONS.code),
		exchange: { id: exchange.id, n: index + 1 },
		cause: rule ? ruleSentence(rule) : (REFUSAL_WHY[exchange.step] ?? '')
	};
}

/**
 * `lead` (what to check of the app's handling of the answer), then how that answer is handled when there is more to
 * say.
 */
function ruleFix(flow: FlowRecord, exchange: RecordedExchange, lead = RULE_FIX): string {
	const handling = handlingOf(exchange, today(flow, exchange));
	return handling ? `${lead} For this answer: ${sentence(handling)}` : lead;
}

/**
 * A code was delivered, yet the record lacks the steps that would show the sign-in succeeded (the exchange, me.json):
 * what was not observed, and how to add it. Never a success for what nobody saw. The browser's own recording never
 * holds them (the app's server makes them); a record with the server's side that lacks them says the app skipped them.
 */
function unobservedVerdict(flow: FlowRecord): Verdict | null {
	if (codeIn(flow.callback?.url) === undefined) return null;
	const exchanged = flow.exchanges.some((e) => e.step === 'token' && e.response?.status === 200);
	const read = flow.exchanges.some((e) => e.step === 'me' && e.response?.status === 200);
	if (exchanged && read) return null;
	const unseen = exchanged ? 'the me.json call' : 'the token exchange and the me.json call';
	const page = arrivals(flow).at(-1)?.exchange.response;
	if (!flow.exchanges.some((e) => e.step === 'token' || e.step === 'me') && page !== undefined)
		return {
			severity: 'unobserved',
			what: `The browser's side went as far as your app's callback${page ? ` (it answered ${page.status})` : ''}, but ${unseen} were not observed: whether the sign-in succeeded is not known.`,
			reference: sectionReference(SECTIONS.tokenEndpoint),
			exchange: null,
			cause: 'The record holds only the browser\'s requests; the exchange and me.json are made by your app\'s server, which the browser never sees.',
			fix: sentence(ADD_SERVER_SIDE[0]!.toUpperCase() + ADD_SERVER_SIDE.slice(1))
		};
	return {
		severity: 'warning',
		what: `The redirect delivered a code, but ${unseen} ${exchanged ? 'was' : 'were'} not observed: the sign-in did not finish.`,
		reference: sectionReference(exchanged ? SECTIONS.meEndpoint : SECTIONS.tokenEndpoint),
		exchange: null,
		cause: exchanged
			? 'Your app exchanged the code but never read me.json, so it knows nothing of the user\'s verification.'
			: 'No exchange of the code reached the token endpoint: your app did not make one, or sent it elsewhere (another token URL), or it is still to come.',
		fix: exchanged
			? 'After the exchange, read /api/v3/me.json with the access token (Authorization: Bearer, and a User-Agent).'
			: 'On the callback, exchange `code` from your server with POST to {accounts_url}/oauth/token, with the client secret and the link\'s exact `redirect_uri`.'
	};
}

function unsentVerdict(flow: FlowRecord, index: number): Verdict {
	const exchange = flow.exchanges[index]!;
	return {
		severity: 'unsent',
		what: `The ${STEP_NAMES[exchange.step]} (exchange ${index + 1}) has not been sent yet: nothing has answered it.`,
		reference: null,
		exchange: { id: exchange.id, n: index + 1 },
		cause: 'The request was recorded (pasted), not sent, so there is no answer to diagnose. That is not a failure.',
		fix: 'Send it to see what the service answers: Send, in the timeline (a request whose secret was redacted when it was saved is pasted again under Add evidence, with send it now); or add the response it got as evidence.'
	};
}

function lastStep(flow: FlowRecord): string {
	const last = flow.exchanges.at(-1);
	if (!last?.response) return flow.callback ? ' (it went as far as the redirect back)' : '';
	return ` (the last step, the ${STEP_NAMES[last.step]}, answered ${last.response.status})`;
}
