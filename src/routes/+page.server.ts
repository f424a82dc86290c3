import { loadWalkPage } from '$lib/server/explorer';
import { readableRegistration } from '$lib/server/sandbox-admin';
import { workspaceSwitcher } from '$lib/server/workspace-session';

export const load = async (event) => ({
	...(await loadWalkPage(event.locals.sessionId)),
	workspaces: await workspaceSwitcher(event),
	// Step 1 checks a link to the sandbox against what it has registered, when this session may see that.
	registration: await readableRegistration(event)
});
