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
import { assembleRun, type RedactedRun } from './redact-assembly';
import { WHAT, codesIn, redactByName, searchable, type Needle } from './redact-name';
import { redactBySearch, searchesOf } from './redact-search';
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

/** Every grant code the run carries. */
export function grantCodes(frozen: Frozen<Run>): Set<string> {
	const run = frozen as Run;
	return new Set([...codesIn(run, mapHead), ...run.exchanges.flatMap((e, i) => codesIn(e, mapExchangeAt(i)))]);
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
 * learns them; then every part is searched for every value known or learnt anywhere in the run. Each save of a
 * walk redacts it whole again: a walk of 10 exchanges costs under half a millisecond (BENCHMARKS.md, saving a walk).
 */
export function redactRunInParts(frozen: Frozen<Run>, known: KnownSecrets = {}): RedactedRun {
	// The redaction only reads the run: it builds new objects for every part it redacts.
	const run = frozen as Run;
	const codes = grantCodes(frozen);
	const head = redactByName(run, mapHead, codes);
	// The token's tail is kept before the token is hidden: it matches evidence added later (join.ts).
	const named = run.exchanges.map((e, i) => redactByName(keepTokenTails(e), mapExchangeAt(i), codes));

	// Each value once, named as it was first found.
	const needles: Needle[] = [];
	learn(needles, new Set(), [
		...(known.clientSecrets ?? []).map((value) => ({ what: WHAT.clientSecret, value })),
		...(known.tokens ?? []).map((value) => ({ what: WHAT.token, value })),
		...head.needles,
		...named.flatMap((part) => part.needles)
	]);
	const searches = searchesOf(needles.filter((n) => searchable(n.value)));

	const searchedHead = redactBySearch(head.value, mapHead, searches);
	return {
		head: { ...searchedHead.value, exchanges: [], redactions: run.redactions },
		headRedactions: { named: head.redactions, searched: searchedHead.redactions },
		exchanges: named.map((part, i) => {
			const found = redactBySearch(part.value, mapExchangeAt(i), searches);
			return { exchange: found.value, named: part.redactions, searched: found.redactions };
		})
	};
}

export function redactRun(run: Frozen<Run>, known: KnownSecrets = {}): Run {
	return assembleRun(redactRunInParts(run, known));
}
