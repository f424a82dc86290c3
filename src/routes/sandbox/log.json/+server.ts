import { json } from '@sveltejs/kit';
import { newestRequestId, recentRequests } from '$lib/features/sandbox-admin/panel';
import { panelWorkspace } from '$lib/features/sandbox-admin/access';
import { apiRoute, forbidden, sandboxOff } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/**
 * The session's workspace's latest requests for the panel's live log, polled every 2 s. The ETag is the newest entry's id
 * (ids only grow, even across a reset), so an unchanged log costs a 304.
 */
export const GET: RequestHandler = apiRoute(async (event) => {
	const shown = await panelWorkspace(event);
	if (!shown) throw sandboxOff('there is no request log.');
	if (shown.readOnly) throw forbidden("The default workspace's log is not shown on a public sandbox: use your own workspace.");
	const { request } = event;
	const newest = newestRequestId(shown.workspace);
	const etag = `"log-${shown.workspace.id}-${newest}"`;
	const headers = { etag, 'cache-control': 'no-cache' };
	if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
	return json({ newest, entries: recentRequests(shown.workspace) }, { headers });
});
