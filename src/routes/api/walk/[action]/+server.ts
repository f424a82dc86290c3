import { walkAction } from '$lib/features/walk/explorer';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /api/walk/{client|start|exchange|me|reveal|reset|stray|view}: one step of the walk, answered with what it changed. */
export const POST: RequestHandler = apiRoute(({ locals, params, request }) => walkAction(locals.session(), params.action, request));
