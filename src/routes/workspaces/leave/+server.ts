import { redirect } from '@sveltejs/kit';
import { leaveWorkspace, returnPath } from '$lib/features/sandbox-admin/workspace-session';

/** POST /workspaces/leave: the session goes back to the default workspace. */
export const POST = async (event) => {
	const form = await event.request.formData().catch(() => null);
	await leaveWorkspace(event);
	redirect(303, returnPath(form));
};
