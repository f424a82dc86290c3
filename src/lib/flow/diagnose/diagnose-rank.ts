/**
 * From evidence to an annotation for a row of the tables (7.2, 7.3): its causes ranked, most likely first, and the
 * annotation assembled from the best one. Against the sandbox, known causes are the answer.
 */
import type { CauseId, CauseIdOf, ErrorRow, ErrorRowId } from '$lib/protocol';
import type { Annotation, Candidate, Target } from './diagnose-annotation';

export interface Evidence {
	causeId: CauseId;
	likelihood: 'likely' | 'possible';
	why: string;
}

/** What points at a cause of row `R`: the cause must be one of that row's, or it does not compile. */
export type EvidenceOf<R extends ErrorRowId> = Evidence & { causeId: CauseIdOf<R> };

/**
 * Candidates for a row, ranked: the causes the evidence points at first, then the row's other causes as
 * possible, leaving out those the record rules out (`ruledOut`). A row with a single cause needs no evidence.
 * Against the sandbox, known causes are the answer.
 */
export function rankCandidates(row: ErrorRow, evidence: Evidence[], target: Target, ruledOut: readonly CauseId[] = []): Candidate[] {
	const rowId = row.id as ErrorRowId;
	const fixOf = (causeId: CauseId) => row.causes.find((c) => c.id === causeId)?.fix ?? '';
	const pointed = evidence.filter((e, i) => evidence.findIndex((f) => f.causeId === e.causeId) === i && !ruledOut.includes(e.causeId));
	const single = row.causes.length === 1 && pointed.length === 0;
	const rest = row.causes
		.filter((c) => !pointed.some((e) => e.causeId === c.id) && !ruledOut.includes(c.id as CauseId))
		.map((c): Evidence => ({ causeId: c.id as CauseId, likelihood: single ? 'likely' : 'possible', why: c.text }));
	const hasLikely = pointed.some((e) => e.likelihood === 'likely');
	const ranked = target === 'sandbox' && hasLikely ? pointed : [...pointed, ...rest];
	return ranked
		.sort((a, b) => (a.likelihood === b.likelihood ? 0 : a.likelihood === 'likely' ? -1 : 1))
		.map((e) => ({ rowId, causeId: e.causeId, likelihood: e.likelihood, why: e.why, fix: fixOf(e.causeId) }));
}

/** The row-matched annotation: title, summary and fix from the best candidate. */
export function rowAnnotation(
	row: ErrorRow,
	candidates: Candidate[],
	target: Target,
	head: string,
	extra: Partial<Annotation>
): Annotation {
	const best = candidates[0]?.likelihood === 'likely' ? candidates[0] : undefined;
	const cause = best && row.causes.find((c) => c.id === best.causeId);
	const anchor = `section ${row.table}, row ${row.id}`;
	let summary: string;
	if (best && cause) {
		// The cause's own text is shown beside the summary (and in the candidates): the summary says the evidence.
		const evidence = best.why;
		summary =
			target === 'sandbox' || candidates.length === 1
				? evidence
				: `The service does not say which cause applies. Most likely: ${evidence}`;
	} else if (candidates.length === 1 && candidates[0]) {
		summary = `This is ${anchor}. ${candidates[0].why}`;
	} else {
		summary = `This is ${anchor}. The explorer cannot tell which of its causes applies; check the candidates below in order.`;
	}
	return {
		outcome: 'error',
		title: head,
		summary,
		rowId: row.id as ErrorRowId,
		...(best ? { causeId: best.causeId, fix: best.fix } : { fix: 'Check each candidate cause below; each says how to fix it.' }),
		candidates,
		...extra
	};
}
