import { exportRun } from '$lib/features/runs/controller';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = apiRoute(({ params, locals }) => exportRun(params.id, params.format, locals.sessionId));
