import { loadRunList } from '$lib/server/support';

export const load = ({ url, locals }) => loadRunList(url.searchParams.get('q') ?? '', locals.sessionId);
