import { liveClients, liveWorkspace } from '$lib/features/live/live';
import { pageLoad } from '$lib/platform/errors';

export const load = pageLoad(async (event) => ({ clients: liveClients(await liveWorkspace(event)) }));
