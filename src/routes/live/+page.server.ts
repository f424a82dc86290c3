import { liveClients, liveWorkspace } from '$lib/features/live/live';

export const load = async (event) => ({ clients: liveClients(await liveWorkspace(event)) });
