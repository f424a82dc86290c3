import { loadWalkPage } from '$lib/features/walk/explorer';
import { workspaceSwitcher } from '$lib/features/sandbox-admin/workspace-session';

export const load = async (event) => ({ ...(await loadWalkPage(event.locals.sessionId)), workspaces: await workspaceSwitcher(event) });
