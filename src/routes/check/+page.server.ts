import { redirect } from '@sveltejs/kit';
import { FIXTURE_CLIENTS } from '$lib/sandbox/fixtures';
import { readableRegistration } from '$lib/features/sandbox-admin/access';
import { fragmentOf } from '$lib/components/checkFragment';

const DEMO = FIXTURE_CLIENTS[0]!;

/** The check runs in the browser: this load gives it only what it checks against, never sees the link. */
export const load = async (event) => {
	// An address from before the link moved to the fragment: the same check, the link off the query string.
	const link = event.url.searchParams.get('link');
	if (link !== null) redirect(308, `/check${fragmentOf(link)}`);
	return {
		// Public: shipped with the sandbox and shown on the reference page; named when a link carries it.
		secrets: [{ value: DEMO.client_secret, whose: `the demo client's secret (${DEMO.client_id})` }],
		// A link to the sandbox is checked against what it has registered, when this session may see that.
		registration: await readableRegistration(event)
	};
};
