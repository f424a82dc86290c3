import { walkAction } from '$lib/server/explorer';

/** POST /api/walk/{client|start|exchange|me|reveal|reset}: one step of the walk, answered with the new view. */
export const POST = ({ locals, params, request }) => walkAction(locals.sessionId, params.action, request);
