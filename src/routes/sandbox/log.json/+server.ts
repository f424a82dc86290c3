import { json } from '@sveltejs/kit';
import { newestRequestId, recentRequests } from '$lib/server/panel';
import { services } from '$lib/server/services';
import type { RequestHandler } from './$types';

/**
 * The sandbox's latest requests for the panel's live log, polled every 2 s. The ETag is the newest entry's id
 * (ids only grow, even across a reset), so an unchanged log costs a 304.
 */
export const GET: RequestHandler = async ({ request }) => {
	const { sandbox } = await services();
	if (!sandbox) return json({ error: 'The sandbox is off (SANDBOX=off): there is no request log.' }, { status: 404 });
	const newest = newestRequestId(sandbox.store);
	const etag = `"log-${newest}"`;
	const headers = { etag, 'cache-control': 'no-cache' };
	if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
	return json({ newest, entries: recentRequests(sandbox.store) }, { headers });
};
