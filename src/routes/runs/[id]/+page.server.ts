import { loadRunPage } from '$lib/features/runs/controller';

export const load = ({ params, locals }) => loadRunPage(params.id, locals.sessionId);
