import { liveClients, liveWorkspace } from '$lib/server/live';

export const load = async (event) => ({ clients: liveClients(await liveWorkspace(event)) });
