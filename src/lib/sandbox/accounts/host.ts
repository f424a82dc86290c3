/**
 * The accounts host: a plain `node:http` handler with an exact-path route table, so the hot path (token and
 * me.json) has no framework layer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxStore } from '../store';
import { workspaceAdmission, type WorkspaceAdmission } from '../workspace-admission';
import { DEFAULT_WORKSPACE_POLICY, type WorkspacePolicy } from '../workspaces';
import { createControlApi } from './control';
import { sendJson, splitTarget } from './http';
import { handleMe } from './me';
import { handleToken } from './token';

export interface AccountsHostOptions {
	/** The control API under /sandbox/; off for a public deployment. */
	controlApi: boolean;
	/** What a control request must carry; null: only requests from this machine (admin-access.ts). */
	adminToken?: string | null;
	/** Origin of the explorer: the fixtures' redirect URI (`/callback`) follows it on reset. */
	explorerOrigin: string;
	/** Public mode and the workspaces' limits; the defaults when absent (not public). */
	workspaces?: WorkspacePolicy;
	/** Who may make a workspace, shared with the explorer's door (startSandbox); a host of its own makes one when absent. */
	admission?: WorkspaceAdmission;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createAccountsHost(store: SandboxStore, options: AccountsHostOptions): RequestHandler {
	const workspaces = options.workspaces ?? DEFAULT_WORKSPACE_POLICY;
	const control = options.controlApi
		? createControlApi(store, {
				explorerOrigin: options.explorerOrigin,
				workspaces,
				admission: options.admission ?? workspaceAdmission(store, workspaces, options.explorerOrigin),
				adminToken: options.adminToken ?? null
			})
		: null;

	/** Synchronous where it can be (me.json is the busiest path); the token endpoint waits for its body. */
	function route(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
		const { path, query } = splitTarget(req.url);
		if (path === '/oauth/token') return handleToken(store, req, res, query);
		if (path === '/api/v3/me.json') return handleMe(store, req, res, query);
		if (path === '/health') {
			req.resume();
			if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { message: `/health only answers GET and HEAD, not ${req.method}.` }, { Allow: 'GET, HEAD' });
			// The shape of every host's /health (the explorer's and the authorisation host's), with the default workspace's clock.
			return sendJson(res, 200, { ok: true, host: 'accounts', now: store.now().toISOString() });
		}
		if (control && (path === '/sandbox' || path.startsWith('/sandbox/'))) return control(req, res, path, query);
		req.resume();
		sendJson(res, 404, {
			message: `Nothing at ${path} on the accounts host. It serves POST /oauth/token, GET /api/v3/me.json and GET /health${control ? ', and the control API under /sandbox/' : ''}.`
		});
	}

	// A bug, not a client error: say so without details, and keep the process serving.
	function failed(res: ServerResponse, error: unknown): void {
		console.error('sandbox accounts host:', error);
		if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'The sandbox failed unexpectedly; see its console.' });
		else res.destroy();
	}

	return (req, res) => {
		try {
			route(req, res)?.catch((error: unknown) => failed(res, error));
		} catch (error) {
			failed(res, error);
		}
	};
}
