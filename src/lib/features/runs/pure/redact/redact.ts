/**
 * Redaction of a run before it is stored or exported. Removes client secrets, access and refresh tokens,
 * passwords, cookies and Authorization payloads wherever they appear: by name (query and form parameters, JSON
 * fields, headers), then every other occurrence of each value found, in every form a server could write it in
 * (`encodedForms`: encoded for a URL, HTML or JSON, encoded twice, in another Unicode spelling, in base64). Grant codes are kept, because they are single use and short-lived and a diagnosis
 * needs them (the same code exchanged twice, a code sent to me.json), but each place is marked.
 *
 * Each redaction is recorded as what and where, never the value. Redacting a redacted run changes nothing.
 *
 * The pieces: the texts of a run (redact-texts.ts), the first pass by name (redact-name.ts), the second by value
 * (redact-search.ts), the redacted run's pieces and their assembly (redact-assembly.ts). Here: the two passes over
 * a whole run, and what is kept of a run's last redaction so that a walk saved after each step costs the step.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import type { Frozen } from '$lib/frozen';
import { setRecent } from '$lib/recent';
import { assembleRun, type RedactedExchange, type RedactedRun } from './redact-assembly';
import { WHAT, codesIn, redactByName, searchable, type NamedPart, type Needle } from './redact-name';
import { redactBySearch, searchesOf, type Search } from './redact-search';
import { LINK_PLACE, exchangePlace, mapExchangeAt, mapHead } from './redact-texts';
import type { Run } from '../run';
import { keepTokenTails } from './token-tails';

export { assembleRun, describeRedactions, type RedactedExchange, type RedactedRun } from './redact-assembly';
export { WHAT } from './redact-name';
export { CALLBACK_PLACE, LINK_PLACE, exchangePlace } from './redact-texts';

export interface KnownSecrets {
	clientSecrets?: string[];
	tokens?: string[];
}

/** The grant codes the exchanges carry from index `from` on, in order. */
function exchangeCodes(exchanges: RecordedExchange[], from = 0): string[] {
	return exchanges.slice(from).flatMap((e, i) => codesIn(e, mapExchangeAt(from + i)));
}

/** Every grant code the run carries. */
export function grantCodes(frozen: Frozen<Run>): Set<string> {
	const run = frozen as Run;
	return new Set([...codesIn(run, mapHead), ...exchangeCodes(run.exchanges)]);
}

/**
 * Whether redaction found the client secret's value in the authorisation link under another name than
 * `client_secret` (a parameter so named is the linter's finding): the redacted link no longer shows it.
 */
export function secretFoundInLink(run: Pick<Run, 'exchanges' | 'redactions'>): boolean {
	const linkPlaces = [LINK_PLACE, ...run.exchanges.flatMap((e, i) => (e.step === 'link' ? [`${exchangePlace(i, e)} URL`] : []))];
	return run.redactions.some(
		(r) => r.what === WHAT.clientSecret && linkPlaces.some((p) => r.where.startsWith(p)) && !r.where.endsWith('parameter client_secret')
	);
}

/**
 * The exchanges' share of a run's redaction, kept so that the next redaction of the same run, grown by some
 * exchanges, redoes only what changed. `named` and `pieces` hold one entry per exchange, in order.
 */
interface ExchangesShare {
	exchanges: RecordedExchange[];
	/** The grant codes the exchanges carry, in order, repeats included. */
	codes: string[];
	/** The run's codes (head and exchanges) the first pass used, as a sorted JSON list. */
	codesKey: string;
	/** The first pass over each exchange, which hides values by their name and learns them. */
	named: NamedPart<RecordedExchange>[];
	/** Every value the first pass learnt from the exchanges, each once, named as it was first found. */
	learnt: Needle[];
	learntValues: Set<string>;
	/** What the second pass searched for, and a key equal for equal searches. */
	searches: Search[];
	searchesKey: string;
	pieces: RedactedExchange[];
}

function startsWith(exchanges: RecordedExchange[], prefix: RecordedExchange[]): boolean {
	return prefix.length <= exchanges.length && prefix.every((e, i) => exchanges[i] === e);
}

/** Adds each of `found` whose value is not yet in `values`. */
function learn(learnt: Needle[], values: Set<string>, found: Needle[]): void {
	for (const needle of found) {
		if (values.has(needle.value)) continue;
		values.add(needle.value);
		learnt.push(needle);
	}
}

