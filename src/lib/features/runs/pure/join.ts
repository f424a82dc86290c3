/**
 * Evidence joined to a saved run: what the integrator's server sent (curl commands, raw HTTP, a server-side HAR)
 * or the sandbox's own log of the client, added to the run's exchanges so that one timeline holds the front
 * channel (the browser's) and the back channel (the client's server), and the flow engine's cross-request checks
 * run over the whole.
 *
 * Placing: where the evidence and the run both have times (a HAR, the sandbox's log, a walk), by time. Otherwise
 * (a pasted curl command has no time) after the exchange it matches: a token exchange after the redirect that
 * carried its grant code, a me.json call after the token exchange that issued its access token, else after the
 * last exchange of an earlier step. Codes are kept in a saved run; tokens are not, so a token is matched by its
 * last characters (token-tails.ts), which a saved run keeps and the sandbox's log shows.
 *
 * An exchange the run already holds (the same step, code or token, and answer; close in time when both are
 * timed, unless both are accepted token exchanges of one code, which a code allows only once) is not added twice; one that comes with the answer the run's copy lacks takes its place. The evidence
 * is given before redaction, and the joined run must be redacted whole before it is stored (runs.ts does), so a
 * secret the evidence carries is hidden everywhere, and redaction's places are renumbered here.
 */
import type { ExchangeEvidence, EvidenceSource, RecordedExchange, StepId } from '$lib/flow/exchange';
import { codeIn } from '$lib/flow/callback';
import type { FlowRecord } from '$lib/flow/record';
import { requestParam } from '$lib/flow/request-params';
import type { SanitisedExport } from '$lib/flow/flags';
import { inferTarget, type Redaction, type Run } from './run';
import { exchangeCode, tokenTailsOf } from './redact/token-tails';
import { sameSecret, secretKey } from '$lib/http/secret-tail';

/** What is added: the exchanges read from it, and the link and callback when it has them (a browser's HAR). */
export interface Evidence {
	source: EvidenceSource;
	/** Whether its exchanges' `startedAt` are when they happened, or only when they were pasted. */
	timed: boolean;
	record: Pick<FlowRecord, 'link' | 'callback' | 'exchanges'>;
	/** What the evidence's own import redacted, its places numbered among the evidence's exchanges. */
	redactions: Redaction[];
	/** A HAR exported sanitised: the run's note says so (its exchanges carry their own mark). */
	sanitised?: SanitisedExport;
	/** Why it holds less than the person may expect (none of the flow's token exchanges), and how to get more. */
	shortfall?: string;
}

export interface Joined {
	run: Run;
	/** The exchanges added, as placed (ids of the joined run). */
	added: string[];
	/** How many of the evidence's exchanges the run already held. */
	duplicates: number;
	/** Of those, how many brought the answer (or the failure) the run's copy lacked, which took its place. */
	answered: number;
}

/**
 * The front channel is the browser's: the link, the redirect, and anything a browser sent, which carries an Origin
 * or the `Sec-Fetch-*` headers only browsers send (a me.json call made from the page, or opened in a tab, has no
 * Origin). The back channel is the client's server's.
 */
export type Channel = 'front' | 'back';

/**
 * Headers only a browser sends. Not `Sec-Fetch-Mode` alone: Node's own fetch (undici) sends `sec-fetch-mode: cors`
 * on every request, so an app's server using it would pass for a browser.
 */
const sentByBrowser = (name: string) => name === 'origin' || name === 'sec-fetch-site' || name === 'sec-fetch-dest';

export function channelOf(exchange: RecordedExchange): Channel {
	if (exchange.step === 'link' || exchange.step === 'sign-in' || exchange.step === 'arrival') return 'front';
	return exchange.request.headers.some((h) => sentByBrowser(h.name.toLowerCase())) ? 'front' : 'back';
}

/** Each source of evidence, for a person. */
export const EVIDENCE_NAMES: Record<EvidenceSource, string> = {
	curl: 'a pasted curl command',
	http: 'a pasted HTTP exchange',
	har: 'a HAR',
	'sandbox-log': "the sandbox's log",
	sent: 'a request sent from the run'
};

