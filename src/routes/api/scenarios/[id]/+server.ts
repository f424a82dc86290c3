import { scenarioStream } from '$lib/server/scenarios/page';

/** POST /api/scenarios/{id}: walks the scenario on the built-in sandbox, streamed as NDJSON (see $lib/server/scenarios/page.ts). */
export const POST = ({ params }) => scenarioStream(params.id);
