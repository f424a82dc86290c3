/**
 * Why the app's exchange of an arrival's code most likely failed, from the browser's side alone: a code that
 * arrived before (used), one older than its validity (expired), a link whose redirect URI carries a query that a
 * library drops (redirect mismatch); the candidates ranked across the token endpoint's rows.
 */
import { LIMITS, TOKEN_ERRORS, type TokenErrorRow } from '$lib/protocol';
import { expiredAgo, formatDuration, type Candidate } from '../diagnose/diagnose-annotation';
import { rankCandidates, type EvidenceOf } from '../diagnose/diagnose-rank';
import type { CauseIdOf } from '$lib/protocol';
import { linkRedirectUri, type FlowRecord } from '../record';
import { codeAge, describeAge, describeAnswer, gap, millis, type Arrival } from './browser-arrivals';

/** Evidence for the causes of `invalid_grant`, from what the recording shows of this arrival. */
export function invalidGrantEvidence(flow: FlowRecord, arrival: Arrival, all: Arrival[]): EvidenceOf<'token-invalid-grant'>[] {
	const first = all.find((a) => a.code === arrival.code);
	if (first && first !== arrival) {
		const age = (millis(arrival.exchange.startedAt) - millis(first.exchange.startedAt)) / 1000;
		const firstAnswer = describeAnswer(first.exchange, first.answer);
		return [
			{
				causeId: 'used',
				likelihood: 'likely',
				why: `This code already arrived at the redirect URI ${gap(age)} earlier (arrival ${first.k}, exchange ${first.n}, answered ${firstAnswer}): your app exchanged it then, and a code works once. A reload, the back button or a second tab repeats the arrival.`
			},
			...(age >= LIMITS.codeTtlSeconds
				? [{ causeId: 'expired' as const, likelihood: 'likely' as const, why: `The code first arrived ${formatDuration(age)} before this arrival: ${expiredAgo(age, LIMITS.codeTtlSeconds)}.` }]
				: [])
		];
	}
	const query = linkRedirectUri(flow)?.split('?')[1];
	const age = codeAge(flow, arrival);
	return [
		...(query
			? [
					{
						causeId: 'redirect-mismatch' as const,
						likelihood: 'likely' as const,
						why: `The code is fresh (its first arrival), and the link's \`redirect_uri\` carries extra query parameters (\`?${query}\`): a client library that sends its configured callback URL without them, or the URL the browser landed on (with \`code\`), sends a \`redirect_uri\` that is not the link's.`
					}
				]
			: []),
		...(age && age.seconds >= LIMITS.codeTtlSeconds
			? [
					{
						causeId: 'expired' as const,
						likelihood: 'possible' as const,
						why: `The browser arrived ${describeAge(age)}: if this arrival replays an old redirect (history, a bookmark, a restored tab), its code is older than ${formatDuration(LIMITS.codeTtlSeconds)}.`
					}
				]
			: [])
	];
}

/**
 * The causes this arrival's record rules out. `expired`: the redirect that issued the code is in the record, and the
 * app answered the arrival (exchanging the code while it did) well within the code's validity of that redirect.
 * Counted from the link alone, the arrival may replay an older redirect; and against the sandbox, its clock may have
 * been moved on between the two, which the record's times do not show: then nothing is ruled out.
 */
export function ruledOutCauses(flow: FlowRecord, arrival: Arrival): CauseIdOf<'token-invalid-grant'>[] {
	const age = codeAge(flow, arrival);
	if (age?.from !== 'redirect' || flow.target.kind === 'sandbox') return [];
	return age.seconds + arrival.exchange.durationMs / 1000 < LIMITS.codeTtlSeconds ? ['expired'] : [];
}

/** The `error` values of the candidates' rows, e.g. "invalid_grant". */
export function errorNames(candidates: Candidate[]): string {
	return [...new Set(candidates.map((c) => TOKEN_ERRORS.find((r) => r.id === c.rowId)?.error ?? c.rowId))].join(', ');
}

/** Candidates across rows, likely ones first, each row's causes in the order `rankCandidates` gives. */
export function rankAcross(rows: readonly TokenErrorRow[], evidence: EvidenceOf<'token-invalid-grant'>[], ruledOut: readonly CauseIdOf<'token-invalid-grant'>[] = []): Candidate[] {
	const ranked = rows.flatMap((row) => rankCandidates(row, row.id === 'token-invalid-grant' ? evidence : [], 'custom', row.id === 'token-invalid-grant' ? ruledOut : []));
	return [...ranked.filter((c) => c.likelihood === 'likely'), ...ranked.filter((c) => c.likelihood === 'possible')];
}
