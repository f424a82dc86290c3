import { redirect } from '@sveltejs/kit';
import { liveClient, liveFlows, liveWorkspace, saveLiveFlow } from '$lib/features/live/live';
import { outcomeRulesView } from '$lib/features/sandbox-admin/outcome-rules';
import { badRequest, pageLoad } from '$lib/platform/errors';

export const load = pageLoad(async (event) => {
	const workspace = await liveWorkspace(event);
	const client = liveClient(workspace, event.params.client);
	// liveWorkspace refused a read-only workspace: the rules may be changed here.
	return { client: { clientId: client.client_id, name: client.name }, flows: await liveFlows(workspace, client), outcomes: outcomeRulesView(workspace, client.client_id, false) };
});

export const actions = {
	/** Saves one flow as a run of this session's; its permalink opens. */
	save: pageLoad(async (event) => {
		const workspace = await liveWorkspace(event);
		const client = liveClient(workspace, event.params.client);
		const flowId = (await event.request.formData().catch(() => null))?.get('flow');
		if (typeof flowId !== 'string' || flowId === '') throw badRequest('Which flow? The form carries none.');
		redirect(303, `/runs/${await saveLiveFlow(workspace, client, flowId, event.locals.session())}`);
	})
};