const STEP_ORDER: Record<StepId, number> = { link: 0, 'sign-in': 1, arrival: 2, token: 3, me: 4 };

/** Whether an exchange's time is when it happened: any exchange of the run itself, and timed evidence. */
const isTimed = (e: RecordedExchange) => e.evidence?.timed !== false;

const CLOSE_MS = 5000;

function answersCompatible(a: RecordedExchange, b: RecordedExchange): boolean {
	return !a.response || !b.response || a.response.status === b.response.status;
}

const pathOf = (url: string) => (URL.canParse(url) ? new URL(url).pathname : url);

const sharesTail = (a: RecordedExchange, b: RecordedExchange) => {
	const tails = new Set(tokenTailsOf(a));
	return tokenTailsOf(b).some((t) => tails.has(t));
};

/** Whether two records are of the same exchange (see the module's note). */
export function sameExchange(a: RecordedExchange, b: RecordedExchange): boolean {
	if (a.step !== b.step || a.request.method.toUpperCase() !== b.request.method.toUpperCase() || !answersCompatible(a, b)) return false;
	// A code is accepted once: two accepted exchanges of one code are one exchange, whatever the clocks that timed
	// them say (a server's HAR may be minutes off the browser's).
	const accepted = a.step === 'token' && a.response?.status === 200 && b.response?.status === 200;
	// The cheap tests first: an app's thousand exchanges of one code are told apart by time before any URL is parsed.
	if (!accepted && isTimed(a) && isTimed(b) && Math.abs(Date.parse(a.startedAt) - Date.parse(b.startedAt)) > CLOSE_MS) return false;
	if (pathOf(a.request.url) !== pathOf(b.request.url)) return false;
	if (accepted) return sameSecret(exchangeCode(a), exchangeCode(b));
	switch (a.step) {
		case 'token':
			return sameSecret(exchangeCode(a), exchangeCode(b));
		case 'me':
			return sharesTail(a, b);
		case 'sign-in':
		case 'arrival':
			return sameSecret(exchangeCode(a), exchangeCode(b));
		case 'link':
			return ['client_id', 'state', 'redirect_uri'].every((name) => requestParam(a.request, name) === requestParam(b.request, name));
	}
}

/**
 * The keys under which an exchange can meet its copy: what `sameExchange` requires equal (the step, method and
 * path, and the code, a token's tail, or the link's parameters). None when it can match nothing (a token exchange
 * without a code).
 */
function matchKeys(e: RecordedExchange): string[] {
	const at = `${e.step} ${e.request.method.toUpperCase()} ${pathOf(e.request.url)} `;
	if (e.step === 'link') return [at + ['client_id', 'state', 'redirect_uri'].map((name) => requestParam(e.request, name) ?? '\u0000').join(' ')];
	if (e.step === 'me') return tokenTailsOf(e).map((tail) => at + tail);
	const code = exchangeCode(e);
	return code ? [at + secretKey(code)] : [];
}

/** The exchanges of a run by their match keys, so that each piece of evidence finds its copy without a pass over all. */
class CopyIndex {
	private readonly byKey = new Map<string, RecordedExchange[]>();
	constructor(exchanges: readonly RecordedExchange[]) {
		for (const e of exchanges) this.add(e);
	}
	add(e: RecordedExchange): void {
		for (const key of matchKeys(e)) {
			const held = this.byKey.get(key);
			if (held) held.push(e);
			else this.byKey.set(key, [e]);
		}
	}
	replace(held: RecordedExchange, by: RecordedExchange): void {
		for (const key of matchKeys(held)) this.byKey.set(key, this.byKey.get(key)!.filter((e) => e !== held));
		this.add(by);
	}
	/** The first exchange of `exchanges` (in their order) that is `read`'s copy; -1 when none is. */
	copyOf(exchanges: readonly RecordedExchange[], read: RecordedExchange): number {
		const candidates = new Set(matchKeys(read).flatMap((key) => this.byKey.get(key) ?? []));
		const places = [...candidates].filter((e) => sameExchange(e, read)).map((e) => exchanges.indexOf(e));
		return places.length === 0 ? -1 : Math.min(...places);
	}
}

