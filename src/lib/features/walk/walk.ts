/**
 * The explorer's walk on the server: what one person's session has done so far, and the four steps as functions
 * over it. Every outbound request is built here, with the client secret that only the server holds; what the
 * browser gets is `walkView`, with the secret and tokens masked.
 */
import { z } from 'zod';
import { SECRET_VALUE_FINDING, lintLink, type Finding } from '$lib/flow/link/lint';
import { classifyCallback, type CallbackResult } from '$lib/flow/callback';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import { annotateLastExchange } from '$lib/flow/annotate-flow';
import type { ClockReading } from '$lib/flow/flow-time';
import type { FlowRecord } from '$lib/flow/record';
import { toCurl } from '$lib/flow/curl';
import { maskExchange } from '$lib/flow/mask';
import { TOKEN_PARAMETERS } from '$lib/protocol';
import type { RecordedExchange } from '$lib/flow/exchange';
import { issuedTokens, type IssuedTokens } from '$lib/flow/tokens';
import type { ExchangeEntry } from '$lib/flow/view';
import { newRunId } from '$lib/features/runs/pure';
import type { Frozen } from '$lib/frozen';
import type { ExplorerConfig } from '../../platform/config';
import { resolveTarget, type Target } from '../../platform/outbound/targets';
import { holdSecret, secretFor, type HeldSecret } from '../../platform/outbound/held-secret';
import { buildMeRequest, buildTokenRequest } from '../../platform/outbound/requests';
import { send } from '../../platform/outbound/outbound';

/** The walk's client as step 1 sets it; its secret is held apart, bound to the target (`Walk.secret`). */
export interface WalkClient {
	clientId: string;
	redirectUri: string;
	supergroup: string;
	country: string;
	responseType: string;
	extraLinkParams: [string, string][];
}

export interface WalkEntry {
	/** Unmasked, as sent and received; never leaves the server. */
	readonly exchange: Frozen<RecordedExchange>;
	annotation: Annotation;
	/** The token response, when this was a successful exchange (parsed once). */
	tokens: IssuedTokens | null;
	/**
	 * What the browser was last shown of it, with the secrets it was masked with (secretsKey): masking every
	 * exchange again at every step, twice, was most of a step's cost, and only a new secret changes the answer.
	 */
	shown?: { secrets: string; entry: ExchangeEntry };
}

export interface Walk {
	/** The saved run this walk is recorded as; a new walk (a new link) is a new run. */
	runId: string;
	target: Target;
	client: WalkClient;
	/**
	 * The client secret, bound to the target's accounts host it was given for. Set only with its target
	 * (`newWalk`, `applySettings`): a walk pointed elsewhere holds none until one is given for the new target.
	 */
	secret: HeldSecret | null;
	link: string | null;
	/** The redirect URI and client ID of the link the browser was sent to; the exchange must repeat them. */
	linkRedirectUri: string | null;
	linkClientId: string | null;
	/** When the redirect came back: real time, and the sandbox's lead then (flow-time.ts). */
	callback: { url: string; receivedAt: string; sandboxOffsetMs?: number; result: CallbackResult } | null;
	exchanges: WalkEntry[];
	accessToken: string | null;
	refreshToken: string | null;
	codeExchanged: boolean;
	/** The code received was exchanged in an earlier run of this walk (a new secret starts a new run, keeping the code). */
	codeExchangedBeforeRun: boolean;
	/** serverFindings' answer, with the secret and link it was made for. */
	secretInLink?: { of: string; findings: Finding[] };
}

export type WalkResult = { ok: true } | { ok: false; message: string };

/** A fresh walk against the sandbox with its demo client, so the explorer works with zero configuration. */
export function newWalk(target: Target, { clientSecret, ...demo }: WalkClient & { clientSecret?: string }): Walk {
	return {
		runId: newRunId(),
		target,
		client: { ...demo, extraLinkParams: [...demo.extraLinkParams] },
		secret: clientSecret === undefined ? null : holdSecret(clientSecret, target.accountsUrl),
		link: null,
		linkRedirectUri: null,
		linkClientId: null,
		callback: null,
		exchanges: [],
		accessToken: null,
		refreshToken: null,
		codeExchanged: false,
		codeExchangedBeforeRun: false
	};
}

