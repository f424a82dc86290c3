import { loadWalkPage } from '$lib/server/explorer';

export const load = ({ locals }) => loadWalkPage(locals.sessionId);
