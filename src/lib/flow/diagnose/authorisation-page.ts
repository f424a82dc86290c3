/**
 * Section 7.1: errors the authorisation page shows to the user and never redirects. Reads which row a page or an
 * answer names, and annotates it the way `diagnose.ts` annotates the 7.2 and 7.3 rows that come back to the client.
 */
import { AUTHORISATION_ERRORS } from '$lib/protocol';
import type { Annotation } from './diagnose';
import type { RecordedExchange } from '../exchange';

/** A row of 7.1, with its literal id. */
export type AuthorisationRow = (typeof AUTHORISATION_ERRORS)[number];

/** The 7.1 row whose id is `value`, if it is one (e.g. the `row` the sandbox's headless authorize answers). */
export function authorisationRow(value: unknown): AuthorisationRow | undefined {
	return AUTHORISATION_ERRORS.find((row) => row.id === value);
}

/** The 7.1 row whose message a page shows (case and a final full stop aside), if any. */
export function shownAuthorisationRow(page: string): AuthorisationRow | undefined {
	const text = page.toLowerCase();
	return AUTHORISATION_ERRORS.find((row) => text.includes(row.message.toLowerCase().replace(/\.$/, '')));
}

/**
 * A 7.1 row as an annotation: its cause when known (likely), else every cause of the row (possible). `detail`
 * (what the page or the sandbox said) replaces the cause's text in the summary when given.
 */
export function annotateAuthorisationError(row: AuthorisationRow, causeId?: string, detail?: string): Annotation {
	const cause = row.causes.find((c) => c.id === causeId);
	const candidates = (cause ? [cause] : row.causes).map((c) => ({
		rowId: row.id,
		causeId: c.id,
		likelihood: cause ? ('likely' as const) : ('possible' as const),
		why: c.text,
		fix: c.fix
	}));
	return {
		outcome: 'error',
		title: `The authorisation page shows: ${row.message}`,
		summary: `${detail ?? cause?.text ?? `This is section 7.1, row ${row.id}.`} The service shows this to the user and never redirects.`,
		rowId: row.id,
		...(cause ? { causeId: cause.id, fix: cause.fix } : {}),
		candidates
	};
}

/** An authorisation page's answer as an annotation: the 7.1 row an error page shows; null for any other answer. */
export function annotateAuthorisationAnswer(exchange: Pick<RecordedExchange, 'response'>): Annotation | null {
	const response = exchange.response;
	if (!response || response.status < 400) return null;
	const row = shownAuthorisationRow(response.body);
	return row ? annotateAuthorisationError(row) : null;
}
