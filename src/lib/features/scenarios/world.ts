/**
 * What one scenario run carries from step to step (the World), how a step is recorded and streamed, and how the run
 * becomes its result. Every exchange leaves here masked: client secrets, the admin token and issued tokens never
 * reach a step, a result's exchanges or an annotation.
 */
import { annotateLastExchange } from '$lib/flow/annotate-flow';
import { randomBytes } from 'node:crypto';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import { maskExchange } from '$lib/flow/mask';
import type { ExplorerConfig } from '$lib/platform/config';
import { newRun, type Run } from '$lib/features/runs/pure';
import type { ClientRole, FlowStep, Scenario } from '$lib/features/scenarios/pure/library';
import type { Observed, ScenarioResult, ScenarioStepResult } from '$lib/features/scenarios/pure/result';

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
	/**
	 * On the explorer's own sandbox: its internal-work credential (sandbox/workspace-admission.ts), sent when the run
	 * creates its workspace so that spends no visitor's allowance; masked like a secret.
	 */
	internalWork?: string | null;
	/** Without the control API: the deployment's registered client. With it, each scenario creates its own, in a workspace of its own. */
	client?: { clientId: string; clientSecret?: string; redirectUri: string };
	supplied?: { code?: string; token?: string };
	/** Makes this run's users and clients unique (client ids are unique across the sandbox's workspaces); random by default. */
	suffix?: string;
}

export interface Party {
	clientId: string;
	clientSecret: string | undefined;
	redirectUri: string;
}

export interface World {
	ctx: ScenarioContext;
	scenario: Scenario;
	suffix: string;
	/** The run's own throwaway workspace on the sandbox (workspace.ts); null before it exists, or without the control API. */
	workspace: { id: string; key: string } | null;
	parties: Partial<Record<ClientRole, Party>>;
	user: { login: string; password: string } | null;
	today: string | null;
	sandboxNow: string | null;
	linkRedirectUri: string | null;
	code: string | null;
	token: string | null;
	expiresIn: number | null;
	clientSecrets: string[];
	/** The workspace's key, the admin token, the internal-work credential: masked, and named for what they are. */
	sandboxKeys: string[];
	accessTokens: string[];
	refreshTokens: string[];
	run: Run;
	steps: ScenarioStepResult[];
	onStep?: (step: ScenarioStepResult) => void;
}

export type Outcome =
	| { kind: 'done'; observed: Observed | null; annotation?: Annotation; succeeded: boolean; problem?: string }
	| { kind: 'skip'; reason: string };

export function newWorld(scenario: Scenario, ctx: ScenarioContext, onStep: World['onStep']): World {
	const now = new Date().toISOString();
	return {
		ctx,
		scenario,
		suffix: ctx.suffix ?? randomBytes(4).toString('hex'),
		workspace: null,
		parties: {},
		user: null,
		today: null,
		sandboxNow: null,
		linkRedirectUri: null,
		code: null,
		token: null,
		expiresIn: null,
		clientSecrets: [],
		// The admin token and the internal-work credential are masked wherever they appear, as a client secret is.
		sandboxKeys: [ctx.adminToken, ctx.internalWork].filter((v): v is string => typeof v === 'string' && v !== ''),
		accessTokens: [],
		refreshTokens: [],
		run: newRun({
			title: `Scenario: ${scenario.title}`,
			createdAt: now,
			target: { kind: ctx.control ? 'sandbox' : 'custom', authUrl: ctx.authUrl, accountsUrl: ctx.accountsUrl },
			source: 'scenario'
		}),
		steps: [],
		...(onStep ? { onStep } : {})
	};
}

export function result(world: World, passed: ScenarioResult['passed'], observed: Observed | null, reason?: string): ScenarioResult {
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
		// The sandbox's keys are redacted as the tokens they are (a saved run names them "token").
		secrets: { clientSecrets: [...world.clientSecrets], tokens: [...world.sandboxKeys, ...world.accessTokens, ...world.refreshTokens] }
	};
}

export function emit(world: World, step: Omit<ScenarioStepResult, 'index'>): void {
	const entry = { index: world.steps.length, ...step };
	world.steps.push(entry);
	world.onStep?.(entry);
}

export function mask(world: World, exchange: RecordedExchange): RecordedExchange {
	const tokenMasked = maskExchange(exchange, { accessTokens: world.accessTokens, refreshTokens: world.refreshTokens, sandboxKeys: world.sandboxKeys });
	return world.clientSecrets.reduce((e, clientSecret) => maskExchange(e, { clientSecret }), tokenMasked);
}

/** The annotation of the run's latest exchange, made from the masked run as a saved run's would be. */
export function annotateLatest(world: World): Annotation | null {
	const masked = { ...world.run, sandboxClock: world.sandboxNow, exchanges: world.run.exchanges.map((e) => mask(world, e)) };
	return annotateLastExchange(masked);
}

export function observedFrom(step: FlowStep, annotation: Annotation): Observed {
	const row = annotation.outcome === 'success' ? 'success' : annotation.outcome === 'cancel' ? 'cancel' : (annotation.rowId ?? 'none');
	return { step, row, ...(annotation.causeId ? { cause: annotation.causeId } : {}), summary: annotation.title };
}

export const fill = (world: World, text: string, party: Party) =>
	text.replaceAll('{suffix}', world.suffix).replaceAll('{redirect_uri}', party.redirectUri);

export function party(world: World, role: ClientRole): Party {
	const found = world.parties[role];
	if (!found) throw new Error(`the scenario uses the ${role} client but does not set it up`);
	return found;
}