/** Where an untimed exchange goes: after the exchange it matches, else after the last of an earlier step. */
function anchorOf(exchanges: RecordedExchange[], added: RecordedExchange, callbackUrl: string | undefined): { at: number; by: ExchangeEvidence['matchedBy'] } {
	const lastIndex = (test: (e: RecordedExchange) => boolean) => exchanges.findLastIndex(test);
	if (added.step === 'token') {
		const code = exchangeCode(added);
		const at = lastIndex((e) => sameSecret(exchangeCode(e), code));
		if (at !== -1) return { at, by: 'code' };
		if (sameSecret(codeIn(callbackUrl), code)) return { at: lastIndex((e) => channelOf(e) === 'front'), by: 'code' };
	}
	if (added.step === 'me') {
		const at = lastIndex((e) => (e.step === 'token' || e.step === 'me') && sharesTail(e, added));
		if (at !== -1) return { at, by: 'token' };
	}
	return { at: lastIndex((e) => STEP_ORDER[e.step] <= STEP_ORDER[added.step]), by: 'step' };
}

/** Where a timed exchange goes: after the last timed one that started no later, and what was placed after that one. */
function timedPlace(exchanges: RecordedExchange[], added: RecordedExchange, msOf: (e: RecordedExchange) => number): number {
	const time = msOf(added);
	let at = exchanges.findLastIndex((e) => isTimed(e) && msOf(e) <= time);
	while (at + 1 < exchanges.length && !isTimed(exchanges[at + 1]!)) at++;
	return at + 1;
}

function uniqueId(taken: Set<string>, source: EvidenceSource): string {
	for (let n = taken.size + 1; ; n++) {
		const id = `${source}-${n}`;
		if (!taken.has(id)) return id;
	}
}

