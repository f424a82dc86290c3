import type { Handle, ServerInit } from '@sveltejs/kit';
import { startExplorerServices } from '$lib/server/services';
import { handleSession, refuseCrossSiteWrites } from '$lib/server/hooks';
import { logServerFaultsOnly, refuseFraming } from '$lib/server/http-guards';
import { guardSandboxAdmin } from '$lib/server/sandbox-admin';
import { limitRequestBodies } from '$lib/server/body-limits';
import { sequence } from '@sveltejs/kit/hooks';

export const init: ServerInit = async () => {
	await startExplorerServices();
};

export const handle: Handle = sequence(refuseFraming, refuseCrossSiteWrites, limitRequestBodies, handleSession, guardSandboxAdmin);

export const handleError = logServerFaultsOnly;