const text = (max: number) =>
	z
		.string()
		.max(max, `at most ${max} characters`)
		// A JSON body can carry half of a UTF-16 pair, which no URL or UTF-8 text can; the browser's fields cannot.
		.refine((value) => value.isWellFormed(), 'contains an unpaired surrogate (half of a character), which no URL can carry');

export const ClientSettings = z.object({
	target: z.discriminatedUnion('kind', [
		z.object({ kind: z.literal('sandbox') }),
		z.object({ kind: z.literal('custom'), authUrl: text(2048), accountsUrl: text(2048) })
	]),
	clientId: text(512),
	/** Absent: keep the secret the server holds. Short, it could not be hidden without hiding ordinary text too. */
	clientSecret: text(1024).refine((s) => s === '' || s.length >= 8, 'a client secret shorter than 8 characters cannot be hidden in what is shown without hiding ordinary text too (the service issues long secrets)').optional(),
	redirectUri: text(4096),
	supergroup: text(128),
	country: text(16),
	responseType: text(64),
	extraLinkParams: z.array(z.tuple([text(256), text(2048)])).max(20, 'at most 20 extra parameters')
});
export type ClientSettings = z.infer<typeof ClientSettings>;

/** The sandbox's own secret for the session's demo client, which a fresh walk (and a reset) holds. */
export interface DemoSecret {
	clientId: string;
	secret: string;
}

/**
 * Step 1 saved. `demo`: what a reset would hold; a walk brought back to the sandbox with the demo client and no
 * secret holds it again, so the sandbox keeps needing no configuration.
 */
export function applySettings(walk: Walk, settings: ClientSettings, config: ExplorerConfig, demo?: DemoSecret): WalkResult {
	const target = resolveTarget(settings.target, config);
	if (!target.ok) return { ok: false, message: target.message };
	const { clientSecret, target: _, ...client } = settings;
	walk.client = { ...walk.client, ...client };
	if (!sameTarget(target.target, walk.target)) {
		// The secret held was given for the old target: it goes with it, whatever the new one is.
		walk.target = target.target;
		const given = clientSecret ?? (walk.target.kind === 'sandbox' && demo?.clientId === client.clientId ? demo.secret : undefined);
		walk.secret = given === undefined ? null : holdSecret(given, walk.target.accountsUrl);
		resetSteps(walk);
	} else if (clientSecret !== undefined && clientSecret !== walk.secret?.value) {
		// A new secret starts a new run: the exchanges so far carry the old one, which masking no longer knows. The
		// code received stays, so step 3 can show what the service says to it under another client's credentials.
		walk.secret = holdSecret(clientSecret, walk.target.accountsUrl);
		restartExchanges(walk);
	}
	return { ok: true };
}

const sameTarget = (a: Target, b: Target) => a.kind === b.kind && a.authUrl === b.authUrl && a.accountsUrl === b.accountsUrl;

/** The walk's secret's value, for what is shown or masked (never for what is sent: `secretFor`). */
export const secretValue = (walk: Walk) => walk.secret?.value;

/** What the outbound proxy is told the walk holds, so it refuses to send it anywhere but its own host. */
const held = (walk: Walk) => (walk.secret ? [walk.secret] : []);

/**
 * Findings only the server can make: the secret's value in the link. Kept for the link and secret they were made
 * for: every view asks, and linting the link again at each step was a tenth of a step's cost.
 */
export function serverFindings(walk: Walk, link: string): Finding[] {
	const secret = secretValue(walk);
	if (!secret) return [];
	const of = `${secret}\n${link}`;
	if (walk.secretInLink?.of !== of) walk.secretInLink = { of, findings: lintLink(link, { secret }).filter((f) => f.id === SECRET_VALUE_FINDING) };
	return walk.secretInLink.findings;
}

/**
 * Step 2 begins: remember the link the browser is sent to. A link that carries the secret is refused: its value
 * anywhere, or any `client_secret` parameter (whose value could be a secret of another client).
 */
