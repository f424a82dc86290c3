/**
 * The redaction's second pass over one part of a run: every value learnt anywhere in the run, in every form a
 * server could write it in (`encodedForms`: encoded for a URL, HTML or JSON, twice, in base64…), wherever it is.
 * All values are searched for in one pass over each text (`FormSearch`): a HAR of a few hundred sign-ins teaches
 * a few hundred values.
 */
import { MASK } from '$lib/http/exchange';
import { FormSearch } from '$lib/http/form-search';
import { encodedForms } from '$lib/http/secrets';
import type { Redaction } from '../run';
import type { Needle, PartRedaction } from './redact-name';
import type { PartMap } from './redact-texts';

/** The values learnt in the first pass, longest first (the first wins where two overlap), and what each is. */
export interface Searches {
	what: readonly string[];
	search: FormSearch;
}

export function searchesOf(needles: Needle[]): Searches {
	const sorted = [...needles].sort((a, b) => b.value.length - a.value.length);
	return { what: sorted.map((n) => n.what), search: new FormSearch(sorted.map((n) => encodedForms(n.value))) };
}

/** The second pass over one part: every form of every value learnt anywhere in the run, wherever it is. */
export function redactBySearch<T>(part: T, map: PartMap<T>, { what, search }: Searches): PartRedaction<T> {
	const redactions: Redaction[] = [];
	const value = map(part, (text, where) => {
		const hidden = search.hide(text, () => MASK);
		for (const i of hidden.found) redactions.push({ what: what[i]!, where });
		return hidden.text;
	});
	return { value, redactions };
}
