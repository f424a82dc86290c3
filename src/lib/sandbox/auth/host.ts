/**
 * The sandbox's authorisation host (interface 4.1): `GET /sso/{supergroup}` checks the request with the shared
 * authorisation rules, then runs a sign-in flow bound to it in a server-side session — login, a simulated
 * verification when needed, consent — and ends with a 303 to the client's redirect URI. A request that fails the
 * rules gets an error page and never a redirect.
 *
 * The request's client_id finds its workspace (`findClientAnywhere`): the flow signs in that workspace's users,
 * on its clock, and issues its codes. A session signed in as a user of another workspace signs in again. Each
 * request is attributed first (log/attribute.ts): a link by its client_id, a flow's page or form by the client of
 * the flow its session holds, so a refused one is logged in that workspace too.
 *
 * Routes: GET /sso/{supergroup}, GET /flow/{id} (the current step's page), POST /flow/{id}/{login|verify|consent|
 * signout} (303 back, Post/Redirect/Get), GET /assets/auth.css and /assets/icon.svg, GET /health.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cancelled, checkAuthorizationRequest, decide, hasActiveVerification, type AuthorizationRequest, type ClientScope } from '../authorize';
import { FIXTURE_PASSWORD, FIXTURE_USERS } from '../fixtures';
import { requestNames } from '../../http/correlation';
import { attribute, namesAsSent } from '../log';
import { DEFAULT_WORKSPACE_ID, constantTimeEqual, randomCredential, type SandboxStore, type SandboxUser, type SandboxWorkspace } from '../store';
import { readCookie, readForm, seeOther, send, sendHtml, sessionCookie, singleField } from './http';
import {
	consentPage,
	loginPage,
	problemPage,
	requestErrorPage,
	verifyPage,
	type Chrome,
	type RequestView,
	type SignedInView
} from './pages';
import { createSessionStore, type AuthSession } from './sessions';
import { AUTH_CSS, AUTH_CSS_PATH, AUTH_ICON, AUTH_ICON_PATH } from './styles';
import { oneYearAfter, proofKind } from './verification';

const STATIC_ASSETS: Record<string, { type: string; body: string }> = {
	[AUTH_CSS_PATH]: { type: 'text/css; charset=utf-8', body: AUTH_CSS },
	[AUTH_ICON_PATH]: { type: 'image/svg+xml', body: AUTH_ICON }
};

/** Distinct from the explorer's cookie: cookies ignore ports, and both run on localhost. */
export const SESSION_COOKIE = 'sbid_sandbox_auth';

/** What a flow remembers: the request as sent (re-checked at every step, so a client changed meanwhile counts). */
interface Flow {
	supergroup: string;
	query: string;
	/** The login typed on a failed attempt, shown back with the error. */
	failedLogin: string | null;
	missingProof: boolean;
}

type Session = AuthSession<Flow>;
type Step = 'login' | 'verify' | 'consent' | 'signout' | 'cancel';

export interface AuthHostOptions {
	explorerOrigin: string;
}

const SESSION_IDLE_MS = 30 * 60 * 1000;

const FLOW_ROUTE = /^\/flow\/([A-Za-z0-9_-]{1,64})(?:\/(login|verify|consent|signout|cancel))?$/;

const problems = {
	notFound: { title: 'Page not found', message: 'There is no page at this address.', action: 'Check the address, or start again from the application you were signing in to.' },
	flowGone: {
		title: 'Sign-in expired',
		message: 'This sign-in request has expired, was already completed, or was started in another browser.',
		action: 'Go back to the application and start signing in again.'
	},
	csrf: {
		title: 'Form expired',
		message: 'This form could not be accepted: it has expired, or it was not sent from this sign-in page (CSRF protection).',
		action: 'Go back, reload the page and try again. If it keeps happening, allow cookies for this site.'
	},
	badForm: (detail: string) => ({
		title: 'Form not understood',
		message: detail,
		action: 'Go back, reload the page and submit the form again.'
	}),
	method: (allowed: string) => ({
		title: 'Method not allowed',
		message: `This address accepts ${allowed} only.`,
		action: 'Open the page from the application\'s sign-in link.'
	}),
	internal: {
		title: 'Something went wrong',
		message: 'The sandbox could not handle this request.',
		action: 'Try again; if it keeps happening, reset the sandbox.'
	}
};

