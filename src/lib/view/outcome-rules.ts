/**
 * What the explorer shows of a client's outcome rules (sandbox choice 'outcome-rules'): built by
 * `features/sandbox-admin/outcome-rules.ts`, shown by `$lib/components/live/OutcomeRules.svelte`. Times are ISO instants on the
 * client's workspace clock. Nothing here is a secret.
 */
import type { OutcomeId, OutcomeStage } from '$lib/protocol';

export interface OutcomeRuleView {
	outcome: OutcomeId;
	stage: OutcomeStage;
	setAt: string;
}

export interface UsedOutcomeRuleView extends OutcomeRuleView {
	usedAt: string;
	/** Which request used it, such as `POST /oauth/token`. */
	request: string;
}

export interface OutcomeRulesView {
	clientId: string;
	/** At most one per stage. */
	pending: OutcomeRuleView[];
	/** Newest first. */
	used: UsedOutcomeRuleView[];
	/** The session may look but not change them (the default workspace of a public sandbox). */
	readOnly: boolean;
}
