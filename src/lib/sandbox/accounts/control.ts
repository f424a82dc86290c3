/**
 * The sandbox control API under `/sandbox/` on the accounts host: JSON in, JSON out, not part of the interface.
 * Every body is validated with zod first; invalid input gets a 400 `{error}` and changes nothing.
 *
 * Each call acts on one workspace, the one its `X-Sandbox-Workspace-Key` header opens (`resolveWorkspace`), and
 * sees and changes nothing else. Its bodies' schemas are in control-schemas.ts; creating and deleting workspaces
 * (`POST /sandbox/workspaces`, `DELETE /sandbox/workspaces/{id}`) in control-workspaces.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { checkAuthorizationRequest, decide, hasActiveVerification } from '../authorize';
import { controlAccess } from '../admin-access';
import { resetToFixtures } from '../fixtures';
import { useWorkspace } from '../log';
import type { SandboxClient, SandboxStore, SandboxUser, SandboxWorkspace } from '../store';
import { WORKSPACE_KEY_HEADER, type WorkspacePolicy } from '../workspaces';
import { clearOutcomes, listOutcomes, setOutcome } from './control-outcomes';
import { AuthorizeBody, ClientBody, OutcomeBody, OutcomeClearBody, ResetBody, UserBody, badRequest, clockSchema, type Answer } from './control-schemas';
import { jsonParse, schemaProblems } from '../../http/json';
import { WORKSPACE_PATH, workspaceEndpoints, workspaceView } from './control-workspaces';
import { headerValue, mediaType, parseParams, readBody, sendJson } from './http';
import { writeClient, writeUser } from './workspace-writes';
import type { WorkspaceAdmission } from '../workspace-admission';
import { DEFAULT_READ_ONLY, resolveWorkspace } from './workspace-access';

const DEFAULT_LOG_LIMIT = 100;
const MAX_LOG_LIMIT = 500;

/** A client as shown outside the store: never its secret. */
export function publicClient(client: SandboxClient): Omit<SandboxClient, 'client_secret'> {
	const { client_secret: _secret, ...rest } = client;
	return rest;
}

function publicUser(user: SandboxUser) {
	return {
		login: user.login,
		sbid_number: user.sbid_number,
		verifications: user.verifications,
		deletion_requested: user.deletion_requested
	};
}

/** What a route acts on: the call's workspace, and whether the call may change it. */
interface RouteInput {
	body: unknown;
	query: URLSearchParams;
	workspace: SandboxWorkspace;
	readOnly: boolean;
}

type Route = { method: 'GET' | 'POST'; run: (input: RouteInput) => Answer };
/** A path answers one method, or several (each its own route). */
type PathRoutes = Route | readonly Route[];

function withBody<S extends z.ZodType>(schema: S, run: (body: z.infer<S>, workspace: SandboxWorkspace) => Answer): Route['run'] {
	return ({ body, workspace }) => {
		const parsed = schema.safeParse(body);
		return parsed.success ? run(parsed.data, workspace) : badRequest(schemaProblems(parsed.error).join('; '));
	};
}

function clockAnswer(workspace: SandboxWorkspace, now: Date): Answer {
	return { status: 200, body: { now: now.toISOString(), today: workspace.today() } };
}

