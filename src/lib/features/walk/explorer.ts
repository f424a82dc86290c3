/**
 * The glue between the explorer's routes and its server-side state: each person's session (the walk, where the
 * callback returns to, the lesson), the sandbox, and the configuration. Routes call these and stay thin.
 */
import { json } from '@sveltejs/kit';
import { z } from 'zod';
import { FIXTURE_CLIENTS, FIXTURE_PASSWORD, FIXTURE_USERS, fixtureClientId } from '$lib/sandbox/fixtures';
import type { SandboxWorkspace } from '$lib/sandbox/store';
import { buildAuthorisationLink } from '$lib/flow/link/link';
import type { CallbackView } from '$lib/flow/view';
import { config } from '../../platform/config';
import { targetRuleText } from '../../platform/outbound/allowlist';
import { runOwner } from '../runs';
import { clientWorkspace } from '../../platform/client-workspace';
import { walkClockWorkspace } from './walk-clock';
import { services } from '../../platform/services';
import { keepAddedEvidence } from '$lib/features/runs/pure';
import type { Run } from '$lib/features/runs/pure';
import {
	ClientSettings,
	ExchangeOptions,
	MeOptions,
	applySettings,
	exchangeCode,
	newWalk,
	readMe,
	recordCallback,
	revealToken,
	startAuthorisation,
	type DemoSecret,
	type Walk,
	type WalkResult
} from './walk';
import { stepBase, walkSecrets, walkStep, walkToRun, walkView, type StepBase } from './walk-view';
import { badRequest, notFound, sandboxOff } from '../../platform/errors';

export interface ExplorerSession {
	walk: Walk;
	/** Where `/callback` sends the browser once it has recorded the redirect. */
	returnTo: '/' | '/learn/cancel';
	lesson: { cancel: CallbackView | null; authorise: CallbackView | null };
	/** Whose the walk's saved runs are (run-access.ts); null for a visitor without a session, who saves nothing. */
	owner: string | null;
	/** Whether this session gave the sandbox's admin token (sandbox-admin.ts). */
	sandboxAdmin: boolean;
	/** The sandbox workspace this session made or joined (workspace-session.ts); null: the default workspace. */
	workspace: SessionWorkspace | null;
	/** The id of the workspace this session was in until it was removed, so the switcher says so; null once it makes, joins or leaves one. */
	removedWorkspace: string | null;
}

/** A workspace's id and key: the key stays in the server-side session, shown only in its member's share box. */
export interface SessionWorkspace {
	id: string;
	key: string;
}

const DEMO = FIXTURE_CLIENTS[0]!;

function sandboxTarget() {
	const { sandbox } = config();
	return { kind: 'sandbox' as const, ...sandbox };
}

/** The workspace's copy of the demo client, with its secret as the sandbox holds it now (the control API may change it). */
function demoSecret(workspace: SandboxWorkspace | null): DemoSecret {
	const clientId = workspace ? fixtureClientId(DEMO.client_id, workspace.id) : DEMO.client_id;
	return { clientId, secret: workspace?.getClient(clientId)?.client_secret ?? DEMO.client_secret };
}

/** A fresh walk of the sandbox with the workspace's demo client. */
function demoWalk(workspace: SandboxWorkspace | null): Walk {
	const { clientId, secret } = demoSecret(workspace);
	return newWalk(sandboxTarget(), {
		clientId,
		clientSecret: secret,
		redirectUri: `${config().publicOrigin}${DEMO.redirect_path}`,
		supergroup: 'student',
		country: 'uk',
		responseType: 'code',
		extraLinkParams: []
	});
}

/** The session's state; without a session (a first visit), a fresh one that is shown but not kept. */
async function session(sessionId: string | undefined): Promise<ExplorerSession> {
	const { sandbox } = await services();
	const fresh = async (): Promise<ExplorerSession> => ({
		walk: demoWalk(sandbox?.store ?? null),
		returnTo: '/',
		lesson: { cancel: null, authorise: null },
		owner: sessionId === undefined ? null : runOwner(sessionId),
		sandboxAdmin: false,
		workspace: null,
		removedWorkspace: null
	});
	if (sessionId === undefined) return fresh();
	const { sessions } = await services();
	return sessions.data(sessionId, fresh);
}

