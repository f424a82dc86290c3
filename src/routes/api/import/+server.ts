import { importRun } from '$lib/features/runs/controller';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /api/import: a HAR file itself as the body with `?kind=har` (read as it streams), or `{kind, text}` as JSON. */
export const POST: RequestHandler = apiRoute(({ request, url, locals }) => importRun(request, url, locals.session()));
