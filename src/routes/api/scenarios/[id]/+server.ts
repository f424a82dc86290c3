import { scenarioStream } from '$lib/features/scenarios/page';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /api/scenarios/{id}: walks the scenario on the built-in sandbox, streamed as NDJSON (features/scenarios/page.ts). */
export const POST: RequestHandler = apiRoute(({ params, locals }) => scenarioStream(params.id, locals.session()));
