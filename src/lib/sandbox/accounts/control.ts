/**
 * The sandbox control API under `/sandbox/` on the accounts host: JSON in, JSON out, not part of the interface.
 * Every body is validated with zod first; invalid input gets a 400 `{error}` and changes nothing.
 *
 * Each call acts on one workspace, the one its `X-Sandbox-Workspace-Key` header opens (`resolveWorkspace`), and
 * sees and changes nothing else. `POST /sandbox/workspaces` creates a workspace and answers its key;
 * `DELETE /sandbox/workspaces/{id}` removes one (with its key).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { SUPERGROUP_VALUES, checkCountry } from '../../protocol';
import { IsoDate } from '../../protocol/schemas';
import { checkAuthorizationRequest, decide, hasActiveVerification } from '../authorize';
import { controlAccess } from '../admin-access';
import { createWorkspace, resetToFixtures } from '../fixtures';
import { useWorkspace } from '../request-log';
import { ClientIdTakenError, type SandboxClient, type SandboxStore, type SandboxUser, type SandboxWorkspace } from '../store';
import { WORKSPACE_KEY_HEADER, WORKSPACE_LIMITS, creationRateLimit, type WorkspacePolicy } from '../workspaces';
import { mediaType, parseParams, readBody, sendJson } from './http';
import { DEFAULT_READ_ONLY, resolveWorkspace } from './workspace-access';

function headerValue(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

const MAX_CLOCK_ADVANCE_SECONDS = 10 * 366 * 24 * 3600;
const DEFAULT_LOG_LIMIT = 100;
const MAX_LOG_LIMIT = 500;

export const realDate = IsoDate.refine((s) => {
	const d = new Date(`${s}T00:00:00Z`);
	return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}, 'a real calendar date written YYYY-MM-DD');

const registeredRedirectUri = z
	.string()
	.max(2048)
	.refine((s) => URL.canParse(s), 'must be an absolute URI, such as https://app.example/callback')
	.refine((s) => !s.includes('?') && !s.includes('#'), 'register it without `?` or `#`: only scheme, authority and path are matched');

const countryCode = z.string().superRefine((value, ctx) => {
	const check = checkCountry(value);
	if (check.ok) return;
	const messages = {
		'gb-not-uk': 'the United Kingdom is `uk`, not `gb`',
		'not-lower-case': `write country codes in lower case (\`${check.suggestion}\`)`,
		'not-iso': `\`${value}\` is not \`uk\` or an ISO 3166 alpha-2 code`
	};
	ctx.addIssue({ code: 'custom', message: messages[check.reason] });
});

export const ClientBody = z.strictObject({
	client_id: z.string().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
	client_secret: z.string().min(1).max(200),
	name: z.string().trim().min(1).max(100).optional(),
	redirect_uris: z.array(registeredRedirectUri).min(1, 'register at least one redirect URI').max(20),
	countries: z.array(countryCode).min(1, 'the plan needs at least one country').max(300),
	verification_key: z.enum(['supergroup', 'group']).optional()
});

export const UserBody = z.strictObject({
	login: z.string().trim().min(1).max(254),
	password: z.string().min(1).max(200),
	verifications: z
		.array(z.strictObject({ supergroup: z.enum(SUPERGROUP_VALUES), expires_on: realDate }))
		.max(SUPERGROUP_VALUES.length)
		.refine((vs) => new Set(vs.map((v) => v.supergroup)).size === vs.length, 'at most one verification per supergroup'),
	deletion_requested: z.boolean().optional()
});

export const ClockBody = z.strictObject({
	advance_seconds: z.number().int('a whole number of seconds').positive('advance moves the clock forward; to go back, send `set`').max(MAX_CLOCK_ADVANCE_SECONDS)
});

/** `{set}`: the workspace clock runs on from this instant, earlier or later than now. */
const SetClockBody = z.strictObject({
	set: z.iso.datetime({ message: 'an instant written YYYY-MM-DDTHH:MM:SSZ (UTC)' })
});
/** `{reset: true}`: the workspace clock goes back to real time. */
const ResetClockBody = z.strictObject({ reset: z.literal(true, 'send `"reset": true`') });

/** The clock body's form is told by its one member, so each form's own problem is the one reported. */
function clockSchema(body: unknown) {
	if (body !== null && typeof body === 'object' && 'set' in body) return SetClockBody;
	if (body !== null && typeof body === 'object' && 'reset' in body) return ResetClockBody;
	return ClockBody;
}

const WorkspaceBody = z.strictObject({
	fixtures: z.enum(['demo', 'empty']).default('demo'),
	name: z.string().trim().min(1).max(100).optional()
});

/** Link parameters are optional here: a missing one is answered by the authorisation rules (7.1), as on the page. */
const AuthorizeBody = z.strictObject({
	supergroup: z.string().max(100),
	response_type: z.string().max(100).optional(),
	client_id: z.string().max(200).optional(),
	redirect_uri: z.string().max(4096).optional(),
	country: z.string().max(100).optional(),
	login: z.string().min(1).max(254),
	decision: z.enum(['authorize', 'cancel'])
});

const ResetBody = z.strictObject({});

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const badRequest = (error: string): Answer => ({ status: 400, body: { error } });

function describeIssues(error: z.ZodError): string {
	return error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}

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

/** Creates or replaces a client from a validated body: a missing name keeps the old one (or is the id). */
export function saveClient(store: SandboxWorkspace, body: z.infer<typeof ClientBody>): SandboxClient {
	return store.upsertClient({
		client_id: body.client_id,
		client_secret: body.client_secret,
		name: body.name ?? store.getClient(body.client_id)?.name ?? body.client_id,
		redirect_uris: body.redirect_uris,
		countries: body.countries.map((c) => c.toLowerCase()),
		verification_key: body.verification_key ?? 'supergroup'
	});
}

