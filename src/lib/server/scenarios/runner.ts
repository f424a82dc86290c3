/**
 * Walks a scenario with the explorer's own outbound `send`, so every step is a RecordedExchange exactly as a walk
 * records it, annotates each step the way a saved run is annotated (`annotateRun`), and compares what came out with
 * what the tables say should. Never throws: anything unexpected is a failed result saying what happened.
 *
 * Against a deployment without the sandbox control API, a scenario that needs it (setup, clock) or a user's
 * browser uses a code or token supplied by the caller, or is skipped; it is never reported as passed.
 */
import { randomBytes } from 'node:crypto';
import { CODE_VALIDITY, LIMITS } from '$lib/protocol';
import { headerValue } from '$lib/http/headers';
import { annotateAuthorisationError, authorisationRow, shownAuthorisationRow } from '$lib/flow/authorisation-page';
import { classifyCallback } from '$lib/flow/callback';
import { annotateCallback, type Annotation } from '$lib/flow/diagnose';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { issuedTokens } from '$lib/flow/tokens';
import { buildAuthorisationLink } from '$lib/flow/link';
import { maskExchange } from '$lib/flow/mask';
import { addDays } from '$lib/dates';
import type { ExplorerConfig } from '$lib/server/config';
import { send, type OutboundRequest } from '$lib/server/outbound';
import { USER_AGENT, buildMeRequest, buildTokenRequest } from '$lib/server/requests';
import { annotateRun } from '$lib/support/annotate';
import { newRunId, type Run } from '$lib/support/run';
import {
	SCENARIO_COUNTRY,
	SCENARIO_SUPERGROUP,
	type ClientRole,
	type Expected,
	type FlowStep,
	type LinkParam,
	type Scenario,
	type Step
} from '$lib/scenarios/library';
import type { Observed, ScenarioResult, ScenarioStepResult } from '$lib/scenarios/result';

export interface ScenarioContext {
	config: ExplorerConfig;
	authUrl: string;
	accountsUrl: string;
	/** The explorer's origin: scenario clients register `${explorerOrigin}/callback`. */
	explorerOrigin: string;
	/** Whether the target has the sandbox control API (`/sandbox/*` on the accounts host). */
	control: boolean;
	/** The control API's admin token (SANDBOX_ADMIN_TOKEN), sent as a Bearer credential and masked like a secret. */
	adminToken?: string | null;
	/** Without the control API: the deployment's registered client. With it, each scenario creates its own. */
	client?: { clientId: string; clientSecret?: string; redirectUri: string };
	supplied?: { code?: string; token?: string };
	/** Makes this run's users and clients unique; random by default. */
	suffix?: string;
}

interface Party {
	clientId: string;
	clientSecret: string | undefined;
	redirectUri: string;
}

interface World {
	ctx: ScenarioContext;
	scenario: Scenario;
	suffix: string;
	parties: Partial<Record<ClientRole, Party>>;
	user: { login: string; password: string } | null;
	today: string | null;
	sandboxNow: string | null;
	linkRedirectUri: string | null;
	code: string | null;
	token: string | null;
	expiresIn: number | null;
	clientSecrets: string[];
	accessTokens: string[];
	refreshTokens: string[];
	run: Run;
	steps: ScenarioStepResult[];
	onStep?: (step: ScenarioStepResult) => void;
}

type Outcome =
	| { kind: 'done'; observed: Observed | null; annotation?: Annotation; succeeded: boolean; problem?: string }
	| { kind: 'skip'; reason: string };

/* ------------------------------------------------------------------ entry point */

export async function runScenario(
	scenario: Scenario,
	ctx: ScenarioContext,
	onStep?: (step: ScenarioStepResult) => void
): Promise<ScenarioResult> {
	const world = newWorld(scenario, ctx, onStep);
	try {
		return await walk(world);
	} catch (error) {
		return result(world, false, null, `The scenario could not run: ${error instanceof Error ? error.message : String(error)}`);
	}
}

