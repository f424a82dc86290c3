import { walkAction } from '$lib/features/walk/explorer';

/** POST /api/walk/{client|start|exchange|me|reveal|reset|view}: one step of the walk, answered with what it changed. */
export const POST = ({ locals, params, request }) => walkAction(locals.session(), params.action, request);