export function startAuthorisation(walk: Walk, link: string): WalkResult {
	const leaks = lintLink(link, { secret: secretValue(walk) }).filter((f) => f.id.startsWith('client-secret'));
	if (leaks.length > 0) return { ok: false, message: `Not opened: ${leaks[0]!.message}` };
	const redirectUri = safeParam(link, 'redirect_uri');
	resetSteps(walk);
	walk.link = link;
	walk.linkRedirectUri = redirectUri;
	walk.linkClientId = safeParam(link, 'client_id');
	return { ok: true };
}

function safeParam(url: string, name: string): string | null {
	try {
		return new URL(url).searchParams.get(name);
	} catch {
		return null;
	}
}

/** A new run from the code received: the link and the callback stay, the exchanges and tokens go. */
function restartExchanges(walk: Walk) {
	walk.runId = newRunId();
	walk.exchanges = [];
	walk.accessToken = null;
	walk.refreshToken = null;
	walk.codeExchangedBeforeRun = walk.codeExchanged;
}

function resetSteps(walk: Walk) {
	walk.runId = newRunId();
	walk.link = null;
	walk.linkRedirectUri = null;
	walk.linkClientId = null;
	walk.callback = null;
	walk.exchanges = [];
	walk.accessToken = null;
	walk.refreshToken = null;
	walk.codeExchanged = false;
	walk.codeExchangedBeforeRun = false;
}

/**
 * Now as the walk records it: real time, and against the sandbox how far the sandbox's clock (`clock`, what the
 * walk's code expires by) is ahead, so the saved run reads the same code age (flow-time.ts).
 */
function readClock(walk: Walk, clock: () => Date): ClockReading {
	const wall = Date.now();
	const at = new Date(wall).toISOString();
	return walk.target.kind === 'sandbox' ? { at, sandboxOffsetMs: clock().getTime() - wall } : { at };
}

/** `now`: the walk's clock (the sandbox's against the sandbox). */
export function recordCallback(walk: Walk, url: string, now: () => Date) {
	// A second redirect starts a run of its own: the run saved from the first keeps its exchanges (a redirect can be
	// sent by any page the browser opens, so it must never overwrite what was saved).
	if (walk.callback !== null || walk.exchanges.length > 0) walk.runId = newRunId();
	const expected = walk.linkRedirectUri ?? walk.client.redirectUri;
	const { at, sandboxOffsetMs } = readClock(walk, now);
	walk.callback = { url, receivedAt: at, ...(sandboxOffsetMs === undefined ? {} : { sandboxOffsetMs }), result: classifyCallback(url, { redirectUri: expected }) };
	walk.exchanges = [];
	walk.accessToken = null;
	walk.refreshToken = null;
	walk.codeExchanged = false;
	walk.codeExchangedBeforeRun = false;
}

function issuedCode(walk: Walk): string | undefined {
	return walk.callback?.result.kind === 'code' ? walk.callback.result.code : undefined;
}

export const ExchangeOptions = z.object({
	transport: z.enum(['query', 'form', 'basic', 'bearer']).default('query'),
	tamper: z.enum(['again', 'redirect_uri', 'grant_type', 'secret', 'drop', 'other_client']).optional(),
	drop: z.enum(TOKEN_PARAMETERS).optional()
});
export type ExchangeOptions = z.infer<typeof ExchangeOptions>;

const TAMPER_LABELS: Record<NonNullable<ExchangeOptions['tamper']>, string> = {
	again: 'tamper: send the same exchange again',
	redirect_uri: 'tamper: redirect_uri with an extra parameter',
	grant_type: 'tamper: grant_type=password',
	secret: 'tamper: wrong client secret',
	drop: 'tamper: drop a parameter',
	other_client: 'tamper: code issued to another client'
};

/**
 * Step 3: `POST /oauth/token`, exactly as the interface describes unless the user asked to tamper.
 * Annotations are made from the masked exchange: they quote bodies, and they go to the browser.
 */