function routes(explorerOrigin: string, policy: WorkspacePolicy): Record<string, PathRoutes> {
	return {
		'/sandbox/reset': {
			method: 'POST',
			run: withBody(ResetBody, (_, workspace) => {
				resetToFixtures(workspace, explorerOrigin);
				return { status: 200, body: { reset: true, now: workspace.now().toISOString() } };
			})
		},
		'/sandbox/clients': {
			method: 'POST',
			run: withBody(ClientBody, (body, workspace) => {
				const written = writeClient(workspace, body, policy);
				return written.ok ? { status: 200, body: publicClient(written.value) } : { status: written.status, body: { error: written.error } };
			})
		},
		'/sandbox/users': {
			method: 'POST',
			run: withBody(UserBody, (body, workspace) => {
				const written = writeUser(workspace, body, policy);
				return written.ok ? { status: 200, body: publicUser(written.value) } : { status: written.status, body: { error: written.error } };
			})
		},
		'/sandbox/clock': {
			method: 'POST',
			run: (input) => {
				const parsed = clockSchema(input.body).safeParse(input.body);
				if (!parsed.success) return badRequest(schemaProblems(parsed.error).join('; '));
				const { workspace } = input;
				const change = parsed.data;
				if ('set' in change) return clockAnswer(workspace, workspace.setClock(new Date(change.set)));
				if ('reset' in change) return clockAnswer(workspace, workspace.resetClock());
				return clockAnswer(workspace, workspace.advanceClock(change.advance_seconds));
			}
		},
		'/sandbox/authorize': {
			method: 'POST',
			run: withBody(AuthorizeBody, (body, workspace) => {
				const query = new URLSearchParams();
				for (const name of ['response_type', 'client_id', 'redirect_uri', 'country'] as const) {
					const value = body[name];
					if (value !== undefined) query.set(name, value);
				}
				const check = checkAuthorizationRequest(workspace, body.supergroup, query);
				if (!check.ok) {
					const { error } = check;
					return error.kind === 'row'
						? { status: 400, body: { error: error.message, detail: error.detail, row: error.rowId, cause: error.causeId } }
						: { status: 400, body: { error: error.message, choice: error.choiceId } };
				}
				// Deletion requested does not stop authorising (sandbox choice 'deleted-account-login').
				const user = workspace.getUserByLogin(body.login);
				if (!user) return { status: 404, body: { error: `No user has the login \`${body.login}\`; create one with POST /sandbox/users.` } };
				if (body.decision === 'authorize' && !hasActiveVerification(workspace, user, check.request.supergroup)) {
					return {
						status: 409,
						body: {
							error: `${user.login} has no active ${check.request.supergroup} verification, so the page would ask them to verify first. Add one with POST /sandbox/users.`
						}
					};
				}
				return { status: 200, body: decide(check.request, user.id, body.decision, 'POST /sandbox/authorize') };
			})
		},
		'/sandbox/outcomes': [
			{ method: 'GET', run: ({ workspace, query }) => listOutcomes(workspace, query) },
			{ method: 'POST', run: withBody(OutcomeBody, setOutcome) }
		],
		'/sandbox/outcomes/clear': { method: 'POST', run: withBody(OutcomeClearBody, clearOutcomes) },
		'/sandbox/log': {
			method: 'GET',
			run: ({ query, workspace, readOnly }) => {
				// In public mode the default workspace's log holds everyone's requests: nobody is shown it.
				if (readOnly) return { status: 403, body: { error: `Its log is not shown. ${DEFAULT_READ_ONLY}` } };
				const raw = query.get('limit');
				const limit = raw === null ? DEFAULT_LOG_LIMIT : Number(raw);
				if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_LIMIT) {
					return badRequest(`limit must be a whole number from 1 to ${MAX_LOG_LIMIT}.`);
				}
				return { status: 200, body: { entries: workspace.recentLog(limit) } };
			}
		},
		'/sandbox/state': {
			method: 'GET',
			run: ({ workspace }) => ({
				status: 200,
				body: {
					now: workspace.now().toISOString(),
					today: workspace.today(),
					clients: workspace.listClients().map(publicClient),
					users: workspace.listUsers().map(publicUser)
				}
			})
		},
		'/sandbox/workspace': {
			method: 'GET',
			run: ({ workspace, readOnly }) => ({ status: 200, body: workspaceView(workspace, policy, readOnly) })
		}
	};
}


async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false; answer: Answer } | 'aborted'> {
	const body = await readBody(req);
	if (!body.ok) return body.reason === 'aborted' ? 'aborted' : { ok: false, answer: { status: 413, body: { error: 'The body is larger than 64 KB.' }, headers: { Connection: 'close' } } };
	// Required even for an empty body: a cross-site HTML form cannot send this type (it would need CORS),
	// so no web page can reset or change the sandbox behind its user's back.
	if (mediaType(req) !== 'application/json') {
		return { ok: false, answer: { status: 415, body: { error: 'Send `Content-Type: application/json` (and a JSON body, or none for /sandbox/reset).' } } };
	}
	if (body.body.length === 0) return { ok: true, body: {} };
	try {
		return { ok: true, body: jsonParse(body.body.toString('utf8')) as unknown };
	} catch (e) {
		return { ok: false, answer: badRequest(`The body is not valid JSON: ${(e as Error).message}`) };
	}
}