async function walk(world: World): Promise<ScenarioResult> {
	const { scenario, ctx } = world;
	if (!ctx.control) {
		const skip = customSkip(scenario, ctx);
		if (skip) return result(world, 'skipped', null, skip);
	}
	const setup = ctx.control ? await setUpSandbox(world) : useCustomClient(world);
	if (setup) return result(world, false, null, setup);

	const steps = ctx.control || scenario.custom !== 'token' ? scenario.steps : scenario.steps.filter((s) => s.kind === 'me');
	let last: Extract<Outcome, { kind: 'done' }> | null = null;
	for (const [i, step] of steps.entries()) {
		const isLast = i === steps.length - 1;
		const outcome = await perform(world, step, isLast, i === 0);
		if (outcome.kind === 'skip') return result(world, 'skipped', null, outcome.reason);
		last = outcome;
		if (!isLast && !outcome.succeeded) {
			return result(world, false, outcome.observed, `Stopped at "${stepText(step)}": ${outcome.problem ?? outcome.observed?.summary ?? 'it did not succeed'}.`);
		}
	}
	const verdict = judge(scenario.expected, last?.observed ?? null, last?.annotation);
	return result(world, verdict.passed, last?.observed ?? null, verdict.reason);
}

function newWorld(scenario: Scenario, ctx: ScenarioContext, onStep: World['onStep']): World {
	const now = new Date().toISOString();
	return {
		ctx,
		scenario,
		suffix: ctx.suffix ?? randomBytes(4).toString('hex'),
		parties: {},
		user: null,
		today: null,
		sandboxNow: null,
		linkRedirectUri: null,
		code: null,
		token: null,
		expiresIn: null,
		// The admin token is masked wherever it appears, as a client secret is.
		clientSecrets: ctx.adminToken ? [ctx.adminToken] : [],
		accessTokens: [],
		refreshTokens: [],
		run: {
			id: newRunId(),
			title: `Scenario: ${scenario.title}`,
			createdAt: now,
			target: { kind: ctx.control ? 'sandbox' : 'custom', authUrl: ctx.authUrl, accountsUrl: ctx.accountsUrl },
			sandboxClock: null,
			link: null,
			callback: null,
			exchanges: [],
			redactions: [],
			source: 'scenario'
		},
		steps: [],
		...(onStep ? { onStep } : {})
	};
}

function result(world: World, passed: ScenarioResult['passed'], observed: Observed | null, reason?: string): ScenarioResult {
	const run = { ...world.run, sandboxClock: world.sandboxNow };
	return {
		id: world.scenario.id,
		title: world.scenario.title,
		expected: world.scenario.expected,
		observed,
		passed,
		...(reason ? { reason } : {}),
		steps: world.steps,
		exchanges: run.exchanges.map((e) => mask(world, e)),
		run,
		secrets: { clientSecrets: [...world.clientSecrets], tokens: [...world.accessTokens, ...world.refreshTokens] }
	};
}

/** Why a scenario cannot run against a deployment without the control API, or null when it can. */
function customSkip(scenario: Scenario, ctx: ScenarioContext): string | null {
	switch (scenario.custom) {
		case null:
			return 'Needs the sandbox control API (it sets up users, clients or the clock), which this target does not have.';
		case 'code':
			return ctx.supplied?.code
				? null
				: "Needs a grant code from a user's browser: open the authorisation link, sign in, and pass the `code` from the redirect with --code (a code works once, so run one scenario with --only).";
		case 'token':
			return ctx.supplied?.token ? null : 'Needs an access token: pass one with --token.';
		case 'as-is':
			return null;
	}
}

/** The verdict: the expected step, row and cause, and the scenario's check. */
export function judge(expected: Expected, observed: Observed | null, annotation?: Annotation): { passed: boolean; reason?: string } {
	if (!observed) return { passed: false, reason: 'Nothing was observed.' };
	if (observed.step !== expected.step) return { passed: false, reason: `The walk ended at ${observed.step}, not ${expected.step}.` };
	if (observed.row !== expected.row) return { passed: false, reason: `Expected ${expected.row}, observed ${observed.row}: ${observed.summary}` };
	if (expected.cause && observed.cause !== undefined && observed.cause !== expected.cause) {
		return { passed: false, reason: `Row ${observed.row} as expected, but the cause was ${observed.cause}, not ${expected.cause}.` };
	}
	const seen = expected.check && annotation ? expected.check.test(annotation) : null;
	if (seen !== null && expected.check) return { passed: false, reason: `Expected ${expected.check.text}; observed ${seen}.` };
	if (expected.cause && observed.cause === undefined) return { passed: true, reason: 'The row matched; the answer does not say which cause.' };
	return { passed: true };
}

/* ------------------------------------------------------------------ recording */

