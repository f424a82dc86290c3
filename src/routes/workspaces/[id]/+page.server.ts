import { fail, redirect } from '@sveltejs/kit';
import { joinWorkspace } from '$lib/features/sandbox-admin/workspace-session';

/** A share link's page: a GET only shows the join form (it changes nothing); its POST joins. */
export const load = ({ params }) => ({ id: params.id });

export const actions = {
	default: async (event) => {
		const outcome = await joinWorkspace(event, event.params.id, await event.request.formData().catch(() => null));
		if (!outcome.ok) return fail(outcome.status, { message: outcome.message });
		redirect(303, '/');
	}
};