export interface ControlApiOptions {
	/** Origin of the explorer: the demo fixtures' redirect URI (`/callback`) follows it. */
	explorerOrigin: string;
	workspaces: WorkspacePolicy;
	/** Who may make a workspace now: the one admission the explorer's door shares (workspace-admission.ts). */
	admission: WorkspaceAdmission;
	/** What an administrator's request must carry (admin-access.ts); null: only requests from this machine. */
	adminToken: string | null;
}


export function createControlApi(store: SandboxStore, { explorerOrigin, workspaces: policy, admission, adminToken }: ControlApiOptions) {
	const table = routes(explorerOrigin, policy);
	const { answerCreation, answerDeletion } = workspaceEndpoints(store, { policy, admission, adminToken });
	const endpoints = [...Object.keys(table), '/sandbox/workspaces', '/sandbox/workspaces/{id}'].join(', ');

	/**
	 * A call that carries a workspace's key is that workspace's (resolveWorkspace checks the key), and in public mode
	 * anyone may create a workspace. Every other call administers the sandbox itself (its default workspace, or
	 * creating workspaces on a private deployment): the operator's, by admin token or from this machine.
	 */
	function needsAdministrator(req: IncomingMessage, path: string): boolean {
		// Creating a workspace is no workspace's call: a key, any key, opens nothing here.
		if (path === '/sandbox/workspaces') return !policy.public;
		return req.headers[WORKSPACE_KEY_HEADER] === undefined;
	}

	return async function handleControl(req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> {
		const answer = (a: Answer) => sendJson(res, a.status, a.body, { 'Cache-Control': 'no-store', ...a.headers });
		if (needsAdministrator(req, path)) {
			const access = controlAccess(adminToken, { remoteAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) });
			if (!access.ok) {
				req.resume();
				return sendJson(res, access.status, { error: access.error }, access.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="sandbox control API"' } : {});
			}
		}
		if (path === '/sandbox/workspaces') {
			if (req.method !== 'POST') {
				req.resume();
				return sendJson(res, 405, { error: `${path} answers POST, not ${req.method}.` }, { Allow: 'POST' });
			}
			const read = await readJsonBody(req);
			if (read === 'aborted') return;
			return answer(read.ok ? answerCreation(req, read.body) : read.answer);
		}
		const workspacePath = WORKSPACE_PATH.exec(path);
		if (workspacePath) {
			req.resume();
			if (req.method !== 'DELETE') return sendJson(res, 405, { error: `${path} answers DELETE, not ${req.method}.` }, { Allow: 'DELETE' });
			return answer(answerDeletion(req, workspacePath[1]!));
		}
		const pathRoutes = table[path];
		if (!pathRoutes) {
			req.resume();
			return sendJson(res, 404, { error: `No control endpoint ${path}. Endpoints: ${endpoints}.` });
		}
		const choices = [pathRoutes].flat();
		const route = choices.find((r) => r.method === req.method);
		if (!route) {
			req.resume();
			const allowed = choices.map((r) => r.method);
			return sendJson(res, 405, { error: `${path} answers ${allowed.join(' or ')}, not ${req.method}.` }, { Allow: allowed.join(', ') });
		}
		const access = resolveWorkspace(req, store, policy.public);
		if (!access.ok) {
			req.resume();
			return answer({ status: access.status, body: { error: access.error } });
		}
		useWorkspace(req, access.workspace);
		if (access.readOnly && route.method === 'POST') {
			req.resume();
			return answer({ status: 403, body: { error: DEFAULT_READ_ONLY } });
		}
		const params = parseParams(query, 'query string');
		if (!params.ok) return sendJson(res, 400, { error: params.problem });
		let body: unknown = {};
		if (route.method === 'POST') {
			const read = await readJsonBody(req);
			if (read === 'aborted') return;
			if (!read.ok) return answer(read.answer);
			body = read.body;
		}
		answer(route.run({ body, query: new URLSearchParams([...params.params]), workspace: access.workspace, readOnly: access.readOnly }));
	};
}