function emit(world: World, step: Omit<ScenarioStepResult, 'index'>): void {
	const entry = { index: world.steps.length, ...step };
	world.steps.push(entry);
	world.onStep?.(entry);
}

function mask(world: World, exchange: RecordedExchange): RecordedExchange {
	const tokenMasked = maskExchange(exchange, { accessTokens: world.accessTokens, refreshTokens: world.refreshTokens });
	return world.clientSecrets.reduce((e, clientSecret) => maskExchange(e, { clientSecret }), tokenMasked);
}

/** The annotation of the run's latest exchange, made from the masked run as a saved run's would be. */
function annotateLatest(world: World): Annotation | null {
	const masked = { ...world.run, sandboxClock: world.sandboxNow, exchanges: world.run.exchanges.map((e) => mask(world, e)) };
	return annotateRun(masked).exchanges.at(-1) ?? null;
}

function observedFrom(step: FlowStep, annotation: Annotation): Observed {
	const row = annotation.outcome === 'success' ? 'success' : annotation.outcome === 'cancel' ? 'cancel' : (annotation.rowId ?? 'none');
	return { step, row, ...(annotation.causeId ? { cause: annotation.causeId } : {}), summary: annotation.title };
}

const fill = (world: World, text: string, party: Party) =>
	text.replaceAll('{suffix}', world.suffix).replaceAll('{redirect_uri}', party.redirectUri);

function party(world: World, role: ClientRole): Party {
	const found = world.parties[role];
	if (!found) throw new Error(`the scenario uses the ${role} client but does not set it up`);
	return found;
}

/* ------------------------------------------------------------------ setup */

type ControlAnswer = { exchange: RecordedExchange; status: number | null; body: Record<string, unknown> };

/** One call to the sandbox control API, through `send` like every other request. */
async function control(world: World, path: string, body: object | null, step: StepId, label: string): Promise<ControlAnswer> {
	const request: OutboundRequest = {
		method: body === null ? 'GET' : 'POST',
		url: `${world.ctx.accountsUrl.replace(/\/+$/, '')}${path}`,
		headers: [
			{ name: 'User-Agent', value: USER_AGENT },
			{ name: 'Accept', value: 'application/json' },
			...(body === null ? [] : [{ name: 'Content-Type', value: 'application/json' }]),
			...(world.ctx.adminToken ? [{ name: 'Authorization', value: `Bearer ${world.ctx.adminToken}` }] : [])
		],
		body: body === null ? null : JSON.stringify(body)
	};
	const exchange = await send(request, { config: world.ctx.config, step, label });
	return { exchange, status: exchange.response?.status ?? null, body: parseObject(exchange.response?.body) };
}

function parseObject(text: string | undefined): Record<string, unknown> {
	try {
		const value: unknown = JSON.parse(text ?? '');
		return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

function controlProblem(answer: ControlAnswer, what: string): string | null {
	if (answer.status === 200) return null;
	const why = answer.exchange.failure?.message ?? (typeof answer.body['error'] === 'string' ? answer.body['error'] : `status ${answer.status}`);
	return `The sandbox control API could not ${what}: ${why}`;
}

const randomSecret = () => randomBytes(18).toString('base64url');

/** Creates the scenario's client(s) and user on the sandbox; a message when that failed. */
async function setUpSandbox(world: World): Promise<string | null> {
	const { scenario, ctx, suffix } = world;
	const state = await control(world, '/sandbox/state', null, 'link', 'sandbox setup: read the clock');
	const stateProblem = controlProblem(state, 'read its clock');
	if (stateProblem) return stateProblem;
	const today = state.body['today'];
	if (typeof today !== 'string') return 'The sandbox control API did not say what day it is (GET /sandbox/state has no `today`).';
	world.today = today;
	world.sandboxNow = typeof state.body['now'] === 'string' ? state.body['now'] : null;

	const redirectUri = `${ctx.explorerOrigin.replace(/\/+$/, '')}/callback`;
	const created: string[] = [];
	for (const client of scenario.setup.clients) {
		const registered: Party = { clientId: `scenario-${client.role}-${suffix}`, clientSecret: randomSecret(), redirectUri };
		world.clientSecrets.push(registered.clientSecret!);
		const key = client.verificationKey ?? 'supergroup';
		const answer = await control(
			world,
			'/sandbox/clients',
			{
				client_id: registered.clientId,
				client_secret: registered.clientSecret,
				name: `Scenario ${scenario.id} (${client.role})`,
				redirect_uris: [redirectUri],
				countries: [SCENARIO_COUNTRY],
				verification_key: key
			},
			'link',
			'sandbox setup: create a client'
		);
		const problem = controlProblem(answer, `create the client ${registered.clientId}`);
		if (problem) return problem;
		world.parties[client.role] = registered;
		created.push(`${registered.clientId}${key === 'group' ? ' (me.json key `group`)' : ''}`);
	}

	const user = { login: `scenario-${suffix}@example.com`, password: randomSecret() };
	const verifications = scenario.setup.user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: addDays(today, v.expiresInDays) }));
	const answer = await control(
		world,
		'/sandbox/users',
		{ ...user, verifications, deletion_requested: scenario.setup.user.deletionRequested ?? false },
		'link',
		'sandbox setup: create a user'
	);
	const problem = controlProblem(answer, `create the user ${user.login}`);
	if (problem) return problem;
	world.user = user;

	const verified = verifications.map((v) => `${v.supergroup} until ${v.expires_on}`).join(', ') || 'no verification';
	const deletion = scenario.setup.user.deletionRequested ? ', who has asked for account deletion' : '';
	emit(world, {
		kind: 'setup',
		text: `Sandbox today is ${today}. Created client ${created.join(' and ')} (redirect URI ${redirectUri}) and user ${user.login} (${verified})${deletion}.`
	});
	return null;
}

