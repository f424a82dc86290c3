import { scenarioStream } from '$lib/scenarios/server';

/** POST /api/scenarios/{id}: walks the scenario on the built-in sandbox, streamed as NDJSON (see scenarios/server.ts). */
export const POST = ({ params }) => scenarioStream(params.id);
