/**
 * What every feature knows of a person's explorer session: whether it may administer the sandbox, and the sandbox
 * workspace it made or joined. Kept in the session store (session.ts) under the session's id; the walk keeps its
 * own part beside it (features/walk/explorer.ts) and starts again when the session switches workspace.
 */
import type { SandboxWorkspace } from '$lib/sandbox/store';
import { services } from './services';

export interface ExplorerSession {
	/** Whether this session gave the sandbox's admin token (features/sandbox-admin/access.ts). */
	sandboxAdmin: boolean;
	/** The sandbox workspace this session made or joined (features/sandbox-admin/workspace-session.ts); null: the default workspace. */
	workspace: SessionWorkspace | null;
	/** The id of the workspace this session was in until it was removed, so the switcher says so; null once it makes, joins or leaves one. */
	removedWorkspace: string | null;
	/** How many times the session switched workspace: what the walk was made for, so a switch starts it again. */
	switches: number;
}

/** A workspace's id and key: the key stays in the server-side session, shown only in its member's share box. */
export interface SessionWorkspace {
	id: string;
	key: string;
}

const fresh = (): ExplorerSession => ({ sandboxAdmin: false, workspace: null, removedWorkspace: null, switches: 0 });

/** The session's state; without a session (a first visit), a fresh one that is shown but not kept. */
export async function explorerSession(sessionId: string | undefined): Promise<ExplorerSession> {
	if (sessionId === undefined) return fresh();
	const { sessions } = await services();
	return sessions.data(sessionId, fresh);
}

export async function isSandboxAdmin(sessionId: string): Promise<boolean> {
	return (await explorerSession(sessionId)).sandboxAdmin;
}

/** Remembers, for the session's life, that it gave the sandbox's admin token. */
export async function grantSandboxAdmin(sessionId: string): Promise<void> {
	(await explorerSession(sessionId)).sandboxAdmin = true;
}

/**
 * The workspace's view this session uses: the one it made or joined while that still exists (and its key still
 * opens it), else the default workspace; null when the sandbox is off.
 */
export async function sessionWorkspace(s: ExplorerSession): Promise<SandboxWorkspace | null> {
	const { sandbox } = await services();
	if (!sandbox) return null;
	if (s.workspace) {
		const joined = sandbox.store.workspaceForKey(s.workspace.key);
		if (joined?.id === s.workspace.id) {
			// Using it in the explorer is using it: it does not expire, nor make room for others, while its member works.
			joined.touch();
			return joined;
		}
		// Removed (idle, to make room, or deleted): back to the default workspace, and the switcher says why.
		s.removedWorkspace = s.workspace.id;
		s.workspace = null;
	}
	return sandbox.store;
}

/** The session's workspace, for a session id (a visitor without a session uses the default workspace). */
export async function sessionWorkspaceOf(
	sessionId: string | undefined
): Promise<{ workspace: SandboxWorkspace | null; member: SessionWorkspace | null; removed: string | null }> {
	if (sessionId === undefined) return { workspace: (await services()).sandbox?.store ?? null, member: null, removed: null };
	const s = await explorerSession(sessionId);
	const workspace = await sessionWorkspace(s);
	return { workspace, member: s.workspace, removed: s.removedWorkspace };
}

/** Makes the session use the workspace (null: the default one); its walk starts again with that workspace's demo client. */
export async function switchWorkspace(sessionId: string, member: SessionWorkspace | null): Promise<void> {
	const s = await explorerSession(sessionId);
	s.workspace = member;
	s.removedWorkspace = null;
	s.switches++;
}
