import { liveClient, liveEventStream, liveWorkspace } from '$lib/server/live';

/** GET: the client's flows as server-sent events, as they happen (reads only). */
export const GET = async (event) => {
	const workspace = await liveWorkspace(event);
	return liveEventStream(workspace, liveClient(workspace, event.params.client), event.request.signal);
};
