import { loadWalkPage } from '$lib/server/explorer';
import { workspaceSwitcher } from '$lib/server/workspace-session';

export const load = async (event) => ({ ...(await loadWalkPage(event.locals.sessionId)), workspaces: await workspaceSwitcher(event) });
