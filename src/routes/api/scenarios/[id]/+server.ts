import { scenarioStream } from '$lib/scenarios/server';
import { runOwner } from '$lib/server/run-access';

/** POST /api/scenarios/{id}: walks the scenario on the built-in sandbox, streamed as NDJSON (see scenarios/server.ts). */
export const POST = ({ params, locals }) => scenarioStream(params.id, runOwner(locals.sessionId));
