/**
 * The control API's outcome rules (sandbox choice 'outcome-rules'): `GET /sandbox/outcomes?client_id=…` lists a
 * client's pending and used rules, `POST /sandbox/outcomes` `{client_id, outcome}` sets one, `POST
 * /sandbox/outcomes/clear` `{client_id, outcome?}` removes pending ones. Each acts on the call's workspace only: a
 * client of another workspace is unknown here, as to every other control call.
 */
import type { z } from 'zod';
import { outcomeSpec } from '../../protocol';
import type { OutcomeRule, SandboxWorkspace, UsedOutcomeRule } from '../store';
import { badRequest, type Answer, type OutcomeBody, type OutcomeClearBody } from './control-schemas';

function ruleBody(rule: OutcomeRule) {
	return { outcome: rule.outcome, stage: rule.stage, label: outcomeSpec(rule.outcome).label, set_at: rule.setAt };
}

function usedBody(rule: UsedOutcomeRule) {
	return { ...ruleBody(rule), used_at: rule.usedAt, request: rule.request };
}

function unknownClient(clientId: string): Answer {
	return { status: 404, body: { error: `No client \`${clientId}\` in this workspace; create it with POST /sandbox/clients, or send the key of its workspace.` } };
}

/** The client's rules as the control API shows them. */
function listing(workspace: SandboxWorkspace, clientId: string, extra: Record<string, unknown> = {}): Answer {
	const rules = workspace.outcomeRules(clientId);
	return { status: 200, body: { client_id: clientId, ...extra, pending: rules.pending.map(ruleBody), used: rules.used.map(usedBody) } };
}

export function listOutcomes(workspace: SandboxWorkspace, query: URLSearchParams): Answer {
	const clientId = query.get('client_id');
	if (!clientId) return badRequest('Name the client: GET /sandbox/outcomes?client_id=…');
	return workspace.getClient(clientId) ? listing(workspace, clientId) : unknownClient(clientId);
}

export function setOutcome(body: z.infer<typeof OutcomeBody>, workspace: SandboxWorkspace): Answer {
	if (!workspace.getClient(body.client_id)) return unknownClient(body.client_id);
	workspace.setOutcome(body.client_id, body.outcome);
	return listing(workspace, body.client_id);
}

export function clearOutcomes(body: z.infer<typeof OutcomeClearBody>, workspace: SandboxWorkspace): Answer {
	if (!workspace.getClient(body.client_id)) return unknownClient(body.client_id);
	const cleared = workspace.clearOutcomes(body.client_id, body.outcome);
	return listing(workspace, body.client_id, { cleared });
}
