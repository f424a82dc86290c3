/**
 * The control API's workspace endpoints: `POST /sandbox/workspaces` creates a workspace and answers its key (shown
 * this once); `DELETE /sandbox/workspaces/{id}` removes one, with its key. `GET /sandbox/workspace` (control.ts)
 * describes one with `workspaceView`.
 */
import type { IncomingMessage } from 'node:http';
import { createWorkspace } from '../fixtures';
import type { SandboxStore, SandboxWorkspace } from '../store';
import { WORKSPACE_LIMITS, creationRateLimit, type WorkspacePolicy } from '../workspaces';
import { WorkspaceBody, badRequest, describeIssues, type Answer } from './control-schemas';
import { resolveWorkspace } from './workspace-access';

export const WORKSPACE_PATH = /^\/sandbox\/workspaces\/([a-z0-9]{1,64})$/;

/** What `GET /sandbox/workspace` and the creation answer say about a workspace (never its key). */
export function workspaceView(workspace: SandboxWorkspace, policy: WorkspacePolicy, readOnly: boolean) {
	const info = workspace.info();
	return {
		id: info.id,
		name: info.name,
		kind: info.kind,
		fixtures: info.fixtures,
		now: workspace.now().toISOString(),
		today: workspace.today(),
		read_only: readOnly,
		// The default workspace never expires; another one does once idle this long.
		idle_expiry_hours: info.kind === 'default' ? null : policy.idleHours,
		limits: policy.public ? WORKSPACE_LIMITS : { logEntries: WORKSPACE_LIMITS.logEntries }
	};
}

/** The creation and deletion answers for one control API. */
export function workspaceEndpoints(store: SandboxStore, policy: WorkspacePolicy, explorerOrigin: string) {
	const rateLimit = creationRateLimit(policy.creationsPerAddressPerHour);

	/** `POST /sandbox/workspaces`: a new workspace and its key, shown this once. */
	function answerCreation(req: IncomingMessage, body: unknown): Answer {
		const parsed = WorkspaceBody.safeParse(body);
		if (!parsed.success) return badRequest(describeIssues(parsed.error));
		if (policy.public) {
			if (store.workspaceCount() >= WORKSPACE_LIMITS.workspaces) {
				return { status: 503, body: { error: 'The sandbox holds as many workspaces as it can; try again once idle ones have expired.' } };
			}
			const allowed = rateLimit.take(req.socket.remoteAddress ?? 'unknown');
			if (!allowed.ok) {
				return {
					status: 429,
					body: {
						error: `This address has created ${policy.creationsPerAddressPerHour} workspaces in the last hour, the most public mode allows. Try again in ${allowed.retryAfterSeconds} s, or keep using a workspace you have.`
					},
					headers: { 'Retry-After': String(allowed.retryAfterSeconds) }
				};
			}
		}
		const { workspace, key } = createWorkspace(store, parsed.data, explorerOrigin);
		return {
			status: 201,
			body: {
				...workspaceView(workspace, policy, false),
				key,
				header: 'X-Sandbox-Workspace-Key',
				clients: workspace.listClients().map((c) => c.client_id)
			}
		};
	}

	/** `DELETE /sandbox/workspaces/{id}` with that workspace's key. */
	function answerDeletion(req: IncomingMessage, id: string): Answer {
		const access = resolveWorkspace(req, store, policy.public);
		if (!access.ok) return { status: access.status, body: { error: access.error } };
		if (access.workspace.id !== id || access.workspace.info().kind !== 'normal') {
			return { status: 403, body: { error: `The X-Sandbox-Workspace-Key header does not open workspace ${id}; send that workspace's own key.` } };
		}
		store.deleteWorkspace(id);
		return { status: 200, body: { deleted: id } };
	}

	return { answerCreation, answerDeletion };
}