export async function isSandboxAdmin(sessionId: string): Promise<boolean> {
	return (await session(sessionId)).sandboxAdmin;
}

/** Remembers, for the session's life, that it gave the sandbox's admin token. */
export async function grantSandboxAdmin(sessionId: string): Promise<void> {
	(await session(sessionId)).sandboxAdmin = true;
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
	// A visitor without a session is in the default workspace: no need to build them a walk to say so.
	if (sessionId === undefined) return { workspace: (await services()).sandbox?.store ?? null, member: null, removed: null };
	const s = await session(sessionId);
	const workspace = await sessionWorkspace(s);
	return { workspace, member: s.workspace, removed: s.removedWorkspace };
}

/** Makes the session use the workspace (null: the default one); the walk starts again with that workspace's demo client. */
export async function switchWorkspace(sessionId: string, member: SessionWorkspace | null): Promise<void> {
	const s = await session(sessionId);
	s.workspace = member;
	s.removedWorkspace = null;
	s.walk = demoWalk(await sessionWorkspace(s));
	s.lesson = { cancel: null, authorise: null };
}

/**
 * The sandbox workspace whose clock the session's walk is on: the one holding the walk's client (codes expire on
 * it) when the session may read it, else the session's own (walk-clock.ts); null off the sandbox.
 */
async function sandboxClock(s: ExplorerSession): Promise<SandboxWorkspace | null> {
	if (s.walk.target.kind !== 'sandbox') return null;
	const [holder, own] = await Promise.all([clientWorkspace(s.walk.client.clientId), sessionWorkspace(s)]);
	return holder && own ? walkClockWorkspace(holder, own) : null;
}

/** The sandbox's clock when the walk targets the sandbox, real time otherwise. */
async function clockFor(s: ExplorerSession): Promise<() => Date> {
	const workspace = await sandboxClock(s);
	return workspace ? () => workspace.now() : () => new Date();
}

async function sandboxNow(s: ExplorerSession): Promise<Date | null> {
	return (await sandboxClock(s))?.now() ?? null;
}

/** A walk is a run once something was sent: the redirect came back, or an exchange went out. A link alone is not. */
const isRun = (walk: Walk) => walk.callback !== null || walk.exchanges.length > 0;
const runIdOf = (walk: Walk) => (isRun(walk) ? walk.runId : null);

async function view(s: ExplorerSession) {
	return { ...walkView(s.walk, await sandboxNow(s)), runId: runIdOf(s.walk) };
}

/** Every walk is a run: saved (redacted) after each step, so its permalink always shows the latest. */
async function saveRun(s: ExplorerSession) {
	const { walk, owner } = s;
	if (!isRun(walk)) return;
	const { runs } = await services();
	// Evidence added on the run's page stays when the walk goes on (join.ts).
	const walked = walkToRun(walk, await sandboxNow(s), new Date());
	const run = runs.hasAddedEvidence(walk.runId) ? keepAddedEvidence(walked as Run, runs.get(walk.runId)) : walked;
	runs.save(run, walkSecrets(walk), owner);
}

export async function loadWalkPage(sessionId: string | undefined) {
	const s = await session(sessionId);
	const cfg = config();
	return {
		view: await view(s),
		sandbox: cfg.sandbox,
		targetRule: targetRuleText(cfg),
		demoUsers: FIXTURE_USERS.map(({ login, description }) => ({ login, description })),
		demoPassword: FIXTURE_PASSWORD
	};
}

export async function recordCallbackFor(sessionId: string, url: string): Promise<string> {
	const s = await session(sessionId);
	recordCallback(s.walk, url, await clockFor(s));
	if (s.returnTo === '/learn/cancel' && s.walk.callback) {
		const { callback } = (await view(s));
		if (callback?.result.kind === 'cancel') s.lesson.cancel = callback;
		if (callback?.result.kind === 'code') s.lesson.authorise = callback;
	}
	await saveRun(s);
	const returnTo = s.returnTo;
	s.returnTo = '/';
	return returnTo === '/' ? '/#step-authorise' : returnTo;
}