const PLACE = /^exchange (\d+) \(/;

/**
 * Redaction places renumbered after the exchanges moved: `moved` maps an old index to its new one. A place in an
 * exchange that was not kept (evidence the run already held) goes.
 */
function renumber(redactions: Redaction[], moved: Map<number, number>): Redaction[] {
	return redactions.flatMap((r) => {
		const match = PLACE.exec(r.where);
		if (!match) return [r];
		const to = moved.get(Number(match[1]) - 1);
		return to === undefined ? [] : [{ ...r, where: r.where.replace(PLACE, `exchange ${to + 1} (`) }];
	});
}

export function joinEvidence(run: Run, evidence: Evidence): Joined {
	const exchanges = run.exchanges.slice();
	const taken = new Set(exchanges.map((e) => e.id));
	const added: RecordedExchange[] = [];
	/** The id each of the evidence's exchanges got, by its index (none for a duplicate). */
	const placed: (string | undefined)[] = [];
	let duplicates = 0;
	let answered = 0;
	const anyTimed = () => exchanges.some(isTimed);
	// Indexed and each time parsed once, so that joining a log to a run of thousands of exchanges stays linear.
	const copies = new CopyIndex(exchanges);
	const times = new WeakMap<RecordedExchange, number>();
	const msOf = (e: RecordedExchange) => times.get(e) ?? times.set(e, Date.parse(e.startedAt)).get(e)!;
	for (const [i, read] of evidence.record.exchanges.entries()) {
		const tagged: RecordedExchange = { ...read, id: '', evidence: { source: evidence.source, timed: evidence.timed, matchedBy: 'step' } };
		const copy = copies.copyOf(exchanges, tagged);
		if (copy !== -1) {
			duplicates++;
			const held = exchanges[copy]!;
			// The answer the run's copy lacked (a curl command pasted without one) comes with the evidence.
			if (!held.response && (tagged.response !== null || tagged.failure !== null)) {
				answered++;
				exchanges[copy] = { ...tagged, id: held.id, evidence: { ...tagged.evidence!, matchedBy: held.evidence?.matchedBy ?? 'step' } };
				copies.replace(held, exchanges[copy]);
				placed[i] = held.id;
			}
			continue;
		}
		tagged.id = uniqueId(taken, evidence.source);
		taken.add(tagged.id);
		placed[i] = tagged.id;
		if (evidence.timed && anyTimed()) {
			tagged.evidence = { ...tagged.evidence!, matchedBy: 'time' };
			exchanges.splice(timedPlace(exchanges, tagged, msOf), 0, tagged);
		} else {
			const anchor = anchorOf(exchanges, tagged, run.callback?.url ?? evidence.record.callback?.url);
			tagged.evidence = { ...tagged.evidence!, matchedBy: anchor.by };
			let at = anchor.at + 1;
			// After evidence placed at the same anchor before it, so pasted exchanges keep their order.
			while (at < exchanges.length && !isTimed(exchanges[at]!) && STEP_ORDER[exchanges[at]!.step] <= STEP_ORDER[tagged.step]) at++;
			exchanges.splice(at, 0, tagged);
		}
		copies.add(tagged);
		added.push(tagged);
	}
	const places = new Map(exchanges.map((e, i) => [e.id, i]));
	const placeOf = (id: string) => places.get(id) ?? -1;
	const moved = new Map(run.exchanges.map((e, i) => [i, placeOf(e.id)]));
	const evidenceMoved = new Map(evidence.record.exchanges.flatMap((_, i) => (placed[i] === undefined ? [] : [[i, placeOf(placed[i])] as const])));
	const link = run.link ?? evidence.record.link;
	const fill = inferTarget(link, exchanges);
	return {
		run: {
			...run,
			link,
			callback: run.callback ?? evidence.record.callback,
			target: { ...run.target, authUrl: run.target.authUrl || fill.authUrl, accountsUrl: run.target.accountsUrl || fill.accountsUrl },
			exchanges,
			redactions: [...renumber(run.redactions, moved), ...renumber(evidence.redactions, evidenceMoved)],
			...((run.sanitised ?? evidence.sanitised) ? { sanitised: run.sanitised ?? evidence.sanitised } : {})
		},
		added: added.map((e) => e.id),
		duplicates,
		answered
	};
}

/* ------------------------------------------------------------------ the timeline */

/** One exchange of a run as the timeline shows it: which channel, where it came from, what it ended with. */
export interface TimelineEntry {
	id: string;
	n: number;
	step: StepId;
	channel: Channel;
	/** Where it came from, for a person: "the run itself", "a pasted curl command". */
	source: string;
	/** How an added exchange was placed; null for the run's own. */
	matchedBy: ExchangeEvidence['matchedBy'] | null;
	request: string;
	/** "200 OK", or null when no answer was recorded. */
	status: string | null;
	/** When it happened, when that is known. */
	at: string | null;
}

export function timelineOf(run: Pick<Run, 'exchanges'>): TimelineEntry[] {
	return run.exchanges.map((e, i) => ({
		id: e.id,
		n: i + 1,
		step: e.step,
		channel: channelOf(e),
		source: e.evidence ? EVIDENCE_NAMES[e.evidence.source] : 'the run itself',
		matchedBy: e.evidence?.matchedBy ?? null,
		request: `${e.request.method} ${URL.canParse(e.request.url) ? new URL(e.request.url).pathname : e.request.url}`,
		status: e.response ? `${e.response.status} ${e.response.statusText}`.trim() : e.failure ? `no answer (${e.failure.kind})` : null,
		at: isTimed(e) ? e.startedAt : null
	}));
}

/* ------------------------------------------------------------------ a walk that goes on */

/**
 * A walk's run saved again after evidence was added to it: the walk's exchanges as the walk holds them, the
 * evidence where it was placed, and the walk's new steps after. Without this the walk's next step would save
 * its own exchanges only and drop the evidence.
 */
export function keepAddedEvidence(walked: Run, stored: Pick<Run, 'exchanges' | 'redactions'> | undefined): Run {
	if (!stored?.exchanges.some((e) => e.evidence)) return walked;
	const fresh = new Map(walked.exchanges.map((e) => [e.id, e]));
	const kept = stored.exchanges.flatMap((e) => (e.evidence ? [e] : fresh.has(e.id) ? [fresh.get(e.id)!] : []));
	const placed = new Set(kept.map((e) => e.id));
	// The stored order is kept, so each place the stored redactions name is still the same exchange.
	return { ...walked, exchanges: [...kept, ...walked.exchanges.filter((e) => !placed.has(e.id))], redactions: [...stored.redactions, ...walked.redactions] };
}