/** What a route acts on: the call's workspace, and whether the call may change it. */
interface RouteInput {
	body: unknown;
	query: URLSearchParams;
	workspace: SandboxWorkspace;
	readOnly: boolean;
}

type Route = { method: 'GET' | 'POST'; run: (input: RouteInput) => Answer };

function withBody<S extends z.ZodType>(schema: S, run: (body: z.infer<S>, workspace: SandboxWorkspace) => Answer): Route['run'] {
	return ({ body, workspace }) => {
		const parsed = schema.safeParse(body);
		return parsed.success ? run(parsed.data, workspace) : badRequest(describeIssues(parsed.error));
	};
}

/** Public mode's limits: a workspace cannot grow past them (an existing client or user can still be replaced). */
function overLimit(policy: WorkspacePolicy, what: 'clients' | 'users', count: number): Answer | null {
	if (!policy.public || count < WORKSPACE_LIMITS[what]) return null;
	return {
		status: 409,
		body: { error: `This workspace has ${count} ${what}, the most public mode allows (${WORKSPACE_LIMITS[what]}). Replace one, or reset the workspace.` }
	};
}

function clockAnswer(workspace: SandboxWorkspace, now: Date): Answer {
	return { status: 200, body: { now: now.toISOString(), today: workspace.today() } };
}

function routes(explorerOrigin: string, policy: WorkspacePolicy): Record<string, Route> {
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
				const isNew = !workspace.getClient(body.client_id);
				const full = isNew && overLimit(policy, 'clients', workspace.listClients().length);
				if (full) return full;
				try {
					return { status: 200, body: publicClient(saveClient(workspace, body)) };
				} catch (error) {
					if (!(error instanceof ClientIdTakenError)) throw error;
					return {
						status: 409,
						body: {
							error: `client_id \`${body.client_id}\` is taken by another workspace: client ids are unique across the sandbox, because the token endpoint and the authorisation page find a request's workspace by its client_id. Choose another.`
						}
					};
				}
			})
		},
		'/sandbox/users': {
			method: 'POST',
			run: withBody(UserBody, (body, workspace) => {
				const full = !workspace.getUserByLogin(body.login) && overLimit(policy, 'users', workspace.listUsers().length);
				return full || { status: 200, body: publicUser(workspace.upsertUser(body)) };
			})
		},
		'/sandbox/clock': {
			method: 'POST',
			run: (input) => {
				const parsed = clockSchema(input.body).safeParse(input.body);
				if (!parsed.success) return badRequest(describeIssues(parsed.error));
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
				return { status: 200, body: decide(check.request, user.id, body.decision) };
			})
		},
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

/** What `GET /sandbox/workspace` and the creation answer say about a workspace (never its key). */
function workspaceView(workspace: SandboxWorkspace, policy: WorkspacePolicy, readOnly: boolean) {
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

async function readJsonBody(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false; answer: Answer } | 'aborted'> {
	const body = await readBody(req);
	if (!body.ok) return body.reason === 'aborted' ? 'aborted' : { ok: false, answer: { status: 413, body: { error: 'The body is larger than 64 KB.' } } };
	// Required even for an empty body: a cross-site HTML form cannot send this type (it would need CORS),
	// so no web page can reset or change the sandbox behind its user's back.
	if (mediaType(req) !== 'application/json') {
		return { ok: false, answer: { status: 415, body: { error: 'Send `Content-Type: application/json` (and a JSON body, or none for /sandbox/reset).' } } };
	}
	if (body.body.length === 0) return { ok: true, body: {} };
	try {
		return { ok: true, body: JSON.parse(body.body.toString('utf8')) as unknown };
	} catch (e) {
		return { ok: false, answer: badRequest(`The body is not valid JSON: ${(e as Error).message}`) };
	}
}

export interface ControlApiOptions {
	/** Origin of the explorer: the demo fixtures' redirect URI (`/callback`) follows it. */
	explorerOrigin: string;
	workspaces: WorkspacePolicy;
	/** What an administrator's request must carry (admin-access.ts); null: only requests from this machine. */
	adminToken: string | null;
}

const WORKSPACE_PATH = /^\/sandbox\/workspaces\/([a-z0-9]{1,64})$/;

export function createControlApi(store: SandboxStore, { explorerOrigin, workspaces: policy, adminToken }: ControlApiOptions) {
	const table = routes(explorerOrigin, policy);
	const rateLimit = creationRateLimit(policy.creationsPerAddressPerHour);
	const endpoints = [...Object.keys(table), '/sandbox/workspaces', '/sandbox/workspaces/{id}'].join(', ');

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

	/**
	 * A call that carries a workspace's key is that workspace's (resolveWorkspace checks the key), and in public mode
	 * anyone may create a workspace. Every other call administers the sandbox itself (its default workspace, or
	 * creating workspaces on a private deployment): the operator's, by admin token or from this machine.
	 */
	function needsAdministrator(req: IncomingMessage, path: string): boolean {
		if (req.headers[WORKSPACE_KEY_HEADER] !== undefined) return false;
		return !(policy.public && path === '/sandbox/workspaces');
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
		const route = table[path];
		if (!route) {
			req.resume();
			return sendJson(res, 404, { error: `No control endpoint ${path}. Endpoints: ${endpoints}.` });
		}
		if (req.method !== route.method) {
			req.resume();
			return sendJson(res, 405, { error: `${path} answers ${route.method}, not ${req.method}.` }, { Allow: route.method });
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

