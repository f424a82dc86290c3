/**
 * The redaction's second pass over one part of a run: every value learnt anywhere in the run, in every form a
 * server could write it in (`encodedForms`: encoded for a URL, HTML or JSON, twice, in base64…), wherever it is.
 */
import { MASK } from '$lib/http/exchange';
import { encodedForms, hideForms, holdsForm } from '$lib/http/secrets';
import type { Redaction } from '../run';
import type { Needle, PartRedaction } from './redact-name';
import type { PartMap } from './redact-texts';

/** A value learnt in the first pass with every form it may be written in, longest first. */
export interface Search {
	what: string;
	forms: readonly string[];
}

export function searchesOf(needles: Needle[]): Search[] {
	return [...needles].sort((a, b) => b.value.length - a.value.length).map(({ what, value }) => ({ what, forms: encodedForms(value) }));
}

/** The second pass over one part: every form of every value learnt anywhere in the run, wherever it is. */
export function redactBySearch<T>(part: T, map: PartMap<T>, searches: Search[]): PartRedaction<T> {
	const redactions: Redaction[] = [];
	const value = map(part, (text, where) => {
		let result = text;
		for (const { what, forms } of searches) {
			if (!holdsForm(result, forms)) continue;
			redactions.push({ what, where });
			result = hideForms(result, forms, MASK);
		}
		return result;
	});
	return { value, redactions };
}
