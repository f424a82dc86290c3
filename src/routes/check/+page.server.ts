import { loadCheckPage } from '$lib/features/walk/explorer';

export const load = ({ locals, url }) => loadCheckPage(locals.sessionId, url.searchParams.get('link'));
