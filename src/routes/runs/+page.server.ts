import { loadRunList } from '$lib/server/support';

export const load = ({ url }) => loadRunList(url.searchParams.get('q') ?? '');
