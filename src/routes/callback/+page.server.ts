import { redirect } from '@sveltejs/kit';
import { recordCallbackFor } from '$lib/features/walk/explorer';

/** The redirect URI: record exactly what arrived, then go back to the page that started the walk. */
export const load = async ({ locals, url }) => {
	const firstVisit = locals.sessionId === undefined;
	const returnTo = await recordCallbackFor(locals.session(), url.href, firstVisit);
	redirect(303, returnTo);
};
