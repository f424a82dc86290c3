/**
 * `npm run app-check` options, as data: the app's sign-in start, how to start the sign-in there, where the sandbox
 * is and which workspace holds the app's client, which checks, and where to write JUnit XML and Markdown. Errors
 * as data: what was wrong and what to write instead.
 */
import { readArgs } from '../scenarios';
import { APP_CHECKS, type AppCheck } from './pure/checks';
import { toolCommand } from '../../tool-command';

export interface AppCheckOptions {
	startUrl: string;
	/** A CSS selector on the start page to click to start the sign-in; none: the start URL itself leads there. */
	click: string | null;
	junit: string | null;
	report: string | null;
	/** The sandbox's hosts (the app's client is registered there). */
	authUrl: string;
	accountsUrl: string;
	/** The key of the workspace the app's client is in; none: the default workspace (administered: loopback or the admin token). */
	workspaceKey: string | null;
	/** The app's client secret (APP_CLIENT_SECRET), never needed to run: given, the reports hide it in every form the app prints it in. */
	clientSecret: string | null;
	checks: AppCheck[];
}

export type AppCheckParse = { ok: true; options: AppCheckOptions } | { ok: false; message: string } | { ok: 'help' };

/** The usage text, naming the command as it was run (`toolCommand`). */
export const appCheckUsage = (env: Record<string, string | undefined>) => `Usage: ${toolCommand('app-check', env)} --start-url URL [options]

Drives your app in Chromium (CHROMIUM_PATH, else chromium, chromium-browser or google-chrome on the PATH, else
Playwright's own) from its sign-in start through the sandbox's pages, once per outcome, and judges what your
app's server did and what the user got. Exits 1 when a check fails or cannot run,
2 on bad options or when Chromium is missing.

  --start-url URL        where a user starts signing in to your app (e.g. http://localhost:4000/login)
  --click SELECTOR       a CSS selector to click on that page to start the sign-in (when the page does not redirect)
  --junit FILE           also write JUnit XML (for CI)
  --report FILE          also write a Markdown report with the evidence
  --only ID,ID           run only these checks
  --workspace-key KEY    the sandbox workspace your client is in (or set SANDBOX_WORKSPACE_KEY, which stays off the process list)
  --auth-url URL         the sandbox's authorisation host (default http://localhost:$AUTH_PORT, 3001)
  --accounts-url URL     the sandbox's accounts host (default http://localhost:$ACCOUNTS_PORT, 3002)
  --help                 this text

Without a workspace key the client is in the sandbox's default workspace, which this machine administers (or set
SANDBOX_ADMIN_TOKEN). Set APP_CLIENT_SECRET to your client's secret and the reports hide it in every form your app
may print it in (the check never sends it anywhere). The app's origin must be allowed as the explorer's custom targets are (an app on this
machine is, when the explorer is bound to loopback; otherwise EXPLORER_ALLOWED_HOSTS).

Checks: ${APP_CHECKS.map((c) => c.id).join(', ')}`;

/**
 * What is wrong with `value` as a URL the app check is given (the CLI's options, the live page's start URL), or
 * null: it must be http(s), with no user name or password in it (those would reach every report).
 */
export function httpUrlProblem(value: string): string | null {
	const url = URL.canParse(value) ? new URL(value) : null;
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `must be an http(s) URL such as http://localhost:4000/login, got "${value}".`;
	if (url.username || url.password) return 'must not carry a user name or password.';
	return null;
}

function httpUrl(name: string, value: string): { url: string } | { message: string } {
	const problem = httpUrlProblem(value);
	return problem ? { message: `--${name} ${problem}` } : { url: new URL(value).href };
}

function selectChecks(only: string | undefined): AppCheck[] | { message: string } {
	if (only === undefined) return [...APP_CHECKS];
	const ids = only.split(',').map((id) => id.trim()).filter((id) => id !== '');
	const unknown = ids.filter((id) => !APP_CHECKS.some((c) => c.id === id));
	const known = APP_CHECKS.map((c) => c.id).join(', ');
	if (unknown.length > 0) return { message: `No check ${unknown.map((id) => `"${id}"`).join(', ')}. Checks: ${known}.` };
	if (ids.length === 0) return { message: `--only needs at least one check id. Checks: ${known}.` };
	return APP_CHECKS.filter((c) => ids.includes(c.id));
}

export function parseAppCheckArgs(argv: string[], env: Record<string, string | undefined>): AppCheckParse {
	const args = readArgs(
		argv,
		{
			'start-url': { type: 'string' },
			click: { type: 'string' },
			junit: { type: 'string' },
			report: { type: 'string' },
			only: { type: 'string' },
			'workspace-key': { type: 'string' },
			'auth-url': { type: 'string' },
			'accounts-url': { type: 'string' },
			help: { type: 'boolean' }
		},
		appCheckUsage(env)
	);
	if (args.ok !== true) return args;
	const { str } = args;
	const start = str('start-url');
	if (start === undefined) return { ok: false, message: `--start-url is required: where a user starts signing in to your app.\n\n${appCheckUsage(env)}` };
	const startUrl = httpUrl('start-url', start);
	if ('message' in startUrl) return { ok: false, message: startUrl.message };

	const port = (name: string, fallback: number) => (/^\d+$/.test(env[name] ?? '') ? Number(env[name]) : fallback);
	const authUrl = httpUrl('auth-url', str('auth-url') ?? `http://localhost:${port('AUTH_PORT', 3001)}`);
	if ('message' in authUrl) return { ok: false, message: authUrl.message };
	const accountsUrl = httpUrl('accounts-url', str('accounts-url') ?? `http://localhost:${port('ACCOUNTS_PORT', 3002)}`);
	if ('message' in accountsUrl) return { ok: false, message: accountsUrl.message };

	const checks = selectChecks(str('only'));
	if ('message' in checks) return { ok: false, message: checks.message };
	return {
		ok: true,
		options: {
			startUrl: startUrl.url,
			click: str('click') ?? null,
			junit: str('junit') ?? null,
			report: str('report') ?? null,
			authUrl: new URL(authUrl.url).origin,
			accountsUrl: new URL(accountsUrl.url).origin,
			workspaceKey: str('workspace-key') ?? (env['SANDBOX_WORKSPACE_KEY']?.trim() || null),
			clientSecret: env['APP_CLIENT_SECRET']?.trim() || null,
			checks
		}
	};
}
