import { scenarioStream } from '$lib/features/scenarios/page';
import { runOwner } from '$lib/features/runs/access';

/** POST /api/scenarios/{id}: walks the scenario on the built-in sandbox, streamed as NDJSON (see $lib/server/scenarios/page.ts). */
export const POST = ({ params, locals }) => scenarioStream(params.id, runOwner(locals.session()));
