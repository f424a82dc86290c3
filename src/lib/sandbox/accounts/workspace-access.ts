/**
 * Which workspace a control API call acts on: the one its `X-Sandbox-Workspace-Key` header opens, or without the
 * header the default workspace (read-only in public mode). A key that opens nothing is refused with one message,
 * whether the workspace never existed, expired or the key is wrong, and the key is never repeated back.
 */
import type { IncomingMessage } from 'node:http';
import type { SandboxStore, SandboxWorkspace } from '../store';
import { WORKSPACE_KEY_HEADER } from '../workspaces';

export type WorkspaceAccess =
	| { ok: true; workspace: SandboxWorkspace; readOnly: boolean }
	| { ok: false; status: 403; error: string };

export const WRONG_KEY =
	'The X-Sandbox-Workspace-Key header opens no workspace: the key is wrong, or its workspace was deleted, or removed after going unused (idle expiry, or sooner on a full public sandbox that needed room). Create a workspace with POST /sandbox/workspaces.';

export const DEFAULT_READ_ONLY =
	'The default workspace is read-only in public mode; create your own with POST /sandbox/workspaces and send its key in the X-Sandbox-Workspace-Key header.';

/** The call's workspace; `publicMode` makes the default workspace read-only to calls without a key. */
export function resolveWorkspace(req: IncomingMessage, store: SandboxStore, publicMode: boolean): WorkspaceAccess {
	const key = req.headers[WORKSPACE_KEY_HEADER];
	if (key === undefined) return { ok: true, workspace: store, readOnly: publicMode };
	const workspace = typeof key === 'string' ? store.workspaceForKey(key) : undefined;
	return workspace ? { ok: true, workspace, readOnly: false } : { ok: false, status: 403, error: WRONG_KEY };
}
