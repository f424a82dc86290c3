/**
 * The walk's actions for the explorer's routes: each session's walk (where the callback returns to, the lesson),
 * its steps, and the lesson. Routes call these and stay thin; the session's workspace is the platform's
 * (platform/explorer-session.ts).
 */
import { json } from '@sveltejs/kit';
import { z } from 'zod';
import { demoRedirectUri, FIXTURE_CLIENTS, FIXTURE_PASSWORD, FIXTURE_USERS, fixtureClientId } from '$lib/sandbox/fixtures';
import type { SandboxWorkspace } from '$lib/sandbox/store';
import { buildAuthorisationLink } from '$lib/flow/link/link';
import type { CallbackView, WalkView } from '$lib/flow/view';
import { config } from '../../platform/config';
import { targetRuleText } from '../../platform/outbound/allowlist';
import { runSaver } from '../runs';
import { clientWorkspace } from '../../platform/client-workspace';
import { explorerSession, sessionWorkspace, type ExplorerSession } from '../../platform/explorer-session';
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
import { walkSecrets, walkToRun, walkView } from './walk-view';
import { badRequest, ExplorerError, notFound, sandboxOff } from '../../platform/errors';
import { readJsonBody } from '../../platform/json-body';

/** The walk's part of a person's session, beside what every feature knows of it (platform/explorer-session.ts). */
interface WalkSession {
	walk: Walk;
	/** Where `/callback` sends the browser once it has recorded the redirect. */
	returnTo: '/' | '/learn/cancel';
	lesson: { cancel: CallbackView | null; authorise: CallbackView | null };
	/** Whose the walk's saved runs are (features/runs/access.ts); null for a visitor without a session, who saves nothing. */
	owner: string | null;
	/** The address the session's saves count against (runs/access.ts runSaver); null: none counts them. */
	visitor: string | null;
	/** The session's workspace, as the walk reaches it. */
	explorer: ExplorerSession;
	/**
	 * Why the walk's latest step is not saved, if it is not. 'first-visit': a redirect that arrived without a
	 * session is shown but not saved (a GET that anyone can send without a cookie must not add a run each time);
	 * 'not-started': one arrived with the session but not `awaitingCallback` (any page can send the browser to
	 * /callback; the interface has no `state` to tell whose redirect it is). The person's next step saves the run.
	 * `refused`: the saved runs' limits (run-limits.ts) refused the save; the walk goes on, and each step tries
	 * again. No permalink till then.
	 */
	unsaved: WalkView['unsaved'] | null;
	/**
	 * An authorisation page was opened from this walk (its `start`, a POST) and its redirect has not come back yet:
	 * the one redirect a GET of /callback may save as it arrives.
	 */
	awaitingCallback: boolean;
	/**
	 * A redirect that arrived when the walk was not waiting for one, after the walk had begun: held aside, not
	 * applied, since applying it replaces the walk's redirect and exchanges, and any site can send the browser to
	 * /callback (a top-level GET carries the session cookie). The person uses it or ignores it (`stray`, a POST).
	 */
	strayCallback: { url: string } | null;
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
		redirectUri: demoRedirectUri(config().publicOrigin),
		supergroup: 'student',
		country: 'uk',
		responseType: 'code',
		extraLinkParams: []
	});
}

/** The walk of each session, made for the workspace the session was in (`switches`): a switch starts it again. */
const walks = new WeakMap<ExplorerSession, { switches: number; session: WalkSession }>();

/** The session's walk; without a session (a first visit), a fresh one that is shown but not kept. */
async function session(sessionId: string | undefined): Promise<WalkSession> {
	const explorer = await explorerSession(sessionId);
	const kept = walks.get(explorer);
	if (kept?.switches === explorer.switches) return kept.session;
	const fresh: WalkSession = {
		walk: demoWalk(await sessionWorkspace(explorer)),
		returnTo: '/',
		lesson: { cancel: null, authorise: null },
		...(sessionId === undefined ? { owner: null, visitor: null } : await runSaver(sessionId)),
		explorer,
		unsaved: null,
		awaitingCallback: false,
		strayCallback: null
	};
	// Another request of the same session may have made it meanwhile: the first one made stays.
	const made = walks.get(explorer);
	if (made?.switches === explorer.switches) return made.session;
	walks.set(explorer, { switches: explorer.switches, session: fresh });
	return fresh;
}

