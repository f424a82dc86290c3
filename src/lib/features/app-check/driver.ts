/**
 * The app check's driver: for each check, a fresh Chromium context opens the app's sign-in start, follows it to
 * the sandbox's sign-in page (the link's `client_id` names the app's client), sets the check's one-shot outcome
 * rule for that client, signs in with a user who holds an active verification, presses Authorise or Cancel, and
 * watches what the user gets from the app after the sandbox's redirect. Then it reads the sandbox's request log
 * for what the app's server did, and the pure judge (scenarios/app-check/judge.ts) decides.
 *
 * The browser reaches the network only through the check's proxy (proxy.ts), which lets it connect to the sandbox's
 * origins and origins the app check allows (origins.ts) only, redirects, WebSockets and every host name included;
 * any other connection is refused and named in the evidence. What is kept of a page is redacted before it leaves this module.
 */
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AppCheck } from '$lib/features/app-check/pure/checks';
import { excerpt, findStackTrace, fingerprint, htmlToText, pageTemplate, redact, type AppCheckEvidence, type PageHop, type UserEvidence } from '$lib/features/app-check/pure/evidence';
import { judgeAppCheck, judgeRefusedLink, notRun, type AppCheckResult, type Fingerprints } from '$lib/features/app-check/pure/judge';
import type { AppCheckRunInfo } from '$lib/features/app-check/pure/report';
import { browserExchanges, diagnoseCheck, type CheckDiagnosis, type CheckScope, type LinkFinding } from '$lib/features/app-check/pure/engine';
import type { ExplorerConfig } from '../../platform/config';
import { launchChromium } from './browser';
import { checkAppUrl, originAliases, originGuard, type OriginCheck } from './origins';
import { isBrowserOwnRequest } from '$lib/flow/browser/noise';
import { isSignInLink, seenAfterRedirect, Watcher } from './watcher';
import { within } from './within';
import { startGuardingProxy } from './proxy';
import { checkUser, logMark, outcomeUsed, readLog, withOutcome, workspaceState, type CheckUser, type SandboxAccess, type WorkspaceState } from './sandbox-control';

export interface AppCheckRunOptions {
	startUrl: string;
	/** A selector to click on the start page to start the sign-in. */
	click: string | null;
	authUrl: string;
	accountsUrl: string;
	workspaceKey: string | null;
	adminToken: string | null;
	/** More values every output must hide (the live page's client secret). */
	secrets?: readonly string[];
	checks: readonly AppCheck[];
	/** The allowlist and private-address rules (the explorer's configuration). */
	config: ExplorerConfig;
	/** What `checkAppUrl` said of the start URL, when the caller already asked (not asked twice: one DNS answer). */
	startCheck?: OriginCheck;
	/** The client the app must sign in with (the live page's); null: the one its link names. */
	expectedClientId?: string | null;
	/** Told of each check's result as soon as it is judged. */
	onResult?: (result: AppCheckResult) => void;
	/** How long each step (a page to load, the sandbox to be reached) may take. */
	stepTimeoutMs?: number;
	/** Stops the run when it aborts (the live page's request went away): its browser closes, the checks left are not run. */
	signal?: AbortSignal;
	/** The whole run's time limit: APP_CHECK_TIME_LIMIT_MS. */
	timeLimitMs?: number;
}

export interface AppCheckOutcome {
	results: AppCheckResult[];
	info: AppCheckRunInfo;
	/** Values every output must hide (the workspace key, the admin token, `secrets`): the reporters' last guard. */
	known: string[];
}

/** The start URL is not one the app check may drive: the message says which rule refused it. */
export class AppCheckRefusedError extends Error {}

const DEFAULT_STEP_TIMEOUT_MS = 15_000;
/**
 * The longest a whole run may take, whatever the app does (a start URL that accepts the connection and never
 * answers costs each check its step timeout; an app that answers each step just in time, far more): then it
 * stops, and the checks left are not run. A run of every check takes under a minute on an idle machine and about
 * two on a loaded one; the live page's slot frees by the limit at the latest.
 */
export const APP_CHECK_TIME_LIMIT_MS = 240_000;
/** How long the app's pages may keep loading after the redirect before the check reads what the user got. */
const SETTLE_MS = 5_000;

interface RunContext {
	options: AppCheckRunOptions;
	access: SandboxAccess;
	state: WorkspaceState;
	users: Map<string, CheckUser>;
	/** The proxy's URL, every context's way out. */
	proxyUrl: string;
	/** The origins the proxy refused during the current check, each with why. */
	blocked: string[];
	known: string[];
	timeout: number;
	/** The sandbox's sign-in host, under each name it answers to. */
	authOrigins: readonly string[];
	/** The sandbox's two hosts, under each name they answer to. */
	serviceOrigins: readonly string[];
	/** Aborts when the run must stop: its time limit, or its caller gone. */
	stop: AbortSignal;
	/** Why the run stopped, for the checks it could not finish. */
	stopped: () => string;
	/** Origins the browser could not connect to, with why (the app not started). */
	unreachable: Map<string, string>;
	/** Set when the start URL itself could not be reached: every check after that is not run, with this reason. */
	appDown: string | null;
}