export function createAuthHost(store: SandboxStore, options: AuthHostOptions): (req: IncomingMessage, res: ServerResponse) => void {
	const chrome: Chrome = { explorerOrigin: options.explorerOrigin };
	const sessions = createSessionStore<Flow>({ idleTtlMs: SESSION_IDLE_MS, maxSessions: 10_000, maxFlowsPerSession: 20 });
	/** The page serves every workspace: a request's client_id says which. */
	const anyWorkspace: ClientScope = { findClient: store.findClientAnywhere };

	function check(supergroup: string, query: string) {
		return checkAuthorizationRequest(anyWorkspace, supergroup, new URLSearchParams(query));
	}

	/** 0. Attribution, before any check: a flow's request by the link its session's flow holds, else as sent. */
	function attributeAuth(req: IncomingMessage, flowId: string | undefined): void {
		const flow = flowId === undefined ? undefined : sessions.get(readCookie(req, SESSION_COOKIE))?.flows.get(flowId);
		if (flow === undefined) return void attribute(store, req, namesAsSent(req, null));
		const link = new URLSearchParams(flow.query);
		attribute(store, req, requestNames('other', (name) => link.get(name), ''));
	}

	function problem(res: ServerResponse, status: number, p: { title: string; message: string; action: string }, headers = {}) {
		sendHtml(res, status, problemPage(chrome, p), headers);
	}

	function startFlow(req: IncomingMessage, res: ServerResponse, supergroup: string, query: string): void {
		const checked = check(supergroup, query);
		if (!checked.ok) return sendHtml(res, 400, requestErrorPage(chrome, checked.error));
		const existing = sessions.get(readCookie(req, SESSION_COOKIE));
		const session = existing ?? sessions.create();
		const flowId = randomCredential();
		sessions.addFlow(session, flowId, { supergroup, query, failedLogin: null, missingProof: false });
		seeOther(res, flowPath(flowId), existing ? {} : { 'Set-Cookie': sessionCookie(SESSION_COOKIE, session.id) });
	}

	/** The flow's request, re-checked now; on failure the error page has been sent. */
	function recheck(res: ServerResponse, flow: Flow): AuthorizationRequest | undefined {
		const checked = check(flow.supergroup, flow.query);
		if (checked.ok) return checked.request;
		sendHtml(res, 400, requestErrorPage(chrome, checked.error));
		return undefined;
	}

	/** The session's user, if they are of the flow's workspace (and still exist: a reset may have removed them). */
	function signedInUser(session: Session, workspace: SandboxWorkspace): SandboxUser | undefined {
		const user = session.userId === null ? undefined : workspace.getUser(session.userId);
		if (!user) session.userId = null;
		return user;
	}

	function showStep(req: IncomingMessage, res: ServerResponse, flowId: string): void {
		const session = sessions.get(readCookie(req, SESSION_COOKIE));
		const flow = session?.flows.get(flowId);
		if (!session || !flow) return problem(res, 404, problems.flowGone);
		const request = recheck(res, flow);
		if (!request) return;
		const { workspace } = request;
		const base = flowPath(flowId);
		const view = requestView(request);
		const user = signedInUser(session, workspace);
		if (!user) {
			return sendHtml(res, 200, loginPage(chrome, {
				action: `${base}/login`,
				cancelAction: `${base}/cancel`,
				csrf: session.csrfToken,
				request: view,
				failedLogin: flow.failedLogin,
				demoAccounts: FIXTURE_USERS,
				demoPassword: FIXTURE_PASSWORD
			}));
		}
		const signedIn: SignedInView = { login: user.login, signOutAction: `${base}/signout`, csrf: session.csrfToken };
		if (!hasActiveVerification(workspace, user, request.supergroup)) {
			return sendHtml(res, 200, verifyPage(chrome, {
				action: `${base}/verify`,
				cancelAction: `${base}/cancel`,
				csrf: session.csrfToken,
				request: view,
				signedIn,
				expiresOn: oneYearAfter(workspace.today()),
				missingChoice: flow.missingProof
			}));
		}
		const outcomeRule = workspace.pendingOutcome(request.client.client_id, 'authorise');
		sendHtml(res, 200, consentPage(chrome, { action: `${base}/consent`, csrf: session.csrfToken, request: view, signedIn, outcomeRule }));
	}

	async function submit(req: IncomingMessage, res: ServerResponse, flowId: string, step: Step): Promise<void> {
		const body = await readForm(req);
		if (!body.ok) {
			const { status, title, message } = body;
			return problem(res, status, { title, message, action: 'Go back and submit the form again.' }, { Connection: 'close' });
		}
		const session = sessions.get(readCookie(req, SESSION_COOKIE));
		const csrf = singleField(body.form, 'csrf');
		if (!session || csrf === undefined || !constantTimeEqual(csrf, session.csrfToken)) return problem(res, 403, problems.csrf);
		const flow = session.flows.get(flowId);
		if (!flow) return problem(res, 404, problems.flowGone);
		const back = flowPath(flowId);

		if (step === 'signout') {
			session.userId = null;
			const rotated = sessions.rotate(session);
			return seeOther(res, back, { 'Set-Cookie': sessionCookie(SESSION_COOKIE, rotated.id) });
		}
		const request = recheck(res, flow);
		if (!request) return;
		const { workspace } = request;

		// Cancel is on every page of the flow, before sign-in too (the interface's cancel has no condition): it ends
		// the flow, as a decision on the consent page does.
		if (step === 'cancel') {
			session.flows.delete(flowId);
			return seeOther(res, cancelled(request).location);
		}

		if (step === 'login') {
			const login = singleField(body.form, 'login');
			const password = singleField(body.form, 'password');
			if (login === undefined || password === undefined) {
				return problem(res, 400, problems.badForm('The sign-in form must carry one email and one password.'));
			}
			const user = workspace.authenticateUser(login.trim(), password);
			if (!user) {
				flow.failedLogin = login.trim();
				return seeOther(res, back);
			}
			flow.failedLogin = null;
			// A new session id on sign-in, so an id planted before sign-in (session fixation) is worthless.
			const rotated = sessions.rotate(session);
			rotated.userId = user.id;
			return seeOther(res, back, { 'Set-Cookie': sessionCookie(SESSION_COOKIE, rotated.id) });
		}

		const user = signedInUser(session, workspace);
		if (!user) return seeOther(res, back); // shows the login page

		if (step === 'verify') {
			const proof = singleField(body.form, 'proof');
			flow.missingProof = proof === undefined || proof === '';
			if (flow.missingProof) return seeOther(res, back);
			if (!proofKind(request.supergroup, proof!)) {
				return problem(res, 400, problems.badForm(`"${proof}" is not a kind of proof offered for this supergroup.`));
			}
			// Sandbox choice 'simulated-verification': verified for one year from the sandbox's today.
			if (!hasActiveVerification(workspace, user, request.supergroup)) {
				workspace.addVerification(user.id, request.supergroup, oneYearAfter(workspace.today()));
			}
			return seeOther(res, back);
		}

		const decision = singleField(body.form, 'decision');
		if (decision !== 'authorize' && decision !== 'cancel') {
			return problem(res, 400, problems.badForm('The decision must be either Authorise or Cancel.'));
		}
		if (decision === 'authorize' && !hasActiveVerification(workspace, user, request.supergroup)) return seeOther(res, back);
		session.flows.delete(flowId); // a decision ends the flow: a second submit cannot issue a second code
		seeOther(res, decide(request, user.id, decision, 'POST /flow/{id}/consent').location);
	}

	async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = req.url ?? '/';
		const queryAt = url.indexOf('?');
		const path = queryAt === -1 ? url : url.slice(0, queryAt);
		const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
		const method = req.method ?? 'GET';
		const isGet = method === 'GET' || method === 'HEAD';

		if (path === '/health') {
			if (!isGet) return problem(res, 405, problems.method('GET'), { Allow: 'GET, HEAD' });
			return send(res, 200, 'application/json', JSON.stringify({ ok: true, host: 'authorisation' }));
		}
		const asset = STATIC_ASSETS[path];
		if (asset) {
			if (!isGet) return problem(res, 405, problems.method('GET'), { Allow: 'GET, HEAD' });
			return send(res, 200, asset.type, asset.body, { 'Cache-Control': 'no-cache' });
		}
		const flowMatch = FLOW_ROUTE.exec(path);
		attributeAuth(req, flowMatch?.[1]);
		if (path.startsWith('/sso/') && !path.slice(5).includes('/')) {
			if (!isGet) return problem(res, 405, problems.method('GET'), { Allow: 'GET, HEAD' });
			return startFlow(req, res, decodeSegment(path.slice(5)), query);
		}
		if (flowMatch) {
			const [, flowId, step] = flowMatch as unknown as [string, string, Step | undefined];
			if (step === undefined) {
				if (!isGet) return problem(res, 405, problems.method('GET'), { Allow: 'GET, HEAD' });
				return showStep(req, res, flowId);
			}
			if (method !== 'POST') return problem(res, 405, problems.method('POST'), { Allow: 'POST' });
			return submit(req, res, flowId, step);
		}
		problem(res, 404, problems.notFound);
	}

	return (req, res) => {
		route(req, res).catch((error: unknown) => {
			// A bug, not bad input: answer without details (no stack trace to the browser), keep the cause in the log.
			console.error('sandbox authorisation host:', error);
			if (!res.headersSent) problem(res, 500, problems.internal);
			else res.destroy();
		});
	};
}

function flowPath(flowId: string): string {
	return `/flow/${flowId}`;
}

/** The path segment as text; malformed percent-encoding stays as sent (and is then an unknown supergroup). */
function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function requestView(request: AuthorizationRequest): RequestView {
	const target = new URL(request.redirectUri);
	return {
		clientName: request.client.name,
		clientId: request.client.client_id,
		workspace: request.workspace.id === DEFAULT_WORKSPACE_ID ? null : request.workspace.id,
		supergroup: request.supergroup,
		returnTo: target.origin !== 'null' ? target.origin : `${target.protocol}${target.pathname}`
	};
}
