import { loadCheckPage } from '$lib/server/explorer';

export const load = ({ locals, url }) => loadCheckPage(locals.sessionId, url.searchParams.get('link'));
