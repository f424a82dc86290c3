import { loadWalkPage } from '$lib/features/walk/explorer';
import { workspaceSwitcher } from '$lib/features/sandbox-admin/workspace-session';
import { readableRegistration } from '$lib/features/sandbox-admin/access';

export const load = async (event) => ({
	...(await loadWalkPage(event.locals.sessionId)),
	workspaces: await workspaceSwitcher(event),
	// Step 1 checks a link to the sandbox against what it has registered, when this session may see that.
	registration: await readableRegistration(event)
});
