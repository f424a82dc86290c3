import { loadRunList } from '$lib/features/runs/controller';

export const load = ({ url, locals }) => loadRunList(url.searchParams, locals.sessionId);
