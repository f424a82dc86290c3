import { json, redirect } from '@sveltejs/kit';
import { createSessionWorkspace, returnPath } from '$lib/server/workspace-session';

/** POST /workspaces (the switcher's one click): a workspace of the session's own, with the demo fixtures. */
export const POST = async (event) => {
	const form = await event.request.formData().catch(() => null);
	const outcome = await createSessionWorkspace(event);
	if (!outcome.ok) return json({ message: outcome.message }, { status: outcome.status });
	redirect(303, returnPath(form));
};