function useCustomClient(world: World): string | null {
	const client = world.ctx.client;
	if (!client) return 'No client given for the custom target: pass its client ID, secret and registered redirect URI.';
	world.parties.main = { clientId: client.clientId, clientSecret: client.clientSecret, redirectUri: client.redirectUri };
	if (client.clientSecret) world.clientSecrets.push(client.clientSecret);
	const token = world.ctx.supplied?.token;
	if (world.scenario.custom === 'token' && token) {
		world.token = token;
		world.accessTokens.push(token);
		emit(world, { kind: 'stand-in', text: 'The access token supplied on the command line stands in for signing in and exchanging the code.' });
	}
	return null;
}

/* ------------------------------------------------------------------ steps */

function perform(world: World, step: Step, isLast: boolean, isFirst: boolean): Promise<Outcome> {
	switch (step.kind) {
		case 'authorise':
			if (world.ctx.control) return authoriseHeadless(world, step);
			return isLast ? readLinkPage(world, step) : Promise.resolve(standInForBrowser(world, step, isFirst));
		case 'token':
			return exchangeCode(world, step);
		case 'me':
			return readMe(world, step);
		case 'clock':
			return moveClock(world, step);
		case 'verification':
			return changeVerification(world, step);
	}
}

type AuthoriseStep = Extract<Step, { kind: 'authorise' }>;

/** The link's parameters after the step's changes; an omitted parameter is absent. */
function linkParams(world: World, step: AuthoriseStep): { party: Party; params: Partial<Record<LinkParam, string>>; link: string } {
	const p = party(world, step.as ?? 'main');
	const all: Record<LinkParam, string> = {
		response_type: 'code',
		client_id: p.clientId,
		redirect_uri: p.redirectUri,
		country: SCENARIO_COUNTRY
	};
	for (const [name, value] of Object.entries(step.set ?? {}) as [LinkParam, string][]) all[name] = fill(world, value, p);
	const omitted = new Set(step.omit ?? []);
	const params = Object.fromEntries(Object.entries(all).filter(([name]) => !omitted.has(name as LinkParam)));
	const built = buildAuthorisationLink({
		authUrl: world.ctx.authUrl,
		supergroup: SCENARIO_SUPERGROUP,
		responseType: all.response_type,
		clientId: all.client_id,
		redirectUri: all.redirect_uri,
		country: all.country
	});
	return { party: p, params, link: withoutParams(built, omitted) };
}

/** The link with the named query parameters removed, every other byte kept. */
function withoutParams(link: string, names: Set<string>): string {
	if (names.size === 0) return link;
	const [base, query = ''] = link.split('?', 2) as [string, string?];
	const kept = query.split('&').filter((pair) => !names.has(decodeURIComponent(pair.split('=')[0]!)));
	return kept.length ? `${base}?${kept.join('&')}` : base;
}

