/**
 * `npm run scenarios` (or `sso-flow-explorer scenarios`) options: with none, an in-process sandbox is the target; with `--auth-url` and
 * `--accounts-url`, a running sandbox (`--control`) or a custom deployment, whose client is given on the command
 * line. Errors as data: what was wrong and what to write instead.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SCENARIOS, type Scenario } from './pure/library';
import { toolCommand } from '../../tool-command';

export type CliTarget =
	| { kind: 'in-process' }
	| { kind: 'remote'; authUrl: string; accountsUrl: string; control: boolean };

export interface CliOptions {
	target: CliTarget;
	client?: { clientId: string; clientSecret: string; redirectUri: string };
	code?: string;
	token?: string;
	scenarios: Scenario[];
}

export type CliParse = { ok: true; options: CliOptions } | { ok: false; message: string } | { ok: 'help' };

/** The usage text, naming the command as it was run (`toolCommand`). */
export const scenariosUsage = (env: Record<string, string | undefined>) => `Usage: ${toolCommand('scenarios', env)} [options]

With no options, starts its own sandbox and runs every scenario against it.

  --auth-url URL         the authorisation host of another target (with --accounts-url)
  --accounts-url URL     the accounts host of that target
  --control              the target has the sandbox control API (a running sandbox; set SANDBOX_ADMIN_TOKEN if it needs one)
  --client-id ID         without --control: the target's registered client
  --client-secret SECRET without --control: its secret (or set CLIENT_SECRET instead, which stays off the process list)
  --redirect-uri URI     without --control: its registered redirect URI
  --code CODE            a grant code from a browser, for one scenario that needs one (use with --only)
  --token TOKEN          an access token, for the scenarios that need one
  --only ID,ID           run only these scenarios
  --help                 this text

Scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`;

function httpUrl(name: string, value: string): string | { message: string } {
	const url = URL.canParse(value) ? new URL(value) : null;
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		return { message: `--${name} must be an http(s) URL such as https://accounts.example.com, got "${value}".` };
	}
	return value.replace(/\/+$/, '');
}

export type ReadArgs = { ok: true; str: (name: string) => string | undefined; flag: (name: string) => boolean } | { ok: false; message: string } | { ok: 'help' };

/**
 * The options of a command line (strict, no positionals; `options` names `help`): each string trimmed, an empty one
 * as if not given; or what was wrong, followed by `usage`.
 */
export function readArgs(argv: string[], options: NonNullable<ParseArgsConfig['options']>, usage: string): ReadArgs {
	let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
	try {
		values = parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
	} catch (error) {
		return { ok: false, message: `${(error as Error).message}\n\n${usage}` };
	}
	if (values['help']) return { ok: 'help' };
	return {
		ok: true,
		str: (name) => {
			const value = values[name];
			return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
		},
		flag: (name) => values[name] === true
	};
}

export function parseScenarioArgs(argv: string[], env: Record<string, string | undefined>): CliParse {
	const args = readArgs(
		argv,
		{
			'auth-url': { type: 'string' },
			'accounts-url': { type: 'string' },
			control: { type: 'boolean' },
			'client-id': { type: 'string' },
			'client-secret': { type: 'string' },
			'redirect-uri': { type: 'string' },
			code: { type: 'string' },
			token: { type: 'string' },
			only: { type: 'string' },
			help: { type: 'boolean' }
		},
		scenariosUsage(env)
	);
	if (args.ok !== true) return args;
	const { str } = args;

	const scenarios = selectScenarios(str('only'));
	if ('message' in scenarios) return { ok: false, message: scenarios.message };

	const authUrl = str('auth-url');
	const accountsUrl = str('accounts-url');
	const clientOptions = ['client-id', 'client-secret', 'redirect-uri', 'code', 'token'].filter((n) => str(n) !== undefined);
	if (authUrl === undefined && accountsUrl === undefined) {
		if (args.flag('control') || clientOptions.length > 0) {
			const given = [...(args.flag('control') ? ['control'] : []), ...clientOptions].map((n) => `--${n}`).join(', ');
			return { ok: false, message: `${given} only apply to another target: add --auth-url and --accounts-url, or leave them out to use the built-in sandbox.` };
		}
		return { ok: true, options: { target: { kind: 'in-process' }, scenarios } };
	}
	if (authUrl === undefined || accountsUrl === undefined) {
		return { ok: false, message: 'Give both --auth-url and --accounts-url (the service has two hosts), or neither.' };
	}
	const auth = httpUrl('auth-url', authUrl);
	const accounts = httpUrl('accounts-url', accountsUrl);
	if (typeof auth !== 'string') return { ok: false, message: auth.message };
	if (typeof accounts !== 'string') return { ok: false, message: accounts.message };

	const control = args.flag('control') === true;
	const target: CliTarget = { kind: 'remote', authUrl: auth, accountsUrl: accounts, control };
	const supplied = { ...(str('code') ? { code: str('code')! } : {}), ...(str('token') ? { token: str('token')! } : {}) };
	if (control) return { ok: true, options: { target, scenarios, ...supplied } };

	const clientId = str('client-id');
	const clientSecret = str('client-secret') ?? (env['CLIENT_SECRET']?.trim() || undefined);
	const redirectUri = str('redirect-uri');
	const missing = [
		...(clientId ? [] : ['--client-id']),
		...(clientSecret ? [] : ['--client-secret (or CLIENT_SECRET)']),
		...(redirectUri ? [] : ['--redirect-uri'])
	];
	if (missing.length > 0) {
		return {
			ok: false,
			message: `A target without the control API needs its registered client: missing ${missing.join(', ')}. (A running sandbox has the control API: add --control.)`
		};
	}
	const redirect = httpUrl('redirect-uri', redirectUri!);
	if (typeof redirect !== 'string') return { ok: false, message: redirect.message };
	return { ok: true, options: { target, client: { clientId: clientId!, clientSecret: clientSecret!, redirectUri: redirectUri! }, scenarios, ...supplied } };
}

function selectScenarios(only: string | undefined): Scenario[] | { message: string } {
	if (only === undefined) return [...SCENARIOS];
	const ids = only.split(',').map((id) => id.trim()).filter((id) => id !== '');
	const unknown = ids.filter((id) => !SCENARIOS.some((s) => s.id === id));
	if (unknown.length > 0) return { message: `No scenario ${unknown.map((id) => `"${id}"`).join(', ')}. Scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}.` };
	if (ids.length === 0) return { message: '--only needs at least one scenario id.' };
	return SCENARIOS.filter((s) => ids.includes(s.id));
}

/**
 * What each scenario gets of the supplied code and token. A code works once, so only the first scenario that
 * needs one gets it; a token can be read any number of times, so every scenario that needs one gets it.
 */
export function planSupplies(scenarios: Scenario[], supplied: { code?: string; token?: string }): Map<string, { code?: string; token?: string }> {
	const codeTaker = supplied.code === undefined ? undefined : scenarios.find((s) => s.custom === 'code');
	return new Map(
		scenarios.map((s) => [
			s.id,
			{
				...(s === codeTaker ? { code: supplied.code! } : {}),
				...(s.custom === 'token' && supplied.token !== undefined ? { token: supplied.token } : {})
			}
		])
	);
}