/**
 * The sandbox workspace whose clock the session's walk is on: the one holding the walk's client (codes expire on
 * it) when the session may read it, else the session's own (walk-clock.ts); null off the sandbox.
 */
async function sandboxClock(s: WalkSession): Promise<SandboxWorkspace | null> {
	if (s.walk.target.kind !== 'sandbox') return null;
	const [holder, own] = await Promise.all([clientWorkspace(s.walk.client.clientId), sessionWorkspace(s.explorer)]);
	return holder && own ? walkClockWorkspace(holder, own) : null;
}

/** The sandbox's clock when the walk targets the sandbox (`workspace`: sandboxClock's), real time otherwise. */
const clockOf = (workspace: SandboxWorkspace | null): (() => Date) => (workspace ? () => workspace.now() : () => new Date());

async function clockFor(s: WalkSession): Promise<() => Date> {
	return clockOf(await sandboxClock(s));
}

async function sandboxNow(s: WalkSession): Promise<Date | null> {
	return (await sandboxClock(s))?.now() ?? null;
}

/** A walk is a run once something was sent: the redirect came back, or an exchange went out. A link alone is not. */
const isRun = (walk: Walk) => walk.callback !== null || walk.exchanges.length > 0;
const runIdOf = (walk: Walk) => (isRun(walk) ? walk.runId : null);
/**
 * Whether a redirect applied now would replace something the person did here: an exchange, or a redirect the walk
 * waited for. One that arrived unawaited and was never saved (first visit, not started) holds nothing to keep.
 */
const hasWorkToKeep = (s: WalkSession) => s.walk.exchanges.length > 0 || (s.walk.callback !== null && s.unsaved === null);

/** `now`: the sandbox's clock read once for the step (sandboxNow), so its run and its view tell one time. */
function view(s: WalkSession, now: Date | null) {
	return {
		...walkView(s.walk, now),
		runId: s.unsaved ? null : runIdOf(s.walk),
		...(s.unsaved ? { unsaved: s.unsaved } : {}),
		...(s.strayCallback ? { strayCallback: s.strayCallback } : {})
	};
}

/** Every walk is a run: saved (redacted) after each step, so its permalink always shows the latest. */
async function saveRun(s: WalkSession, now: Date | null) {
	const { walk, owner } = s;
	// A step that leaves nothing to save (a new walk) leaves nothing unsaved either.
	if (!isRun(walk)) return void (s.unsaved = null);
	const { runs } = await services();
	// Evidence added on the run's page stays when the walk goes on (join.ts).
	const walked = walkToRun(walk, now, new Date());
	const run = runs.hasAddedEvidence(walk.runId) ? keepAddedEvidence(walked as Run, runs.get(walk.runId)) : walked;
	try {
		runs.save(run, walkSecrets(walk), owner, { triage: 'when-listed', visitor: s.visitor });
		s.unsaved = null;
	} catch (error) {
		// The store refuses the save (a limit reached, the run deleted on its page), not the walk: it goes on, and says
		// why it is not saved.
		if (!(error instanceof ExplorerError && error.status < 500)) throw error;
		s.unsaved = { refused: error.message };
	}
}

export async function loadWalkPage(sessionId: string | undefined) {
	const s = await session(sessionId);
	const cfg = config();
	return {
		view: view(s, await sandboxNow(s)),
		sandbox: cfg.sandbox,
		targetRule: targetRuleText(cfg),
		demoUsers: FIXTURE_USERS.map(({ login, description }) => ({ login, description })),
		demoPassword: FIXTURE_PASSWORD
	};
}

