/**
 * A redacted run in the pieces a store keeps (the head, each exchange with what each pass found), the run
 * assembled from them, and what was redacted said for a person.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import type { Frozen } from '$lib/frozen';
import { WHAT } from './redact-name';
import type { Redaction, Run } from '../run';

/**
 * One exchange of a redacted run, with what its redaction found in each pass (see `assembleRun`); read-only.
 */
export type RedactedExchange = Frozen<{
	exchange: RecordedExchange;
	named: Redaction[];
	searched: Redaction[];
}>;

/**
 * A redacted run in the pieces it is assembled from, so a store can keep each exchange on its own. `head` is the
 * run without its exchanges (`exchanges` is empty) and with the redactions it came with; `assembleRun` gives the
 * redacted run.
 */
export interface RedactedRun {
	head: Run;
	headRedactions: { named: Redaction[]; searched: Redaction[] };
	exchanges: readonly RedactedExchange[];
}

/** The redacted run: its redactions listed as one pass after the other, each place once. */
export function assembleRun({ head, headRedactions, exchanges }: RedactedRun): Run {
	return {
		...head,
		// Frozen (see `frozen`): a change throws rather than alter what the next redaction of the run gives back.
		exchanges: exchanges.map((e) => e.exchange as RecordedExchange),
		redactions: addRedactions(head.redactions, [
			...headRedactions.named,
			...exchanges.flatMap((e) => e.named as Redaction[]),
			...headRedactions.searched,
			...exchanges.flatMap((e) => e.searched as Redaction[])
		])
	};
}

/** `earlier`, then each of `found` that is not already listed. */
function addRedactions(earlier: Redaction[], found: Redaction[]): Redaction[] {
	const listed = new Set(earlier.map(({ what, where }) => `${what}\n${where}`));
	const added = found.filter(({ what, where }) => {
		const key = `${what}\n${where}`;
		if (listed.has(key)) return false;
		listed.add(key);
		return true;
	});
	return [...earlier, ...added];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "a", "a and b", "a, b and c". */
const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The note on hidden codes, whose places name them (`hidden-code-1`), so the note quotes what the texts show. */
function hiddenCodesNote(names: string[]): string {
	const one = names.length === 1;
	return `hid the grant ${one ? 'code' : 'codes'} that can still be exchanged, shown as ${list(names)}: only the run's owner sees ${one ? 'it' : 'them'}, until ${one ? 'it is' : 'each is'} used or expires`;
}

/**
 * What was redacted, for a person: "redacted 2 cookies", "redacted the client secret (1 place)". The run page and
 * the Markdown report both say these, so they name the grant code alike.
 */
export function describeRedactions(redactions: Redaction[]): string[] {
	const places = new Map<string, string[]>();
	for (const r of redactions) places.set(r.what, [...(places.get(r.what) ?? []), r.where]);
	return [...places].map(([what, where]) => {
		const n = where.length;
		if (what === WHAT.cookie) return `redacted ${plural(n, 'cookie')}`;
		if (what === WHAT.code)
			return `kept the grant code visible (${plural(n, 'place')}): it is single use and short-lived, and the diagnosis needs it`;
		if (what === WHAT.hiddenCode) return hiddenCodesNote(where);
		return `redacted the ${what} (${plural(n, 'place')})`;
	});
}
