import { redirect } from '@sveltejs/kit';
import { deleteListedRuns, loadRunList } from '$lib/features/runs/controller';
import { pageLoad } from '$lib/platform/errors';

export const load = ({ url, locals }) => loadRunList(url.searchParams, locals.sessionId);

export const actions = {
	/** Deletes the runs the list showed (the session's own only), then shows the list again. */
	deleteListed: pageLoad(async ({ request, locals }) => {
		const ids = ((await request.formData().catch(() => null))?.getAll('id') ?? []).filter((id) => typeof id === 'string');
		redirect(303, `/runs?deleted=${await deleteListedRuns(ids, locals.sessionId)}`);
	})
};