/** `firstVisit`: the request brought no session, so it was made for this arrival (see `WalkSession.unsaved`). */
export async function recordCallbackFor(sessionId: string, url: string, firstVisit: boolean): Promise<string> {
	const s = await session(sessionId);
	// Taken before any await: of two redirects arriving together, only the first is the one the walk waited for.
	const awaited = s.awaitingCallback;
	s.awaitingCallback = false;
	if (!awaited && !firstVisit && hasWorkToKeep(s)) {
		s.strayCallback = { url };
		return '/#stray-callback';
	}
	s.strayCallback = null;
	const workspace = await sandboxClock(s);
	recordCallback(s.walk, url, clockOf(workspace));
	const now = workspace?.now() ?? null;
	if (s.returnTo === '/learn/cancel' && s.walk.callback) {
		const { callback } = view(s, now);
		if (callback?.result.kind === 'cancel') s.lesson.cancel = callback;
		if (callback?.result.kind === 'code') s.lesson.authorise = callback;
	}
	if (firstVisit) s.unsaved = 'first-visit';
	else if (!awaited) s.unsaved = 'not-started';
	else await saveRun(s, now);
	const returnTo = s.returnTo;
	s.returnTo = '/';
	return returnTo === '/' ? '/#step-authorise' : returnTo;
}


/** A step's answer: the whole view after it, once the run is saved. */
async function answer(s: WalkSession, result: WalkResult = { ok: true }) {
	if (!result.ok) throw badRequest(result.message);
	const now = await sandboxNow(s);
	await saveRun(s, now);
	return json({ view: view(s, now) });
}

const RevealRequest = z.object({ exchangeId: z.string().max(64), kind: z.enum(['access_token', 'refresh_token']) });

/**
 * POST /api/walk/{action}: a step, answered with the whole view after it (`{ view }`), as `view` answers it.
 * Unknown actions are a 404; invalid bodies a 400 naming the field.
 */
export async function walkAction(sessionId: string, action: string, request: Request): Promise<Response> {
	const s = await session(sessionId);
	const cfg = config();
	switch (action) {
		case 'client':
			return answer(s, applySettings(s.walk, await readJsonBody(request, ClientSettings), cfg, demoSecret(await sessionWorkspace(s.explorer))));
		case 'start': {
			const { link } = await readJsonBody(request, z.object({ link: z.string().max(8192) }));
			s.returnTo = '/';
			const started = startAuthorisation(s.walk, link);
			s.awaitingCallback = started.ok;
			if (started.ok) s.strayCallback = null;
			return answer(s, started);
		}
		case 'exchange':
			await exchangeCode(s.walk, await readJsonBody(request, ExchangeOptions), cfg, await clockFor(s));
			return answer(s);
		case 'me':
			return answer(s, await readMe(s.walk, await readJsonBody(request, MeOptions), cfg, await clockFor(s)));
		case 'reveal': {
			const { exchangeId, kind } = await readJsonBody(request, RevealRequest);
			const value = revealToken(s.walk, exchangeId, kind);
			if (!value) throw notFound(`No ${kind} in that exchange.`);
			return json({ value });
		}
		case 'reset':
			s.walk = demoWalk(await sessionWorkspace(s.explorer));
			s.awaitingCallback = false;
			s.strayCallback = null;
			return answer(s);
		case 'stray': {
			const { use } = await readJsonBody(request, z.object({ use: z.boolean() }));
			const stray = s.strayCallback;
			if (!stray) throw notFound('No redirect is waiting: it was used or ignored already, or the walk started again.');
			s.strayCallback = null;
			// Chosen by the person (a POST), so the run it starts is saved as any step's.
			if (use) recordCallback(s.walk, stray.url, await clockFor(s));
			return answer(s);
		}
		case 'view':
			return json({ view: view(s, await sandboxNow(s)) });
		default:
			throw notFound(`Unknown walk action "${action}": use client, start, exchange, me, reveal, reset, stray or view.`);
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
	const { outcome } = await readJsonBody(request, LessonRequest);
	if (outcome === 'restart') {
		s.lesson = { cancel: null, authorise: null };
		return json({ ok: true });
	}
	if (!(await services()).sandbox) throw sandboxOff('the lesson needs it.');
	s.walk = demoWalk(await sessionWorkspace(s.explorer));
	const c = s.walk.client;
	const link = buildAuthorisationLink({ authUrl: s.walk.target.authUrl, supergroup: c.supergroup, responseType: c.responseType, clientId: c.clientId, redirectUri: c.redirectUri, country: c.country });
	const started = startAuthorisation(s.walk, link);
	if (!started.ok) throw badRequest(started.message);
	await saveRun(s, await sandboxNow(s));
	s.returnTo = '/learn/cancel';
	s.awaitingCallback = true;
	return json({ link });
}
