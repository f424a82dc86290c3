import { json } from '@sveltejs/kit';
import { changeOutcomeRules, outcomeRulesFor } from '$lib/features/sandbox-admin/outcome-rules';
import { z } from 'zod';
import { apiRoute } from '$lib/platform/errors';
import { readJsonBody } from '$lib/platform/json-body';
import type { OutcomeRulesView } from '$lib/view/outcome-rules';
import type { RequestHandler } from './$types';

const headers = { 'cache-control': 'no-store' };

const answer = (rules: OutcomeRulesView) => json({ rules }, { headers });

/** The client's outcome rules, pending and used (reads only). */
export const GET: RequestHandler = apiRoute(async (event) => answer(await outcomeRulesFor(event, event.params.client)));

/** `{outcome}` sets a one-shot rule on the client; `{clear: true}` or `{clear: outcome}` removes pending ones. */
export const POST: RequestHandler = apiRoute(async (event) => {
	const body = await readJsonBody(event.request, z.unknown(), '{"outcome": id} or {"clear": true}');
	return answer(await changeOutcomeRules(event, event.params.client, body));
});
