import { error, redirect } from '@sveltejs/kit';
import { createSessionWorkspace, returnPath } from '$lib/features/sandbox-admin/workspace-session';
import { errorBody, errorFor } from '$lib/platform/errors';

/**
 * POST /workspaces (the switcher's one click): a workspace of the session's own, with the demo fixtures. A refusal
 * is an error page with its reason for a browser's plain form post (JSON for a script), not a raw JSON page.
 */
export const POST = async (event) => {
	const form = await event.request.formData().catch(() => null);
	const outcome = await createSessionWorkspace(event);
	if (!outcome.ok) error(outcome.status, errorBody(errorFor(outcome.status, outcome.message)));
	redirect(303, returnPath(form));
};
