/**
 * Outcomes on demand: one-shot rules an integrator sets on a sandbox client so that the next flow of that client
 * ends in a chosen outcome, without touching their app. Not part of the interface (a sandbox feature, like the
 * sandbox's choices); here, as data, because the sandbox enforces them and the explorer's pages and checks list
 * them. Each names the table row (or the non-error answer) it produces; the answers themselves are built by the
 * sandbox from the tables (sandbox choice 'outcome-rules').
 */
import type { MeErrorId, TokenErrorId } from './errors';

/** Where in the flow a rule acts: at most one pending rule per stage and client. */
export type OutcomeStage = 'authorise' | 'token' | 'me';

export const OUTCOME_STAGES = [
	{ id: 'authorise', label: 'Authorisation page' },
	{ id: 'token', label: 'Token exchange' },
	{ id: 'me', label: 'me.json' }
] as const satisfies readonly { id: OutcomeStage; label: string }[];

export interface OutcomeSpec {
	id: string;
	stage: OutcomeStage;
	/** A button's text. */
	label: string;
	/** What the next request of the stage gets. */
	answer: string;
	/** The error table row the answer is; null for a cancel or a 200. */
	row: TokenErrorId | MeErrorId | null;
	/** The HTTP status of the answer; null for the authorisation page (its redirect is a cancel's). */
	status: number | null;
}

export const OUTCOMES = [
	{
		id: 'authorise-cancel',
		stage: 'authorise',
		label: 'Cancel the next authorisation',
		answer: 'The next Authorise redirects as a cancel would: to the redirect URI without `code`.',
		row: null,
		status: null
	},
	{
		id: 'token-invalid-grant',
		stage: 'token',
		label: 'invalid_grant (code reused)',
		answer: 'The next code exchange answers 400 `invalid_grant` as for a code already exchanged; the code is not consumed.',
		row: 'token-invalid-grant',
		status: 400
	},
	{
		id: 'token-invalid-client',
		stage: 'token',
		label: 'invalid_client',
		answer: 'The next code exchange answers 401 `invalid_client` as for a wrong client secret; the code is not consumed.',
		row: 'token-invalid-client',
		status: 401
	},
	{
		id: 'me-401',
		stage: 'me',
		label: '401 (token not valid)',
		answer: 'The next me.json answers 401 with a `message`, as for an unknown or revoked access token.',
		row: 'me-unauthorized',
		status: 401
	},
	{
		id: 'me-403',
		stage: 'me',
		label: '403 (no body)',
		answer: 'The next me.json answers 403 with no body, as for a request without `User-Agent`.',
		row: 'me-forbidden',
		status: 403
	},
	{
		id: 'me-404',
		stage: 'me',
		label: '404 (deletion requested)',
		answer: 'The next me.json answers 404 with a `message`, as for a user who has asked for account deletion.',
		row: 'me-not-found',
		status: 404
	},
	{
		id: 'me-empty-verifications',
		stage: 'me',
		label: 'No verifications',
		answer: 'The next me.json answers 200 with the user\'s `sbid_number` and `verifications: []`.',
		row: null,
		status: 200
	},
	{
		id: 'me-expired-verification',
		stage: 'me',
		label: 'An expired verification',
		answer: 'The next me.json answers 200 with the user\'s verifications, each with an `expires_on` already past (yesterday on the sandbox clock).',
		row: null,
		status: 200
	},
	{
		id: 'me-group-key',
		stage: 'me',
		label: '`group` key',
		answer: 'The next me.json answers 200 with each verification keyed `group` instead of `supergroup` (the sample of 4.3).',
		row: null,
		status: 200
	}
] as const satisfies readonly OutcomeSpec[];

export type OutcomeId = (typeof OUTCOMES)[number]['id'];

export const OUTCOME_IDS = OUTCOMES.map((o) => o.id) as [OutcomeId, ...OutcomeId[]];

export function isOutcomeId(value: string): value is OutcomeId {
	return (OUTCOME_IDS as readonly string[]).includes(value);
}

export function outcomeSpec(id: OutcomeId): (typeof OUTCOMES)[number] {
	return OUTCOMES.find((o) => o.id === id)!;
}

/** The outcomes of one stage, of a type that narrows to that stage's ids. */
export type OutcomeOfStage<S extends OutcomeStage> = Extract<(typeof OUTCOMES)[number], { stage: S }>['id'];

/**
 * The response header the sandbox adds to an answer one of its outcome rules produced, naming the rule: the answer
 * is what the user asked for, not a fault of the request, wherever it is read (the live page, its log, a server's HAR).
 */
export const OUTCOME_RULE_HEADER = 'X-Sandbox-Outcome-Rule';
