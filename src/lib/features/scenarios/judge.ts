import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { Expected } from '$lib/features/scenarios/pure/library';
import type { Observed } from '$lib/features/scenarios/pure/result';

/** The verdict: the expected step, row and cause, and the scenario's check. */
export function judge(expected: Expected, observed: Observed | null, annotation?: Annotation): { passed: boolean; reason?: string } {
	if (!observed) return { passed: false, reason: 'Nothing was observed.' };
	if (observed.step !== expected.step) return { passed: false, reason: `The walk ended at ${observed.step}, not ${expected.step}.` };
	if (observed.row !== expected.row) return { passed: false, reason: `Expected ${expected.row}, observed ${observed.row}: ${observed.summary}` };
	if (expected.cause && observed.cause !== undefined && observed.cause !== expected.cause) {
		return { passed: false, reason: `Row ${observed.row} as expected, but the cause was ${observed.cause}, not ${expected.cause}.` };
	}
	const seen = expected.check && annotation ? expected.check.test(annotation) : null;
	if (seen !== null && expected.check) return { passed: false, reason: `Expected ${expected.check.text}; observed ${seen}.` };
	if (expected.cause && observed.cause === undefined) return { passed: true, reason: 'The row matched; the answer does not say which cause.' };
	return { passed: true };
}
