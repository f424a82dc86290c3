import { loadRunPage } from '$lib/server/support';

export const load = ({ params, locals }) => loadRunPage(params.id, locals.sessionId);
