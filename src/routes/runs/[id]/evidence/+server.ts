import { addEvidence } from '$lib/features/runs/evidence';
import type { RequestHandler } from './$types';

/** POST /runs/[id]/evidence: more evidence for the run (its owner only); see server/evidence.ts. */
export const POST: RequestHandler = (event) => addEvidence(event);