export async function exchangeCode(walk: Walk, options: ExchangeOptions, config: ExplorerConfig, now: () => Date) {
	const redirectUri = walk.linkRedirectUri ?? walk.client.redirectUri;
	const code = issuedCode(walk);
	const secret = secretFor(walk.secret, walk.target.accountsUrl);
	const request = buildTokenRequest({
		accountsUrl: walk.target.accountsUrl,
		code,
		redirectUri,
		// The link's client, to whom the code was issued, unless the tamper sends the walk's (changed) client.
		clientId: options.tamper === 'other_client' ? walk.client.clientId : (walk.linkClientId ?? walk.client.clientId),
		...(secret === undefined ? {} : { clientSecret: secret }),
		transport: options.transport,
		omit: options.tamper === 'drop' && options.drop ? [options.drop] : [],
		tamper: { redirectUriExtra: options.tamper === 'redirect_uri', wrongSecret: options.tamper === 'secret', ...(options.tamper === 'grant_type' ? { grantType: 'password' } : {}) }
	});
	const label = `${options.tamper ? TAMPER_LABELS[options.tamper] : 'exchange the code'} (${options.transport})`;
	const exchange = await sendTimed(walk, request, { config, step: 'token', label, holds: held(walk) }, now);
	const tokens = issuedTokens(exchange);
	if (tokens) {
		walk.accessToken = tokens.access_token;
		walk.refreshToken = tokens.refresh_token;
		walk.codeExchanged = true;
	}
	record(walk, exchange, tokens);
}

/** `send`, its exchange stamped with the sandbox's lead at the time it was sent (see readClock). */
async function sendTimed(walk: Walk, request: Parameters<typeof send>[0], options: Parameters<typeof send>[1], now: () => Date) {
	const { sandboxOffsetMs } = readClock(walk, now);
	const exchange = await send(request, options);
	return sandboxOffsetMs === undefined ? exchange : { ...exchange, sandboxOffsetMs };
}

/**
 * The walk as the flow engine reads it, `exchanges` its exchanges (or some of them). What only the walk saw goes
 * in as evidence: that its code was exchanged in an earlier run (before a new secret), whose exchanges are not in it.
 */
export function walkRecord<E extends Frozen<RecordedExchange>>(walk: Walk, exchanges: readonly E[]): Omit<FlowRecord, 'exchanges'> & { exchanges: E[] } {
	return {
		target: { ...walk.target },
		sandboxClock: null,
		link: walk.link,
		callback: walk.callback && { url: walk.callback.url, receivedAt: walk.callback.receivedAt, ...offsetOf(walk.callback) },
		exchanges: [...exchanges],
		...(walk.codeExchangedBeforeRun ? { codeExchangedBefore: true } : {})
	};
}

const offsetOf = ({ sandboxOffsetMs }: { sandboxOffsetMs?: number }) => (sandboxOffsetMs === undefined ? {} : { sandboxOffsetMs });

/**
 * Adds an exchange to the walk, annotated by the flow engine as its saved run will be (annotateLastExchange over the walk's
 * record, as diagnoseFlow does). It is made from the masked exchanges, as the page shows them: it quotes bodies, and goes to the browser.
 */
function record(walk: Walk, exchange: RecordedExchange, tokens: IssuedTokens | null) {
	const secrets = secretsOf(walk, exchange);
	const key = secretsKey(secrets);
	const masked = maskExchange(exchange, secrets);
	const earlier = walk.exchanges.map((e) => shownEntry(e, secrets, key).exchange);
	// The annotations only: the cross-request findings are the view's and the run page's to make.
	const annotation = annotateLastExchange(walkRecord(walk, [...earlier, masked]))!;
	// Shown as masked here: once the walk holds the exchange, its secrets are these, and the view needs no second mask.
	walk.exchanges.push({ exchange, annotation, tokens, shown: { secrets: key, entry: shownOf(masked, annotation, secrets) } });
}

export const MeOptions = z.object({
	transport: z.enum(['header', 'query']).default('header'),
	userAgent: z.boolean().default(true),
	host: z.boolean().default(true),
	credential: z.enum(['token', 'code', 'none']).default('token')
});
export type MeOptions = z.infer<typeof MeOptions>;

