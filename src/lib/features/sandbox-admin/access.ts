/**
 * The explorer's doors to sandbox administration (the /sandbox control panel, its form actions, /sandbox/log.json,
 * and any route under /sandbox) follow the same rules as the control API on the accounts host (admin-access.ts):
 * SANDBOX_CONTROL_API=off closes them all (404); with SANDBOX_ADMIN_TOKEN set, a session must give the token once
 * (the panel's form) before anything is shown or done; with no token, only this machine administers.
 *
 * Workspaces compose as on the control API: a session that made or joined a workspace (workspace-session.ts) holds
 * its key, which is all the panel needs to show and change that workspace. In public mode anyone may look at the
 * default workspace, which is read-only, without its request log (everyone's requests).
 */
import type { Handle, RequestEvent } from '@sveltejs/kit';
import { adminTokenMatches, isLoopbackAddress } from '$lib/sandbox/admin-access';
import type { WriteRules } from '$lib/sandbox/accounts/workspace-writes';
import { DEFAULT_WORKSPACE_ID, type SandboxClient, type SandboxWorkspace } from '$lib/sandbox/store';
import type { Registration } from '$lib/flow/link/lint';
import { config } from '../../platform/config';
import { clientAddress } from '../../platform/client-address';
import { grantSandboxAdmin, isSandboxAdmin, sessionWorkspaceOf } from '../../platform/explorer-session';
import { errorResponse, forbidden, notFound, sandboxOff, type ExplorerError } from '../../platform/errors';

/**
 * - `off`: SANDBOX_CONTROL_API=off.
 * - `allowed`: this request may see and change the sandbox.
 * - `token-needed`: an admin token is set and this session has not given it.
 * - `local-only`: no admin token is set and the request comes from another machine.
 */
export type SandboxAdminAccess = 'off' | 'allowed' | 'token-needed' | 'local-only';

export const OFF_MESSAGE = 'Sandbox administration is turned off on this server (SANDBOX_CONTROL_API=off).';

function settings() {
	const { controlApi, adminToken, workspaces } = config().sandboxService;
	return { controlApi, adminToken, publicMode: workspaces.public };
}

/** The rules the panel's writes hold, as the control API's do: public mode's limits. */
export function workspaceWriteRules(): WriteRules {
	return { public: settings().publicMode };
}


/** Access to the sandbox itself (its default workspace, making workspaces outside public mode). */
export async function defaultAdminAccess(event: RequestEvent): Promise<SandboxAdminAccess> {
	const { controlApi, adminToken } = settings();
	if (!controlApi) return 'off';
	if (adminToken === null) return isLoopbackAddress(clientAddress(event)) ? 'allowed' : 'local-only';
	return event.locals.sessionId !== undefined && (await isSandboxAdmin(event.locals.sessionId)) ? 'allowed' : 'token-needed';
}

/** Access to the panel: to the session's own workspace, to the default one read-only in public mode, else as `defaultAdminAccess`. */
export async function sandboxAdminAccess(event: RequestEvent): Promise<SandboxAdminAccess> {
	const { controlApi, publicMode } = settings();
	if (!controlApi) return 'off';
	if (publicMode || (await sessionWorkspaceOf(event.locals.sessionId)).member) return 'allowed';
	return defaultAdminAccess(event);
}

/**
 * The workspace the panel shows and changes (after `sandboxAdminAccess` allowed it): the session's own, else the
 * default one, read-only in public mode. Null when the sandbox is off.
 */
export async function panelWorkspace(event: RequestEvent): Promise<{ workspace: SandboxWorkspace; readOnly: boolean } | null> {
	const { workspace, member } = await sessionWorkspaceOf(event.locals.sessionId);
	if (!workspace) return null;
	return { workspace, readOnly: member === null && settings().publicMode };
}

/**
 * The session's panel workspace and its client `clientId`, when the session may administer it (the client
 * scope of the outcome rules and the app check); else throws the refusal (an ExplorerError). A client of another
 * workspace is answered as unknown.
 */
export async function clientScope(
	event: RequestEvent,
	clientId: string
): Promise<{ workspace: SandboxWorkspace; client: SandboxClient; readOnly: boolean }> {
	const access = await sandboxAdminAccess(event);
	if (access !== 'allowed') throw accessRefused(access);
	const shown = await panelWorkspace(event);
	if (!shown) throw sandboxOff('there are no clients to administer.');
	const client = shown.workspace.getClient(clientId);
	if (!client) throw notFound(`No client \`${clientId.slice(0, 100)}\` in your sandbox workspace.`);
	return { client, ...shown };
}

/**
 * The clients of the session's panel workspace, as the linter reads them (lint-registration.ts), when the session may
 * see that workspace (as `clientScope` decides); null otherwise, or with the sandbox off. No secrets: ids, redirect
 * URIs and countries only.
 */
export async function readableRegistration(event: RequestEvent): Promise<Registration | null> {
	if ((await sandboxAdminAccess(event)) !== 'allowed') return null;
	const shown = await panelWorkspace(event);
	if (!shown) return null;
	return {
		authUrl: config().sandbox.authUrl,
		workspace: shown.workspace.info().name,
		clients: shown.workspace.listClients().map((c) => ({ clientId: c.client_id, redirectUris: c.redirect_uris, countries: c.countries }))
	};
}

/**
 * Whether this request may read `workspace`'s request log, as the panel shows it: the session's own workspace,
 * or the default one to whoever administers the sandbox outside public mode (there it is everyone's requests).
 * Never another workspace's.
 */
export async function mayReadWorkspaceLog(event: RequestEvent, workspace: SandboxWorkspace): Promise<boolean> {
	const { controlApi, publicMode } = settings();
	if (!controlApi) return false;
	const { workspace: own, member } = await sessionWorkspaceOf(event.locals.sessionId);
	if (member !== null) return own?.id === workspace.id;
	return workspace.id === DEFAULT_WORKSPACE_ID && !publicMode && (await defaultAdminAccess(event)) === 'allowed';
}

/** The panel's login: true (and the session remembered) when `token` is the admin token. */
export async function logInAsSandboxAdmin(event: RequestEvent, token: string): Promise<boolean> {
	const { adminToken } = settings();
	if (adminToken === null || !adminTokenMatches(adminToken, token)) return false;
	await grantSandboxAdmin(event.locals.session());
	return true;
}

const isSandboxPath = (path: string) => path === '/sandbox' || path.startsWith('/sandbox/');
/** What a session without access may still ask for: the panel page (which shows the login) and the login itself. */
const isLoginDoor = (event: RequestEvent) =>
	event.url.pathname === '/sandbox' && (event.request.method === 'GET' || (event.request.method === 'POST' && event.url.search === '?/login'));

/** Why an access other than `allowed` refuses, with a message a person can act on. */
function accessRefused(access: Exclude<SandboxAdminAccess, 'allowed'>): ExplorerError {
	if (access === 'off') return notFound(OFF_MESSAGE);
	return forbidden(
		access === 'token-needed'
			? 'Sandbox administration needs the admin token: give it on the /sandbox page first.'
			: 'Sandbox administration is open to this machine only; the operator must set SANDBOX_ADMIN_TOKEN to allow it from elsewhere.'
	);
}

/** Every request under /sandbox passes here (after the session hook). */
export const guardSandboxAdmin: Handle = async ({ event, resolve }) => {
	if (!isSandboxPath(event.url.pathname)) return resolve(event);
	const access = await sandboxAdminAccess(event);
	if (access === 'allowed' || (access !== 'off' && isLoginDoor(event))) return resolve(event);
	return errorResponse(accessRefused(access));
};
