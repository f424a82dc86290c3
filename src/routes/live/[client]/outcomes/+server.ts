import { json } from '@sveltejs/kit';
import { changeOutcomeRules, outcomeRulesFor, type OutcomeRulesAnswer } from '$lib/features/sandbox-admin/outcome-rules';
import type { RequestHandler } from './$types';

function answer(result: OutcomeRulesAnswer): Response {
	const headers = { 'cache-control': 'no-store' };
	return result.ok ? json({ rules: result.rules }, { headers }) : json({ message: result.message }, { status: result.status, headers });
}

/** The client's outcome rules, pending and used (reads only). */
export const GET: RequestHandler = async (event) => answer(await outcomeRulesFor(event, event.params.client));

/** `{outcome}` sets a one-shot rule on the client; `{clear: true}` or `{clear: outcome}` removes pending ones. */
export const POST: RequestHandler = async (event) => {
	const body: unknown = await event.request.json().catch(() => undefined);
	if (body === undefined) return json({ message: 'Send a JSON body: {"outcome": id} or {"clear": true}.' }, { status: 400 });
	return answer(await changeOutcomeRules(event, event.params.client, body));
};
