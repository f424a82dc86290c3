import type { Handle, ServerInit } from '@sveltejs/kit';
import { startExplorerServices } from '$lib/platform/services';
import { handleSession, refuseCrossSiteWrites } from '$lib/platform/hooks';
import { logServerFaultsOnly, refuseFraming } from '$lib/platform/http-guards';
import { guardSandboxAdmin } from '$lib/features/sandbox-admin/access';
import { limitRequestBodies } from '$lib/platform/body-limits';
import { sequence } from '@sveltejs/kit/hooks';

export const init: ServerInit = async () => {
	await startExplorerServices();
};

export const handle: Handle = sequence(refuseFraming, refuseCrossSiteWrites, limitRequestBodies, handleSession, guardSandboxAdmin);

export const handleError = logServerFaultsOnly;
