import { addEvidence } from '$lib/features/runs/evidence';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /runs/[id]/evidence: more evidence for the run (its owner only); see features/runs/evidence.ts. */
export const POST: RequestHandler = apiRoute((event) => addEvidence(event));
