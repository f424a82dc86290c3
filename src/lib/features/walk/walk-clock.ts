/**
 * Whose clock a walk on the sandbox shows. Each workspace keeps its own clock, and a walk may name any client id,
 * another workspace's private one too: the clock shown (and every time the walk records on it) is the client's
 * workspace's only when the session may read that workspace, else the session's own.
 */
import { DEFAULT_WORKSPACE_ID, type SandboxWorkspace } from '$lib/sandbox/store';

/**
 * `holder`: the workspace holding the walk's client; `own`: the session's workspace (the one it made or joined,
 * or the default one). The session may read its own and the default workspace, whose clock every visitor's walk
 * shows anyway.
 */
export function walkClockWorkspace(holder: SandboxWorkspace, own: SandboxWorkspace): SandboxWorkspace {
	return holder.id === own.id || holder.id === DEFAULT_WORKSPACE_ID ? holder : own;
}
