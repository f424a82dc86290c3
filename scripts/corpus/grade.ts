/**
 * Grades what a channel told against a case's grading data (tests/corpus/cases.ts), and compares a matrix with a
 * baseline. A correct app: any error or warning verdict is a false alarm. A bug: `right` when the verdict names
 * the cause and the fix; `out-of-sight` when the bug lives where the channel cannot see (the case's `side`, written
 * from the bug: on the app's server, or in its handling of an answer, for a channel of the browser's recording
 * alone, BROWSER_ONLY; in the app's handling of a right answer, or in its page, for a channel of the sandbox's log
 * alone, SERVICE_ONLY; both from how the channel is built) and the verdict says what it could not see and how to add it (the sandbox's log, the server's
 * HAR or curl; the app check or the browser's HAR): the most that channel can honestly tell, ranked below `right`
 * (adding the evidence is still a step) and above
 * `partly` (a guessed half-cause is worse than saying what is unseen); `partly` when it names one of the cause and
 * the fix, or only a secondary finding names the cause; `missed` otherwise (a "nothing to fix" verdict included).
 */
import type { CorpusCase } from '../../tests/corpus/cases';
import type { Channel, Told } from './channels';

export const GRADES = ['right', 'out-of-sight', 'partly', 'missed', 'false-alarm', 'no-flow'] as const;
export type Grade = (typeof GRADES)[number];

/** Better first: a cell may only move up this list (the --check ratchet). */
const RANK: Record<Grade, number> = { right: 4, 'out-of-sight': 3, partly: 2, missed: 1, 'no-flow': 1, 'false-alarm': 0 };

/** The channels channels.ts builds from the browser's HAR alone: the app's server's requests are out of their sight. */
const BROWSER_ONLY: readonly Channel[] = ['har', 'har-sanitised'];

/** The verdict says the server's side was not in the record, and its fix how to add it. */
const SAYS_UNSEEN = /holds only the browser's (side|requests)|not (seen|observed)/i;
const HOW_TO_ADD = /sandbox's log.*(server's HAR|curl)/i;

/** The channel channels.ts builds from the sandbox's log alone: the app's page is out of its sight. */
const SERVICE_ONLY: readonly Channel[] = ['live'];

/** The verdict says the app's handling (its page) was not in the record, and its fix how to add it. */
const SAYS_PAGE_UNSEEN = /handled it is not in this record|not observed/i;
const HOW_TO_ADD_PAGE = /app check|browser's HAR/i;

function outOfSight(c: CorpusCase, channel: Channel, verdict: Told['verdict']): boolean {
	const said = `${verdict.what} ${verdict.cause}`;
	if ((c.side === 'server' || c.side === 'handling') && BROWSER_ONLY.includes(channel)) return SAYS_UNSEEN.test(said) && HOW_TO_ADD.test(verdict.fix);
	if ((c.side === 'handling' || c.side === 'page') && SERVICE_ONLY.includes(channel)) return SAYS_PAGE_UNSEEN.test(said) && HOW_TO_ADD_PAGE.test(verdict.fix);
	return false;
}

const any = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

export function grade(c: CorpusCase, told: Told | null, channel: Channel): Grade {
	if (told === null) return 'no-flow';
	const { verdict } = told;
	const flagged = verdict.severity === 'error' || verdict.severity === 'warning';
	if (c.expect === null) return flagged ? 'false-alarm' : 'right';
	const cause = any(c.expect.cause, `${verdict.what} ${verdict.cause} ${verdict.row ?? ''}`);
	const fix = any(c.expect.fix, verdict.fix);
	if (flagged && cause && fix) return 'right';
	if (outOfSight(c, channel, verdict)) return 'out-of-sight';
	// "Nothing to fix" (or a cancel) on a bug is a miss, whatever a secondary finding says.
	if (!flagged) return 'missed';
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