function authoriseText(step: AuthoriseStep): string {
	const changes = [
		...(step.as === 'other' ? ['as the second client'] : []),
		...Object.entries(step.set ?? {}).map(([name, value]) => `${name}=${value}`),
		...(step.omit ?? []).map((name) => `no ${name}`)
	];
	const what = step.decision === 'cancel' ? 'The user cancels on the authorisation page' : 'The user authorises on the authorisation page';
	return `${what}${changes.length ? ` (link with ${changes.join(', ')})` : ''}`;
}

/** `POST /sandbox/authorize`: what the page would do for this link and decision, without a browser. */
async function authoriseHeadless(world: World, step: AuthoriseStep): Promise<Outcome> {
	const { party: p, params, link } = linkParams(world, step);
	const decision = step.decision ?? 'authorize';
	world.run.link = link;
	world.linkRedirectUri = params.redirect_uri ?? null;
	const answer = await control(
		world,
		'/sandbox/authorize',
		{ supergroup: SCENARIO_SUPERGROUP, ...params, login: world.user?.login ?? '', decision },
		'authorise',
		`${authoriseText(step)} (headless: POST /sandbox/authorize)`
	);
	world.run.exchanges.push(answer.exchange);
	const location = answer.status === 200 && typeof answer.body['location'] === 'string' ? answer.body['location'] : null;
	let annotation: Annotation;
	if (location) {
		world.run.callback = { url: location, receivedAt: answer.exchange.startedAt };
		const callback = classifyCallback(location, { redirectUri: params.redirect_uri ?? p.redirectUri });
		world.code = callback.kind === 'code' ? callback.code : null;
		annotation = annotateCallback(callback);
	} else {
		const row = authorisationRow(answer.body['row']);
		annotation = row ? annotateAuthorisationError(row, stringOr(answer.body['cause']), stringOr(answer.body['detail'])) : noCallbackAnnotation(answer);
	}
	emit(world, { kind: 'authorise', text: authoriseText(step), exchange: mask(world, answer.exchange), annotation });
	const observed = observedFrom('authorise', annotation);
	const succeeded = observed.row === (decision === 'cancel' ? 'cancel' : 'success');
	return { kind: 'done', observed, annotation, succeeded, ...(succeeded ? {} : { problem: `${annotation.title}. ${annotation.summary}` }) };
}

const stringOr = (value: unknown) => (typeof value === 'string' ? value : undefined);

function noCallbackAnnotation(answer: ControlAnswer): Annotation {
	const error = stringOr(answer.body['error']);
	return {
		outcome: answer.exchange.failure ? 'transport' : 'error',
		title: answer.exchange.failure ? 'No answer from the sandbox control API' : `${answer.status}: no redirect`,
		summary: answer.exchange.failure?.message ?? error ?? 'The sandbox answered without a redirect or a 7.1 row.',
		candidates: []
	};
}

/** Without the control API: a supplied code, a cancel, or a made-up code stands in for the user's browser. */
function standInForBrowser(world: World, step: AuthoriseStep, isFirst: boolean): Outcome {
	const { party: p, params, link } = linkParams(world, step);
	world.run.link = link;
	world.linkRedirectUri = params.redirect_uri ?? null;
	const supplied = world.scenario.custom === 'code' && isFirst ? world.ctx.supplied?.code : undefined;
	const cancelled = step.decision === 'cancel';
	world.code = cancelled ? null : (supplied ?? `stand-in-${world.suffix}`);
	const redirectUri = params.redirect_uri ?? p.redirectUri;
	const url = world.code === null ? redirectUri : `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}code=${encodeURIComponent(world.code)}`;
	world.run.callback = { url, receivedAt: new Date().toISOString() };
	const text = cancelled
		? 'No browser: the redirect a cancel gives (no `code`) stands in for the user cancelling.'
		: supplied
			? 'The grant code supplied on the command line stands in for the user authorising.'
			: 'No browser: a made-up code stands in for the user authorising (this row does not depend on the code).';
	emit(world, { kind: 'stand-in', text });
	return { kind: 'done', observed: null, succeeded: true };
}

