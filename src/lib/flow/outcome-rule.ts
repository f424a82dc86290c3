/**
 * Answers the sandbox produced by an outcome rule the user set (POST /sandbox/outcomes), which it names in the
 * OUTCOME_RULE_HEADER of the answer: what the user asked for, not a fault of the request. On every channel (the live
 * page, the sandbox's log joined to a run, a server's HAR) the engine labels them so and asks the real question
 * instead: how the app handled that answer.
 */
import { OUTCOME_RULE_HEADER, isOutcomeId, outcomeSpec, type OutcomeId } from '$lib/protocol';
import { headerValue } from '$lib/http/headers';
import type { Annotation } from './diagnose/diagnose';
import type { RecordedExchange } from './exchange';

/** The rule that produced the exchange's answer; null for an answer of the service's own. */
export function ruleOf(exchange: Pick<RecordedExchange, 'response'>): OutcomeId | null {
	const named = exchange.response ? headerValue(exchange.response.headers, OUTCOME_RULE_HEADER) : undefined;
	return named !== undefined && isOutcomeId(named) ? named : null;
}

/** The sentence every channel says of a rule's answer. */
export function ruleSentence(rule: OutcomeId): string {
	return `The outcome you asked for: the sandbox's rule \`${rule}\` produced this answer (${outcomeSpec(rule).answer.replace(/^The next /, 'the next ').replace(/\.$/, '')}); the question is how your app handled it.`;
}

/** What to do about a rule's answer: nothing in the request; look at what the app did with it. */
export const RULE_FIX = 'Nothing to fix in this request. Check what your app did with the answer: a page of its own for the user, never a 5xx or a framework\'s default error page, and no retry of the request.';

/** The exchange's annotation with its causes replaced by the rule's: the row stays, the blame goes. */
export function ruleAnnotation(annotation: Annotation, rule: OutcomeId): Annotation {
	const { causeId: _cause, problems: _problems, ...kept } = annotation;
	return { ...kept, summary: `${ruleSentence(rule)} ${annotation.summary}`, candidates: [], fix: RULE_FIX };
}