async function readBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T>> {
	const body: unknown = await request.json().catch(() => undefined);
	if (body === undefined) throw badRequest('The request body must be JSON.');
	const parsed = schema.safeParse(body);
	if (!parsed.success) {
		const issue = parsed.error.issues[0]!;
		throw badRequest(`${issue.path.join('.') || 'body'}: ${issue.message}`);
	}
	return parsed.data;
}

/** A step's answer: what changed since `before` (see walkStep), which the page merges into the view it holds. */
async function answer(s: ExplorerSession, before: StepBase, result: WalkResult = { ok: true }) {
	if (!result.ok) throw badRequest(result.message);
	await saveRun(s);
	const step = walkStep(s.walk, await sandboxNow(s), before);
	return json({ step: { ...step, view: { ...step.view, runId: runIdOf(s.walk) } } });
}

const RevealRequest = z.object({ exchangeId: z.string().max(64), kind: z.enum(['access_token', 'refresh_token']) });

/**
 * POST /api/walk/{action}: a step, answered with what it changed (`{ step }`); `view` answers the whole view.
 * Unknown actions are a 404; invalid bodies a 400 naming the field.
 */
export async function walkAction(sessionId: string, action: string, request: Request): Promise<Response> {
	const s = await session(sessionId);
	const cfg = config();
	const before = stepBase(s.walk);
	switch (action) {
		case 'client':
			return answer(s, before, applySettings(s.walk, await readBody(request, ClientSettings), cfg, demoSecret(await sessionWorkspace(s))));
		case 'start': {
			const { link } = await readBody(request, z.object({ link: z.string().max(8192) }));
			s.returnTo = '/';
			return answer(s, before, startAuthorisation(s.walk, link));
		}
		case 'exchange':
			await exchangeCode(s.walk, await readBody(request, ExchangeOptions), cfg, await clockFor(s));
			return answer(s, before);
		case 'me':
			return answer(s, before, await readMe(s.walk, await readBody(request, MeOptions), cfg, await clockFor(s)));
		case 'reveal': {
			const { exchangeId, kind } = await readBody(request, RevealRequest);
			const value = revealToken(s.walk, exchangeId, kind);
			if (!value) throw notFound(`No ${kind} in that exchange.`);
			return json({ value });
		}
		case 'reset':
			s.walk = demoWalk(await sessionWorkspace(s));
			return answer(s, before);
		case 'view':
			return json({ view: await view(s) });
		default:
			throw notFound(`Unknown walk action "${action}": use client, start, exchange, me, reveal, reset or view.`);
	}
}

export async function loadLessonPage(sessionId: string | undefined) {
	const s = await session(sessionId);
	return { lesson: s.lesson, demoLogin: FIXTURE_USERS[0]!.login, demoPassword: FIXTURE_PASSWORD };
}

const LessonRequest = z.object({ outcome: z.enum(['cancel', 'authorise', 'restart']) });

/** The lesson always walks the sandbox with the demo client, whatever the main walk targets. */
export async function lessonAction(sessionId: string, request: Request): Promise<Response> {
	const s = await session(sessionId);
	const { outcome } = await readBody(request, LessonRequest);
	if (outcome === 'restart') {
		s.lesson = { cancel: null, authorise: null };
		return json({ ok: true });
	}
	if (!(await services()).sandbox) throw sandboxOff('the lesson needs it.');
	s.walk = demoWalk(await sessionWorkspace(s));
	const c = s.walk.client;
	const link = buildAuthorisationLink({ authUrl: s.walk.target.authUrl, supergroup: c.supergroup, responseType: c.responseType, clientId: c.clientId, redirectUri: c.redirectUri, country: c.country });
	const started = startAuthorisation(s.walk, link);
	if (!started.ok) throw badRequest(started.message);
	await saveRun(s);
	s.returnTo = '/learn/cancel';
	return json({ link });
}
