import { liveClient, liveEventStream, liveWorkspace, stillWatchable } from '$lib/features/live/live';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** GET: the client's flows as server-sent events, as they happen (reads only). */
export const GET: RequestHandler = apiRoute(async (event) => {
	const workspace = await liveWorkspace(event);
	const client = liveClient(workspace, event.params.client);
	return liveEventStream(workspace, client, event.request.signal, () => stillWatchable(event, workspace, client.client_id));
});
