import { loadRunPage } from '$lib/features/runs/controller';
import { pageLoad } from '$lib/platform/errors';

export const load = pageLoad(({ params, locals }) => loadRunPage(params.id, locals.sessionId));