/**
 * Two passes over the whole run: first each part (the head, then each exchange) hides values by their name and
 * learns them; then every part is searched for every value known or learnt anywhere in the run.
 *
 * With `previous`, the share of an earlier redaction of this run whose exchanges the run starts with, each pass
 * keeps what it made of those exchanges as long as what it depends on is unchanged (the run's grant codes for the
 * first, the values searched for the second), and does only the new exchanges: a walk that grows by a step costs
 * the step, not the walk. The result is the same as without `previous`, and a kept exchange's piece is the very
 * object `previous` holds.
 */
function redactGrowing(run: Run, known: KnownSecrets, previous?: ExchangesShare): { redacted: RedactedRun; share: ExchangesShare } {
	const earlier = previous && startsWith(run.exchanges, previous.exchanges) ? previous : undefined;
	const kept = earlier?.exchanges.length ?? 0;
	const exchanges = run.exchanges.slice();

	const codesOfExchanges = [...(earlier?.codes ?? []), ...exchangeCodes(exchanges, kept)];
	const codes = new Set([...codesIn(run, mapHead), ...codesOfExchanges]);
	const codesKey = JSON.stringify([...codes].sort());
	const head = redactByName(run, mapHead, codes);

	const namedKept = earlier?.codesKey === codesKey ? kept : 0;
	const named = earlier && namedKept ? earlier.named.slice() : [];
	const learnt = earlier && namedKept ? earlier.learnt.slice() : [];
	const learntValues = new Set(earlier && namedKept ? earlier.learntValues : []);
	for (let i = namedKept; i < exchanges.length; i++) {
		// The token's tail is kept before the token is hidden: it matches evidence added later (join.ts).
		const part = redactByName(keepTokenTails(exchanges[i]!), mapExchangeAt(i), codes);
		named.push(part);
		learn(learnt, learntValues, part.needles);
	}

	// Each value once, named as it was first found (the exchanges' values are already each once).
	const needles: Needle[] = [];
	learn(needles, new Set(), [
		...(known.clientSecrets ?? []).map((value) => ({ what: WHAT.clientSecret, value })),
		...(known.tokens ?? []).map((value) => ({ what: WHAT.token, value })),
		...head.needles,
		...learnt
	]);
	const searched = needles.filter((n) => searchable(n.value));
	const searchesKey = JSON.stringify(searched.map((n) => [n.what, n.value]));
	const searches = earlier?.searchesKey === searchesKey ? earlier.searches : searchesOf(searched);

	const piecesKept = namedKept === kept && earlier?.searchesKey === searchesKey ? kept : 0;
	const pieces = earlier && piecesKept ? earlier.pieces.slice() : [];
	for (let i = piecesKept; i < exchanges.length; i++) {
		const part = named[i]!;
		const found = redactBySearch(part.value, mapExchangeAt(i), searches);
		pieces.push(frozen({ exchange: found.value, named: part.redactions, searched: found.redactions }));
	}

	const searchedHead = redactBySearch(head.value, mapHead, searches);
	return {
		redacted: {
			head: { ...searchedHead.value, exchanges: [], redactions: run.redactions },
			headRedactions: { named: head.redactions, searched: searchedHead.redactions },
			exchanges: pieces
		},
		share: { exchanges, codes: codesOfExchanges, codesKey, named, learnt, learntValues, searches, searchesKey, pieces }
	};
}

/** `value`, frozen at every depth: a piece is given back by later redactions of its run, so no one may change it. */
function frozen<T>(value: T): Frozen<T> {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		for (const inner of Object.values(value)) frozen(inner);
		Object.freeze(value);
	}
	return value as Frozen<T>;
}

/** Runs whose exchanges' share is kept for their next redaction, most recently redacted last. */
const REMEMBERED_RUNS = 64;

/**
 * The exchanges' share of the last redaction of each run (by run id). A walk is saved after each step, one
 * exchange longer: its next redaction redoes only what changed (see `redactGrowing`). An exchange is known by
 * identity, which is why a run's exchanges are `Frozen`.
 */
const shares = new Map<string, ExchangesShare>();

/** `redactRun` in the pieces a store keeps (see `RedactedRun`). */
export function redactRunInParts(run: Frozen<Run>, known: KnownSecrets = {}): RedactedRun {
	// The redaction only reads the run: it builds new objects for every part it redacts.
	const { redacted, share } = redactGrowing(run as Run, known, shares.get(run.id));
	setRecent(shares, run.id, share, REMEMBERED_RUNS);
	return redacted;
}

export function redactRun(run: Frozen<Run>, known: KnownSecrets = {}): Run {
	return assembleRun(redactRunInParts(run, known));
}
