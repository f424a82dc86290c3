/**
 * The control API's workspace endpoints: `POST /sandbox/workspaces` creates a workspace and answers its key (shown
 * this once); `DELETE /sandbox/workspaces/{id}` removes one, with its key. `GET /sandbox/workspace` (control.ts)
 * describes one with `workspaceView`.
 */
import type { IncomingMessage } from 'node:http';
import { INTERNAL_WORK_HEADER } from '../../http/secrets';
import { adminTokenMatches, presentedAdminToken } from '../admin-access';
import type { SandboxStore, SandboxWorkspace } from '../store';
import type { Creator, WorkspaceAdmission } from '../workspace-admission';
import { WORKSPACE_LIMITS, type WorkspacePolicy } from '../workspaces';
import { schemaProblems } from '../../http/json';
import { WorkspaceBody, badRequest, type Answer } from './control-schemas';
import { headerValue } from './http';
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

/** What creating needs besides the store: the policy, the one admission every door shares, and the admin token. */
export interface WorkspaceEndpointsOptions {
	policy: WorkspacePolicy;
	admission: WorkspaceAdmission;
	adminToken: string | null;
}

/** The creation and deletion answers for one control API. */
export function workspaceEndpoints(store: SandboxStore, { policy, admission, adminToken }: WorkspaceEndpointsOptions) {
	/**
	 * Who a creation is for. Outside public mode only the administrator gets this far. In public mode a call is the
	 * operator's when it proves it: the explorer's internal-work credential, or the admin token when one is set (not
	 * this machine's address, which visitors behind a proxy share); else it is a visitor's, by its address.
	 */
	function creatorOf(req: IncomingMessage): Creator {
		if (!policy.public || admission.isInternal(req.headers[INTERNAL_WORK_HEADER])) return { kind: 'operator' };
		if (adminToken !== null && adminTokenMatches(adminToken, presentedAdminToken((name) => headerValue(req, name)))) return { kind: 'operator' };
		return { kind: 'visitor', address: req.socket.remoteAddress };
	}

	/** `POST /sandbox/workspaces`: a new workspace and its key, shown this once. */
	function answerCreation(req: IncomingMessage, body: unknown): Answer {
		const parsed = WorkspaceBody.safeParse(body);
		if (!parsed.success) return badRequest(schemaProblems(parsed.error).join('; '));
		const admitted = admission.create(creatorOf(req), parsed.data);
		if (!admitted.ok) {
			return { status: admitted.status, body: { error: admitted.message }, headers: { 'Retry-After': String(admitted.retryAfterSeconds) } };
		}
		const { workspace, key } = admitted;
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
