import { redirect } from '@sveltejs/kit';
import { deleteRun, loadRunPage } from '$lib/features/runs/controller';
import { pageLoad } from '$lib/platform/errors';

export const load = pageLoad(({ params, locals }) => loadRunPage(params.id, locals.sessionId));

export const actions = {
	/** Deletes the run (its owner only), then shows the list. */
	delete: pageLoad(async ({ params, locals }) => {
		await deleteRun(params.id, locals.sessionId);
		redirect(303, '/runs?deleted=1');
	})
};
