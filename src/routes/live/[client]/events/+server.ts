import { liveClient, liveEventStream, liveWorkspace, stillWatchable } from '$lib/features/live/live';

/** GET: the client's flows as server-sent events, as they happen (reads only). */
export const GET = async (event) => {
	const workspace = await liveWorkspace(event);
	const client = liveClient(workspace, event.params.client);
	return liveEventStream(workspace, client, event.request.signal, () => stillWatchable(event, workspace, client.client_id));
};
