/**
 * Grades what a channel told against a case's grading data (tests/corpus/cases.ts), and compares a matrix with a
 * baseline. A correct app: any error or warning verdict is a false alarm. A bug: `right` when the verdict names
 * the cause and the fix; `partly` when it names one of them, or only a secondary finding names the cause; `missed`
 * otherwise (a "nothing to fix" verdict included).
 */
import type { CorpusCase } from '../../tests/corpus/cases';
import type { Told } from './channels';

export const GRADES = ['right', 'partly', 'missed', 'false-alarm', 'no-flow'] as const;
export type Grade = (typeof GRADES)[number];

/** Better first: a cell may only move up this list (the --check ratchet). */
const RANK: Record<Grade, number> = { right: 3, partly: 2, missed: 1, 'no-flow': 1, 'false-alarm': 0 };

const any = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

export function grade(c: CorpusCase, told: Told | null): Grade {
	if (told === null) return 'no-flow';
	const { verdict } = told;
	const flagged = verdict.severity === 'error' || verdict.severity === 'warning';
	if (c.expect === null) return flagged ? 'false-alarm' : 'right';
	// "Nothing to fix" (or a cancel) on a bug is a miss, whatever a secondary finding says.
	if (!flagged) return 'missed';
	const cause = any(c.expect.cause, `${verdict.what} ${verdict.cause} ${verdict.row ?? ''}`);
	const fix = any(c.expect.fix, verdict.fix);
	if (cause && fix) return 'right';
	if (cause || fix || told.findings.some((f) => any(c.expect!.cause, f))) return 'partly';
	return 'missed';
}

export type Matrix = Record<string, Record<string, Grade>>;

/** Every cell graded worse than the baseline's, as "case / channel: was → now"; a cell the baseline lacks is new, not worse. */
export function regressions(baseline: Matrix, now: Matrix): string[] {
	return Object.entries(now).flatMap(([name, cells]) =>
		Object.entries(cells).flatMap(([channel, g]) => {
			const was = baseline[name]?.[channel];
			return was !== undefined && RANK[g] < RANK[was] ? [`${name} / ${channel}: ${was} → ${g}`] : [];
		})
	);
}
