import { loadRunPage } from '$lib/server/support';

export const load = ({ params }) => loadRunPage(params.id);
