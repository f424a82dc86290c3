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
 * a whole run.
 */
import type { Frozen } from '$lib/frozen';
import { assembleRun, type RedactedExchange, type RedactedRun } from './redact-assembly';
import { WHAT, codesIn, redactByName, searchable, type NamedPart, type Needle } from './redact-name';
import { redactBySearch, searchesOf } from './redact-search';
import { LINK_PLACE, exchangePlace, mapExchangeAt, mapHead } from './redact-texts';
import type { Run } from '../run';
import type { RecordedExchange } from '$lib/flow/exchange';
import { keepTokenTails } from './token-tails';

export { assembleRun, describeRedactions, type RedactedExchange, type RedactedRun } from './redact-assembly';
export { WHAT } from './redact-name';
export { CALLBACK_PLACE, LINK_PLACE, exchangePlace } from './redact-texts';

export interface KnownSecrets {
	clientSecrets?: string[];
	tokens?: string[];
}

/**
 * One exchange's part in its run's redaction, kept from the last time that exchange object was redacted: a walk is
 * saved whole after every step, and its earlier exchanges are the same objects each time. Invalidation: a result is
 * used again only for the same exchange object at the same index, redacted with the same grant codes (first pass)
 * and the same codes and values searched for (second pass).
 */
interface ExchangeMemo {
	index: number;
	codes: string[];
	named?: { key: string; part: NamedPart<RecordedExchange> };
	redacted?: { key: string; piece: RedactedExchange };
}
const exchangeMemos = new WeakMap<Frozen<RecordedExchange>, ExchangeMemo>();

function memoOf(exchange: Frozen<RecordedExchange>, index: number): ExchangeMemo {
	const known = exchangeMemos.get(exchange);
	if (known?.index === index) return known;
	const memo = { index, codes: codesIn(exchange as RecordedExchange, mapExchangeAt(index)) };
	exchangeMemos.set(exchange, memo);
	return memo;
}

/** Every grant code the run carries. */
export function grantCodes(frozen: Frozen<Run>): Set<string> {
	return new Set([...codesIn(frozen as Run, mapHead), ...frozen.exchanges.flatMap((e, i) => memoOf(e, i).codes)]);
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
 * learns them; then every part is searched for every value known or learnt anywhere in the run. An exchange redacted
 * before with the same codes and values is not redacted again (`ExchangeMemo`): the walk's route saves its whole run
 * after every step, and without it the route's overhead missed its target (BENCHMARKS.md, saving a walk).
 */
export function redactRunInParts(frozen: Frozen<Run>, known: KnownSecrets = {}): RedactedRun {
	// The redaction only reads the run: it builds new objects for every part it redacts.
	const run = frozen as Run;
	const codes = grantCodes(frozen);
	const codesKey = JSON.stringify([...codes]);
	const head = redactByName(run, mapHead, codes);
	const memos = frozen.exchanges.map((e, i) => memoOf(e, i));
	const named = memos.map((memo, i) => {
		// The token's tail is kept before the token is hidden: it matches evidence added later (join.ts).
		if (memo.named?.key !== codesKey) memo.named = { key: codesKey, part: redactByName(keepTokenTails(frozen.exchanges[i] as RecordedExchange), mapExchangeAt(i), codes) };
		return memo.named.part;
	});

	// Each value once, named as it was first found.
	const needles: Needle[] = [];
	learn(needles, new Set(), [
		...(known.clientSecrets ?? []).map((value) => ({ what: WHAT.clientSecret, value })),
		...(known.tokens ?? []).map((value) => ({ what: WHAT.token, value })),
		...head.needles,
		...named.flatMap((part) => part.needles)
	]);
	const searched = needles.filter((n) => searchable(n.value));
	const searches = searchesOf(searched);
	const redactedKey = JSON.stringify([codesKey, searched.map((n) => [n.what, n.value])]);

	const searchedHead = redactBySearch(head.value, mapHead, searches);
	return {
		head: { ...searchedHead.value, exchanges: [], redactions: run.redactions },
		headRedactions: { named: head.redactions, searched: searchedHead.redactions },
		exchanges: memos.map((memo, i) => {
			if (memo.redacted?.key !== redactedKey) {
				const part = named[i]!;
				const found = redactBySearch(part.value, mapExchangeAt(i), searches);
				memo.redacted = { key: redactedKey, piece: { exchange: found.value, named: part.redactions, searched: found.redactions } };
			}
			return memo.redacted.piece;
		})
	};
}

export function redactRun(run: Frozen<Run>, known: KnownSecrets = {}): Run {
	return assembleRun(redactRunInParts(run, known));
}
