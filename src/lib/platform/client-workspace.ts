import type { SandboxWorkspace } from '$lib/sandbox/store';
import { services } from './services';

/**
 * The sandbox workspace a client belongs to (each keeps its own clock), the default one for a client no workspace
 * holds; null without a sandbox.
 */
export async function clientWorkspace(clientId: string | undefined): Promise<SandboxWorkspace | null> {
	const { sandbox } = await services();
	if (!sandbox) return null;
	return (clientId === undefined ? undefined : sandbox.store.findClientAnywhere(clientId)?.workspace) ?? sandbox.store;
}