/** Step 4: `GET /api/v3/me.json`, with the toggles that produce each 7.3 row. */
export async function readMe(walk: Walk, options: MeOptions, config: ExplorerConfig, now: () => Date): Promise<WalkResult> {
	const credential =
		options.credential === 'token' ? walk.accessToken : options.credential === 'code' ? (issuedCode(walk) ?? null) : null;
	if (options.credential === 'token' && !credential) return { ok: false, message: 'No access token yet: exchange the code first (step 3).' };
	if (options.credential === 'code' && !credential) return { ok: false, message: 'No grant code in this walk: authorise first (step 2).' };
	const request = buildMeRequest({
		accountsUrl: walk.target.accountsUrl,
		token: credential ?? undefined,
		transport: options.transport,
		userAgent: options.userAgent,
		host: options.host
	});
	const what = options.credential === 'token' ? 'access token' : options.credential === 'code' ? 'grant code instead of a token' : 'no token';
	const label = `read me.json (${what}, ${options.transport}${options.userAgent ? '' : ', no User-Agent'}${options.host ? '' : ', no Host'})`;
	const exchange = await sendTimed(walk, request, { config, step: 'me', label, holds: held(walk) }, now);
	record(walk, exchange, null);
	return { ok: true };
}

/** The raw token of an exchange, for an explicit "reveal" by the user. Never the client secret. */
export function revealToken(walk: Walk, exchangeId: string, kind: 'access_token' | 'refresh_token'): string | null {
	const entry = walk.exchanges.find((e) => e.exchange.id === exchangeId);
	if (!entry) return null;
	if (entry.tokens) return entry.tokens[kind];
	return kind === 'access_token' && entry.exchange.step === 'me' ? walk.accessToken : null;
}

/** Everything to mask: the secret and every token this walk has obtained, `pending` included. */
export function secretsOf(walk: Walk, pending?: RecordedExchange) {
	// Only a token exchange issues tokens; reading another response against the token schema costs a failed parse.
	const pendingTokens = pending?.step === 'token' ? issuedTokens(pending) : null;
	const tokens = [...walk.exchanges.map((e) => e.tokens), pendingTokens].filter((t) => t !== null);
	return {
		clientSecret: secretValue(walk),
		accessTokens: [...tokens.map((t) => t.access_token), ...(walk.accessToken ? [walk.accessToken] : [])],
		refreshTokens: tokens.map((t) => t.refresh_token).filter((t) => t !== null)
	};
}

export type WalkSecrets = ReturnType<typeof secretsOf>;

/** The walk's secrets as one value: an entry shown with the same one needs no masking again. */
export const secretsKey = (secrets: WalkSecrets) => JSON.stringify([secrets.clientSecret ?? null, secrets.accessTokens, secrets.refreshTokens]);

/**
 * What the browser is shown of an exchange: masked with the walk's secrets as they are now (`key`, their
 * secretsKey), with its curl command; kept on the entry until the secrets change.
 */
export function shownEntry(entry: WalkEntry, secrets: WalkSecrets, key = secretsKey(secrets)): ExchangeEntry {
	if (entry.shown?.secrets !== key) entry.shown = { secrets: key, entry: shownOf(maskExchange(entry.exchange, secrets), entry.annotation, secrets) };
	return entry.shown.entry;
}

/** An exchange as the browser is shown it (masked with `secrets`), with its curl command. */
function shownOf(masked: RecordedExchange, annotation: Annotation, secrets: WalkSecrets): ExchangeEntry {
	const curl = toCurl(masked.request, { value: secrets.clientSecret });
	return { exchange: masked, annotation, curl: isUsedUp(masked) ? `${USED_CODE_NOTE}\n${curl}` : curl };
}

/** A token exchange that succeeded: its code is spent, so a copy of its curl answers invalid_grant. */
const isUsedUp = (exchange: RecordedExchange) => exchange.step === 'token' && exchange.response?.status === 200;
const USED_CODE_NOTE =
	'# This exchange used its grant code, and a code is single use: run again, this answers 400 invalid_grant. Get a fresh code (step 2) and put it in code=, or use the run\'s shell export, which does.';
