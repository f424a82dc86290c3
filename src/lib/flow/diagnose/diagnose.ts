/**
 * Annotations: what a recorded exchange means. A success is validated with the zod schemas and each field is
 * explained; an error is matched to its row of the interface's tables (7.2, 7.3) and to the likeliest cause from
 * what the walk knows. Against the sandbox the explorer knows the cause; against a custom deployment it can only
 * rank the candidates, most likely first.
 *
 * This module is the one the rest of the app imports. The pieces: the annotation's shape (diagnose-annotation.ts),
 * answers outside the tables (diagnose-unmatched.ts), ranking a row's causes (diagnose-rank.ts), the token
 * exchange (diagnose-token.ts) and me.json (diagnose-me.ts). The callback's annotation is here.
 */
import { LIMITS } from '$lib/protocol';
import { CANCEL_MEANING, type CallbackResult } from '../callback';
import { formatDuration, type Annotation } from './diagnose-annotation';

export {
	redirectUriDiff,
	type AnnotatedField,
	type Annotation,
	type Candidate,
	type Outcome,
	type Target,
	type UriDiff
} from './diagnose-annotation';
export { annotateTokenExchange, type WalkKnowledge } from './diagnose-token';
export { annotateMeExchange, type MeKnowledge } from './diagnose-me';

/** Step 2's outcome as an annotation, so the UI shows every step the same way. A cancel is not an error. */
export function annotateCallback(result: CallbackResult): Annotation {
	if (result.kind === 'unexpected')
		return {
			outcome: 'error',
			title: 'An unexpected redirect',
			summary: result.reason,
			candidates: [],
			fix: 'Check the redirect URI in the link, and what the target sends back.'
		};
	const preserved = result.preserved.length
		? ` Extra parameters preserved: ${result.preserved.map((p) => p.name).join(', ')}.`
		: '';
	const problems = result.missingExtras.length
		? {
				problems: [
					`Extra parameters of the redirect URI did not come back: ${result.missingExtras.map((p) => p.name).join(', ')}. 4.1.1 says they are preserved.`
				]
			}
		: {};
	if (result.kind === 'cancel')
		return {
			outcome: 'cancel',
			title: 'Cancelled by the user',
			summary: `${CANCEL_MEANING} The redirect came back without \`code\`.${preserved}`,
			candidates: [],
			fix: 'Nothing to fix. Your app should show its sign-in option again, and not try to exchange a code: there is none.',
			...problems
		};
	return {
		outcome: 'success',
		title: 'Authorised: a grant code arrived',
		summary: `The user authorised the client and the redirect carries \`code\`. Exchange it from your server within ${formatDuration(LIMITS.codeTtlSeconds)}; it works once.${preserved}`,
		candidates: [],
		...problems
	};
}