/** Without the control API, a 7.1 row is read from the page itself: shown to the user, never redirected. */
async function readLinkPage(world: World, step: AuthoriseStep): Promise<Outcome> {
	const { party: p, link } = linkParams(world, step);
	world.run.link = link;
	const request: OutboundRequest = {
		method: 'GET',
		url: link,
		headers: [
			{ name: 'User-Agent', value: USER_AGENT },
			{ name: 'Accept', value: 'text/html' }
		],
		body: null
	};
	const exchange = await send(request, { config: world.ctx.config, step: 'link', label: `${authoriseText(step)}: open the link` });
	world.run.exchanges.push(exchange);
	const reading = readPage(exchange, p.redirectUri);
	emit(world, { kind: 'authorise', text: authoriseText(step), exchange: mask(world, exchange), annotation: reading.annotation });
	if (reading.skip) return { kind: 'skip', reason: reading.skip };
	return { kind: 'done', observed: observedFrom('authorise', reading.annotation), annotation: reading.annotation, succeeded: false };
}

function readPage(exchange: RecordedExchange, redirectUri: string): { annotation: Annotation; skip?: string } {
	const note = (outcome: Annotation['outcome'], title: string, summary: string): Annotation => ({ outcome, title, summary, candidates: [] });
	const response = exchange.response;
	if (!response) return { annotation: note('transport', 'No answer from the authorisation page', exchange.failure?.message ?? 'No response.') };
	const location = headerValue(response.headers, 'location');
	if (response.status >= 300 && response.status < 400 && location) {
		const registered = redirectUri.split('?')[0]!;
		if (location.startsWith(registered)) {
			return { annotation: note('error', 'Redirected to the redirect URI', `The page redirected to ${location}; a 7.1 error is shown to the user, never redirected.`) };
		}
		const annotation = note('transport', 'Redirected elsewhere', `The page redirected to ${location}, probably a login page.`);
		return { annotation, skip: `The page redirected to ${location} (probably to sign in first); check the error in a browser.` };
	}
	const shown = shownAuthorisationRow(response.body);
	if (shown) return { annotation: annotateAuthorisationError(shown) };
	const annotation = note('transport', 'None of 7.1\'s messages on the page', `The page answered ${response.status} without any of 7.1's messages.`);
	return { annotation, skip: 'The page shows none of 7.1\'s messages (it may ask the user to sign in first); check the error in a browser.' };
}

type TokenStep = Extract<Step, { kind: 'token' }>;

function tokenText(step: TokenStep): string {
	const changes = [
		...(step.as === 'other' ? ['as the second client'] : []),
		...(step.secret === 'wrong' ? ['with a wrong secret'] : step.secret && step.secret !== (step.as ?? 'main') ? ["with the first client's secret"] : []),
		...(step.clientId ? ['with a client_id nobody registered'] : []),
		...(step.code ? ['with a made-up code'] : []),
		...(step.grantType ? [`with grant_type=${step.grantType}`] : []),
		...(step.redirectUriExtra ? ['with an extra query parameter on redirect_uri'] : []),
		...(step.omit ?? []).map((name) => `without ${name}`)
	];
	return `Exchange the code at /oauth/token${changes.length ? ` ${changes.join(', ')}` : ''}`;
}

async function exchangeCode(world: World, step: TokenStep): Promise<Outcome> {
	const p = party(world, step.as ?? 'main');
	const secretOwner = step.secret === undefined || step.secret === 'wrong' ? p : party(world, step.secret);
	const clientSecret = step.secret === 'wrong' ? `wrong-secret-${world.suffix}` : secretOwner.clientSecret;
	const redirectUri = world.linkRedirectUri ?? p.redirectUri;
	const request = buildTokenRequest({
		accountsUrl: world.ctx.accountsUrl,
		code: step.code ? fill(world, step.code, p) : (world.code ?? undefined),
		redirectUri: step.redirectUriExtra ? `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}scenario_extra=1` : redirectUri,
		clientId: step.clientId ? fill(world, step.clientId, p) : p.clientId,
		...(clientSecret === undefined ? {} : { clientSecret }),
		...(step.grantType ? { grantType: step.grantType } : {}),
		transport: 'query',
		omit: step.omit ?? []
	});
	const exchange = await send(request, { config: world.ctx.config, step: 'token', label: tokenText(step) });
	const tokens = issuedTokens(exchange);
	if (tokens) {
		world.token = tokens.access_token;
		world.expiresIn = tokens.expires_in;
		world.accessTokens.push(tokens.access_token);
		world.refreshTokens.push(tokens.refresh_token);
	}
	return recordFlowExchange(world, 'token', tokenText(step), exchange);
}


