import { error, redirect } from '@sveltejs/kit';
import { liveClient, liveFlows, liveWorkspace, saveLiveFlow } from '$lib/features/live/live';
import { outcomeRulesView } from '$lib/features/sandbox-admin/outcome-rules';

export const load = async (event) => {
	const workspace = await liveWorkspace(event);
	const client = liveClient(workspace, event.params.client);
	// liveWorkspace refused a read-only workspace: the rules may be changed here.
	return { client: { clientId: client.client_id, name: client.name }, flows: await liveFlows(workspace, client), outcomes: outcomeRulesView(workspace, client.client_id, false) };
};

export const actions = {
	/** Saves one flow as a run of this session's; its permalink opens. */
	save: async (event) => {
		const workspace = await liveWorkspace(event);
		const client = liveClient(workspace, event.params.client);
		const flowId = (await event.request.formData().catch(() => null))?.get('flow');
		if (typeof flowId !== 'string' || flowId === '') error(400, 'Which flow? The form carries none.');
		redirect(303, `/runs/${await saveLiveFlow(workspace, client, flowId, event.locals.session())}`);
	}
};
