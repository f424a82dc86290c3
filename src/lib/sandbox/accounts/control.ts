/**
 * The sandbox control API under `/sandbox/` on the accounts host: JSON in, JSON out, not part of the interface.
 * Every body is validated with zod first; invalid input gets a 400 `{error}` and changes nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { SUPERGROUP_VALUES, checkCountry } from '../../protocol';
import { IsoDate } from '../../protocol/schemas';
import { checkAuthorizationRequest, decide, hasActiveVerification } from '../authorize';
import { resetToFixtures } from '../fixtures';
import type { SandboxClient, SandboxStore, SandboxUser } from '../store';
import { controlAccess } from '../admin-access';
import { mediaType, parseParams, readBody, sendJson } from './http';

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
	advance_seconds: z.number().int('a whole number of seconds').positive('the clock only moves forward').max(MAX_CLOCK_ADVANCE_SECONDS)
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

type Answer = { status: number; body: unknown };

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
export function saveClient(store: SandboxStore, body: z.infer<typeof ClientBody>): SandboxClient {
	return store.upsertClient({
		client_id: body.client_id,
		client_secret: body.client_secret,
		name: body.name ?? store.getClient(body.client_id)?.name ?? body.client_id,
		redirect_uris: body.redirect_uris,
		countries: body.countries.map((c) => c.toLowerCase()),
		verification_key: body.verification_key ?? 'supergroup'
	});
}

type Route = { method: 'GET' | 'POST'; run: (input: { body: unknown; query: URLSearchParams }) => Answer };

function withBody<S extends z.ZodType>(schema: S, run: (body: z.infer<S>) => Answer): Route['run'] {
	return ({ body }) => {
		const parsed = schema.safeParse(body);
		return parsed.success ? run(parsed.data) : badRequest(describeIssues(parsed.error));
	};
}

function routes(store: SandboxStore, explorerOrigin: string): Record<string, Route> {
	return {
		'/sandbox/reset': {
			method: 'POST',
			run: withBody(ResetBody, () => {
				resetToFixtures(store, explorerOrigin);
				return { status: 200, body: { reset: true, now: store.now().toISOString() } };
			})
		},
		'/sandbox/clients': {
			method: 'POST',
			run: withBody(ClientBody, (body) => ({ status: 200, body: publicClient(saveClient(store, body)) }))
		},
		'/sandbox/users': {
			method: 'POST',
			run: withBody(UserBody, (body) => ({ status: 200, body: publicUser(store.upsertUser(body)) }))
		},
		'/sandbox/clock': {
			method: 'POST',
			run: withBody(ClockBody, (body) => ({ status: 200, body: { now: store.advanceClock(body.advance_seconds).toISOString(), today: store.today() } }))
		},
		'/sandbox/authorize': {
			method: 'POST',
			run: withBody(AuthorizeBody, (body) => {
				const query = new URLSearchParams();
				for (const name of ['response_type', 'client_id', 'redirect_uri', 'country'] as const) {
					const value = body[name];
					if (value !== undefined) query.set(name, value);
				}
				const check = checkAuthorizationRequest(store, body.supergroup, query);
				if (!check.ok) {
					const { error } = check;
					return error.kind === 'row'
						? { status: 400, body: { error: error.message, detail: error.detail, row: error.rowId, cause: error.causeId } }
						: { status: 400, body: { error: error.message, choice: error.choiceId } };
				}
				// Deletion requested does not stop authorising (sandbox choice 'deleted-account-login').
				const user = store.getUserByLogin(body.login);
				if (!user) return { status: 404, body: { error: `No user has the login \`${body.login}\`; create one with POST /sandbox/users.` } };
				if (body.decision === 'authorize' && !hasActiveVerification(store, user, check.request.supergroup)) {
					return {
						status: 409,
						body: {
							error: `${user.login} has no active ${check.request.supergroup} verification, so the page would ask them to verify first. Add one with POST /sandbox/users.`
						}
					};
				}
				return { status: 200, body: decide(store, check.request, user.id, body.decision) };
			})
		},
		'/sandbox/log': {
			method: 'GET',
			run: ({ query }) => {
				const raw = query.get('limit');
				const limit = raw === null ? DEFAULT_LOG_LIMIT : Number(raw);
				if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_LIMIT) {
					return badRequest(`limit must be a whole number from 1 to ${MAX_LOG_LIMIT}.`);
				}
				return { status: 200, body: { entries: store.recentLog(limit) } };
			}
		},
		'/sandbox/state': {
			method: 'GET',
			run: () => ({
				status: 200,
				body: {
					now: store.now().toISOString(),
					today: store.today(),
					clients: store.listClients().map(publicClient),
					users: store.listUsers().map(publicUser)
				}
			})
		}
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

/** `adminToken`: what a request must carry (see admin-access.ts); null: only requests from this machine. */
export function createControlApi(store: SandboxStore, explorerOrigin: string, adminToken: string | null = null) {
	const table = routes(store, explorerOrigin);
	return async function handleControl(req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> {
		const access = controlAccess(adminToken, { remoteAddress: req.socket.remoteAddress, header: (name) => headerValue(req, name) });
		if (!access.ok) {
			req.resume();
			return sendJson(res, access.status, { error: access.error }, access.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="sandbox control API"' } : {});
		}
		const route = table[path];
		if (!route) {
			req.resume();
			return sendJson(res, 404, { error: `No control endpoint ${path}. Endpoints: ${Object.keys(table).join(', ')}.` });
		}
		if (req.method !== route.method) {
			req.resume();
			return sendJson(res, 405, { error: `${path} answers ${route.method}, not ${req.method}.` }, { Allow: route.method });
		}
		const params = parseParams(query, 'query string');
		if (!params.ok) return sendJson(res, 400, { error: params.problem });
		let body: unknown = {};
		if (route.method === 'POST') {
			const read = await readJsonBody(req);
			if (read === 'aborted') return;
			if (!read.ok) return sendJson(res, read.answer.status, read.answer.body);
			body = read.body;
		}
		const answer = route.run({ body, query: new URLSearchParams([...params.params]) });
		sendJson(res, answer.status, answer.body, { 'Cache-Control': 'no-store' });
	};
}