export async function runAppCheck(options: AppCheckRunOptions, browser?: Browser): Promise<AppCheckOutcome> {
	const started = Date.now();
	const limitMs = options.timeLimitMs ?? APP_CHECK_TIME_LIMIT_MS;
	const timeUp = AbortSignal.timeout(limitMs);
	const stop = options.signal ? AbortSignal.any([options.signal, timeUp]) : timeUp;
	const stopped = () =>
		timeUp.aborted ? `The app check stopped at its time limit (${limitMs / 1000} s) before this check could finish.` : 'The app check was stopped: the page or program that started it went away.';
	const known = [options.workspaceKey, options.adminToken, ...(options.secrets ?? [])].filter((v): v is string => typeof v === 'string' && v !== '');
	// The sandbox this run signs in with (the CLI's --auth-url) is the one no start URL or page may reach as the app's.
	const config: ExplorerConfig = { ...options.config, sandbox: { authUrl: options.authUrl, accountsUrl: options.accountsUrl } };
	const allowed = options.startCheck ?? (await checkAppUrl(options.startUrl, config));
	if (!allowed.ok) throw new AppCheckRefusedError(allowed.message);
	const access: SandboxAccess = { accountsUrl: options.accountsUrl, workspaceKey: options.workspaceKey, adminToken: options.adminToken };
	const state = await workspaceState(access);
	const authOrigins = originAliases(new URL(options.authUrl).origin);
	const serviceOrigins = [...authOrigins, ...originAliases(new URL(options.accountsUrl).origin)];
	const guard = originGuard(config, serviceOrigins, undefined, { [new URL(options.startUrl).origin]: allowed });
	const proxy = await startGuardingProxy(
		guard,
		(origin, message) => {
			// The browser's own calls (autofill, optimisation hints) are refused too, but are no request of the app's.
			if (!isBrowserOwnRequest(origin) && !ctx.blocked.some((b) => b.startsWith(`${origin}:`))) ctx.blocked.push(`${origin}: ${message}`);
		},
		(origin, why) => ctx.unreachable.set(origin, why)
	);
	const ctx: RunContext = {
		options,
		access,
		state,
		users: new Map(),
		proxyUrl: proxy.url,
		blocked: [],
		known,
		timeout: options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
		authOrigins,
		serviceOrigins,
		stop,
		stopped,
		unreachable: new Map(),
		appDown: null
	};
	const ownBrowser = browser ? null : await launchChromium().catch(async (error: unknown) => {
		await proxy.close();
		throw error;
	});
	const results: AppCheckResult[] = [];
	const fingerprints: Fingerprints = {};
	try {
		for (const check of options.checks) {
			const result = stop.aborted ? notRun(check, stopped()) : ctx.appDown ? notRun(check, ctx.appDown) : await runOne(check, ctx, (browser ?? ownBrowser)!, fingerprints);
			results.push(result);
			options.onResult?.(result);
		}
	} finally {
		await ownBrowser?.close();
		await proxy.close();
	}
	return {
		results,
		info: {
			startUrl: redact(options.startUrl, known),
			clientId: results.find((r) => r.clientId)?.clientId ?? null,
			startedAt: new Date(started).toISOString(),
			durationMs: Date.now() - started
		},
		known
	};
}