type MeStep = Extract<Step, { kind: 'me' }>;

function meText(step: MeStep): string {
	const credential = { token: 'with the access token', code: 'with the grant code instead of a token', none: 'without a token' }[step.credential ?? 'token'];
	return `Read me.json ${credential}${step.userAgent === false ? ', no User-Agent' : ''}${step.host === false ? ', no Host' : ''}`;
}

async function readMe(world: World, step: MeStep): Promise<Outcome> {
	const credential = step.credential ?? 'token';
	const token = credential === 'token' ? world.token : credential === 'code' ? world.code : null;
	if (credential !== 'none' && token === null) {
		return { kind: 'done', observed: null, succeeded: false, problem: `there is no ${credential === 'token' ? 'access token' : 'grant code'} to send` };
	}
	const request = buildMeRequest({
		accountsUrl: world.ctx.accountsUrl,
		...(token === null ? {} : { token }),
		transport: 'header',
		userAgent: step.userAgent !== false,
		host: step.host !== false
	});
	const exchange = await send(request, { config: world.ctx.config, step: 'me', label: meText(step) });
	return recordFlowExchange(world, 'me', meText(step), exchange);
}

function recordFlowExchange(world: World, step: 'token' | 'me', text: string, exchange: RecordedExchange): Outcome {
	world.run.exchanges.push(exchange);
	const annotation = annotateLatest(world);
	emit(world, { kind: step, text, exchange: mask(world, exchange), ...(annotation ? { annotation } : {}) });
	if (!annotation) return { kind: 'done', observed: null, succeeded: false, problem: 'the exchange could not be annotated' };
	const observed = observedFrom(step, annotation);
	return { kind: 'done', observed, annotation, succeeded: observed.row === 'success' };
}

async function moveClock(world: World, step: Extract<Step, { kind: 'clock' }>): Promise<Outcome> {
	const past = step.advance === 'past-code-validity' ? LIMITS.codeTtlSeconds : (world.expiresIn ?? LIMITS.accessTokenExpiresIn);
	const seconds = past + 60;
	const answer = await control(world, '/sandbox/clock', { advance_seconds: seconds }, 'link', 'sandbox clock');
	const problem = controlProblem(answer, 'move the clock');
	if (problem) return { kind: 'done', observed: null, succeeded: false, problem };
	world.sandboxNow = stringOr(answer.body['now']) ?? world.sandboxNow;
	world.today = stringOr(answer.body['today']) ?? world.today;
	const what = step.advance === 'past-code-validity' ? `the code's ${CODE_VALIDITY}` : `the token's expires_in (${past} s)`;
	emit(world, { kind: 'clock', text: `The sandbox clock moves forward ${seconds} s, past ${what}: it is now ${world.sandboxNow}.` });
	return { kind: 'done', observed: null, succeeded: true };
}

async function changeVerification(world: World, step: Extract<Step, { kind: 'verification' }>): Promise<Outcome> {
	const { user, today } = world;
	if (!user || !today) return { kind: 'done', observed: null, succeeded: false, problem: 'there is no scenario user to change' };
	const verifications = world.scenario.setup.user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: addDays(today, step.expiresInDays) }));
	const answer = await control(
		world,
		'/sandbox/users',
		{ ...user, verifications, deletion_requested: world.scenario.setup.user.deletionRequested ?? false },
		'link',
		'sandbox: change the verification'
	);
	const problem = controlProblem(answer, 'change the verification');
	if (problem) return { kind: 'done', observed: null, succeeded: false, problem };
	const listed = verifications.map((v) => `${v.supergroup} expires_on ${v.expires_on}`).join(', ');
	emit(world, { kind: 'verification', text: `The user's verification changes on the sandbox: ${listed} (today is ${today}).` });
	return { kind: 'done', observed: null, succeeded: true };
}

/** A step as one line, for reasons and reports. */
export function stepText(step: Step): string {
	switch (step.kind) {
		case 'authorise':
			return authoriseText(step);
		case 'token':
			return tokenText(step);
		case 'me':
			return meText(step);
		case 'clock':
			return step.advance === 'past-code-validity' ? `Move the clock past the code's ${CODE_VALIDITY}` : "Move the clock past the token's expires_in";
		case 'verification':
			return `Change the verification to end in ${step.expiresInDays} days`;
	}
}
