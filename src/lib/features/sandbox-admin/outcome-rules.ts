/**
 * A client's outcome rules from the explorer (sandbox choice 'outcome-rules'): listed, set and cleared for a
 * session under the control panel's own rules (sandbox-admin.ts). The session must be allowed to administer its
 * panel's workspace (its own workspace, or the default one by admin token or from this machine), and the client
 * must be of that workspace: a client of another workspace is answered as unknown, so one workspace's visitor can
 * neither see nor set another's rules. In public mode the default workspace's rules are shown but not changed.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import { OUTCOME_IDS } from '$lib/protocol';
import { OutcomeBody } from '$lib/sandbox/accounts/control-schemas';
import type { SandboxWorkspace } from '$lib/sandbox/store';
import type { OutcomeRulesView } from '$lib/view/outcome-rules';
import { badRequest, forbidden } from '../../platform/errors';
import { clientScope } from './access';

const READ_ONLY = 'The default workspace is read-only on this public sandbox: nothing was changed. Use your own workspace (one click, on the walk page) to set outcomes.';

/** `{outcome}` sets a rule; `{clear: true}` removes the client's pending rules, `{clear: outcome}` that one only. */
const ChangeBody = z.union([
	z.strictObject({ outcome: OutcomeBody.shape.outcome }),
	z.strictObject({ clear: z.union([z.literal(true), OutcomeBody.shape.outcome]) })
]);

/** The client's rules in `workspace`, for a session already found to have access to it. */
export function outcomeRulesView(workspace: SandboxWorkspace, clientId: string, readOnly: boolean): OutcomeRulesView {
	const { pending, used } = workspace.outcomeRules(clientId);
	return { clientId, pending: pending.map((rule) => ({ ...rule })), used: used.map((rule) => ({ ...rule })), readOnly };
}

/** The client's pending and used rules; throws the refusal when the session may not administer the client. */
export async function outcomeRulesFor(event: RequestEvent, clientId: string): Promise<OutcomeRulesView> {
	const scope = await clientScope(event, clientId);
	return outcomeRulesView(scope.workspace, clientId, scope.readOnly);
}

/** Sets or clears rules from a request body (`{outcome}` or `{clear}`), then answers the client's rules. */
export async function changeOutcomeRules(event: RequestEvent, clientId: string, body: unknown): Promise<OutcomeRulesView> {
	const scope = await clientScope(event, clientId);
	if (scope.readOnly) throw forbidden(READ_ONLY);
	const parsed = ChangeBody.safeParse(body);
	if (!parsed.success) {
		throw badRequest(`Send {"outcome": id} to set a rule or {"clear": true} (or {"clear": id}) to remove pending ones; the outcomes are ${OUTCOME_IDS.join(', ')}.`);
	}
	const change = parsed.data;
	if ('outcome' in change) scope.workspace.setOutcome(clientId, change.outcome);
	else scope.workspace.clearOutcomes(clientId, change.clear === true ? undefined : change.clear);
	return outcomeRulesView(scope.workspace, clientId, false);
}