async function runOne(check: AppCheck, ctx: RunContext, browser: Browser, fingerprints: Fingerprints): Promise<AppCheckResult> {
	// Every connection through the guarding proxy (loopback too: Playwright proxies it); no service worker, whose
	// fetches would answer the page from a cache the check never saw.
	const context = await browser.newContext({ proxy: { server: ctx.proxyUrl }, serviceWorkers: 'block' });
	// When the run stops, whatever the page waits for (a page that never answers) is abandoned and the context
	// closed; not awaited, since a Playwright call pending on a context closed under it may never settle.
	let abandon = () => {};
	const stopped = new Promise<never>((_resolve, reject) => (abandon = () => reject(ctx.stop.reason)));
	ctx.stop.addEventListener('abort', abandon, { once: true });
	ctx.blocked = [];
	try {
		return await Promise.race([drive(check, ctx, context, fingerprints), stopped]);
	} catch (error) {
		if (ctx.stop.aborted) return notRun(check, ctx.stopped());
		return notRun(check, redact(`The check stopped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, ctx.known));
	} finally {
		ctx.stop.removeEventListener('abort', abandon);
		await context.close().catch(() => {});
	}
}

async function drive(check: AppCheck, ctx: RunContext, context: BrowserContext, fingerprints: Fingerprints): Promise<AppCheckResult> {
	const { options, access, authOrigins, timeout } = ctx;
	const blocked = ctx.blocked;
	const page = await context.newPage();
	page.setDefaultTimeout(timeout);
	const watcher = new Watcher(page, authOrigins);
	const mark = await logMark(access);

	ctx.unreachable.clear();
	await page.goto(options.startUrl);
	const down = ctx.unreachable.get(new URL(options.startUrl).origin);
	if (down) {
		ctx.appDown = redact(`The app at ${options.startUrl} could not be reached (${down}). Start it, then run the check again.`, ctx.known);
		return notRun(check, ctx.appDown);
	}
	if (options.click) await page.click(options.click);
	const reached = await within(watcher.linkSeen, timeout, ctx.stop);
	if (!reached || watcher.link === null) {
		const where = blocked.length > 0 ? ` Refused: ${blocked.join('; ')}` : '';
		return notRun(check, redact(`The start URL did not lead to the sandbox's sign-in link (${authOrigins[0]}/sso/…) within ${timeout / 1000} s; the browser is at ${page.url()}.${where}`, ctx.known));
	}
	const link = new URL(watcher.link);
	const clientId = link.searchParams.get('client_id');
	const supergroup = decodeURIComponent(link.pathname.split('/')[2] ?? '');
	if (!clientId) return notRun(check, 'The app\'s link to the sandbox has no client_id.');
	if (options.expectedClientId && clientId !== options.expectedClientId) {
		return notRun(check, `The app signs in with the client \`${clientId}\`, not \`${options.expectedClientId}\`.`, clientId);
	}
	if (!ctx.state.clients.includes(clientId)) {
		return notRun(check, `The client \`${clientId}\` is not in the sandbox workspace the check can read: give the key of the workspace it is in (--workspace-key or SANDBOX_WORKSPACE_KEY).`, clientId);
	}
	const judged = await withOutcome(access, clientId, check.rule, () => signInAndJudge(check, ctx, page, watcher, blocked, { clientId, supergroup, mark }, fingerprints));
	return typeof judged === 'string' ? notRun(check, redact(judged, ctx.known), clientId) : judged;
}

/** With the check's outcome rule set: sign in, decide, watch what the user gets, read the log, judge. */
async function signInAndJudge(
	check: AppCheck,
	ctx: RunContext,
	page: Page,
	watcher: Watcher,
	blocked: string[],
	app: { clientId: string; supergroup: string; mark: number },
	fingerprints: Fingerprints
): Promise<AppCheckResult> {
	const { access, authOrigins, timeout } = ctx;
	const { clientId, supergroup, mark } = app;
	let user = ctx.users.get(supergroup);
	if (!user) {
		user = await checkUser(access, ctx.state, supergroup);
		ctx.users.set(supergroup, user);
	}
	const signInProblem = await signInAndDecide(page, user, check.action === 'cancel' ? 'cancel' : 'authorise', () => watcher.decide());
	const scope: CheckScope = { clientId, afterId: mark, check, clientSecrets: ctx.options.secrets ?? [] };
	if (signInProblem) {
		const { link } = diagnoseCheck(await readLog(access), scope);
		const refused = link.map((f) => redactFinding(f, ctx.known));
		return judgeRefusedLink(check, redact(signInProblem, ctx.known), refused, clientId);
	}

	const arrived = await within(watcher.callbackSeen, timeout, ctx.stop);
	if (arrived) await settle(page);
	if (arrived && check.action === 'authorise-then-reload-callback' && watcher.callback) {
		await page.goto(watcher.callback).catch(() => null);
		await settle(page);
	}

	const engine = diagnoseCheck(await readLog(access), scope, browserExchanges(await seenAfterRedirect(watcher), ctx.serviceOrigins));
	const { server: diagnosis, calls, tokenHanded } = engine;
	const seen = arrived
		? await userEvidence(page, watcher, { blocked, authOrigins, known: ctx.known, meShown: calls.meShown, tokenHanded })
		: emptyUser(blocked, ctx.known);
	const server = {
		...calls,
		diagnosis: diagnosis && { ...diagnosis, what: redact(diagnosis.what, ctx.known), cause: redact(diagnosis.cause, ctx.known), fix: redact(diagnosis.fix, ctx.known) },
		link: engine.link.map((f) => redactFinding(f, ctx.known)),
		page: engine.page.map((f) => redactFinding(f, ctx.known)),
		loopFix: engine.loopFix
	};
	const rule = check.rule ? { outcome: check.rule, used: await outcomeUsed(access, clientId, check.rule) } : null;
	const evidence: AppCheckEvidence = { user: seen, server, rule };
	const result = judgeAppCheck(check, evidence, clientId, fingerprints);
	fingerprints[check.id] = { page: seen.fingerprint, template: seen.template };
	return result;
}

const redactFinding = (f: LinkFinding, known: string[]): LinkFinding => ({ ...f, message: redact(f.message, known), fix: redact(f.fix, known) });

/** Waits until the app's pages stop loading (redirects, scripts), at most SETTLE_MS. */
async function settle(page: Page): Promise<void> {
	await page.waitForLoadState('load', { timeout: SETTLE_MS }).catch(() => {});
	await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => {});
}

function emptyUser(blocked: string[], known: string[]): UserEvidence {
	return { callbackUrl: null, hops: [], final: null, backToSignIn: false, stackTrace: [], blocked: blocked.map((b) => redact(b, known)), fingerprint: '', template: '' };
}

/** What the check knows besides the page: what was refused, the sandbox's hosts, what to hide, what me.json told of the user. */
interface Seen {
	blocked: string[];
	authOrigins: readonly string[];
	known: string[];
	meShown: readonly string[];
	/** The engine's finding of a token handed to the browser (`diagnoseCheck`), from the same answers. */
	tokenHanded: CheckDiagnosis['tokenHanded'];
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

async function userEvidence(page: Page, watcher: Watcher, { blocked, authOrigins, known, meShown, tokenHanded }: Seen): Promise<UserEvidence> {
	const appOrigin = watcher.callback ? new URL(watcher.callback).origin : null;
	const where = (url: string): PageHop['where'] => {
		const origin = URL.canParse(url) ? new URL(url).origin : '';
		return authOrigins.includes(origin) ? 'sandbox' : origin === appOrigin ? 'app' : 'other';
	};
	const hops: PageHop[] = watcher.hops.map((hop) => ({ url: redact(hop.url, known), status: hop.status, where: where(hop.url) }));
	const last = watcher.hops.at(-1);
	const text = await page.locator('body').innerText({ timeout: 2_000 }).catch(() => '');
	const bodies = await Promise.all(watcher.hops.filter((hop) => where(hop.url) !== 'sandbox').map((hop) => hop.body));
	const stackTrace = [...new Set([...bodies.flatMap((body) => findStackTrace(htmlToText(body))), ...findStackTrace(text)])].slice(0, 5);
	// Sent back to the sign-in link: a page load of the sandbox's /sso/ after its redirect to the app.
	const backToSignIn = watcher.hops.some((hop) => isSignInLink(hop.url, authOrigins));
	const onApp = where(page.url()) !== 'sandbox';
	return {
		callbackUrl: watcher.callback ? redact(watcher.callback, known) : null,
		hops,
		final: {
			url: redact(page.url(), known),
			status: last?.status ?? null,
			title: redact(await page.title().catch(() => ''), known),
			excerpt: redact(excerpt(text), known)
		},
		backToSignIn,
		stackTrace: stackTrace.map((line) => redact(line, known)),
		blocked: blocked.map((b) => redact(b, known)),
		tokenHanded: tokenHanded && { ...tokenHanded, url: redact(tokenHanded.url, known) },
		// A digest: the judge only compares pages, and the page's own text (unredacted) never leaves this module.
		fingerprint: onApp ? digest(fingerprint(text)) : '',
		template: onApp ? digest(pageTemplate(text, meShown)) : ''
	};
}

/**
 * On the sandbox's pages: sign in, submit the simulated proof when asked, then Authorise or Cancel (`onDecide` just
 * before). A message when the sandbox shows anything else (a 7.1 error: the app's link is wrong).
 */
async function signInAndDecide(page: Page, user: CheckUser, decision: 'authorise' | 'cancel', onDecide: () => void): Promise<string | null> {
	for (let step = 0; step < 4; step++) {
		await page.waitForLoadState('domcontentloaded');
		const kind = await page.locator('main[data-page]').getAttribute('data-page').catch(() => null);
		if (kind === 'login') {
			await page.getByLabel('Email').fill(user.login);
			await page.getByLabel('Password').fill(user.password);
			await page.getByRole('button', { name: 'Sign in' }).click();
		} else if (kind === 'verify') {
			await page.getByRole('button', { name: 'Submit proof' }).click();
		} else if (kind === 'consent') {
			onDecide();
			await page.getByRole('button', { name: decision === 'authorise' ? 'Authorise' : 'Cancel', exact: true }).click();
			return null;
		} else {
			const shown = excerpt(await page.locator('main').innerText({ timeout: 2_000 }).catch(() => ''), 200);
			return `The sandbox's sign-in page showed ${kind ? `"${kind}"` : 'no page it knows'} instead of the sign-in: ${shown || page.url()}`;
		}
		await page.waitForLoadState('domcontentloaded');
	}
	return 'The sandbox\'s sign-in did not reach its consent page.';
}
