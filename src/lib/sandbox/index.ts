/**
 * The sandbox: our own implementation of the service interface, served as two hosts (authorisation and accounts)
 * from the explorer's process. `startSandbox` opens the store, applies the fixtures to an empty database, and
 * starts both listeners with every request recorded (masked) in the store's log.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { createAccountsHost } from './accounts/host';
import { createAuthHost } from './auth/host';
import { applyFixtures } from './fixtures';
import { MIN_ADMIN_TOKEN_LENGTH } from './admin-access';
import { loggedServer } from './request-log';
import { openStore, type SandboxStore } from './store';
import { DEFAULT_SLOW_CLIENT_LIMITS, ownHostNames, refuseForeignHosts, slowClientOptions, type OwnHostNames, type SlowClientLimits } from '../http/listener-guards';
import { workspaceAdmission, type WorkspaceAdmission } from './workspace-admission';
import { DEFAULT_WORKSPACE_POLICY, startWorkspaceExpiry, type WorkspacePolicy } from './workspaces';

export { FIXTURE_CLIENTS, FIXTURE_PASSWORD, FIXTURE_USERS } from './fixtures';
export type { SandboxClient, SandboxStore, SandboxUser, SandboxWorkspace } from './store';
export { WORKSPACE_KEY_HEADER, WORKSPACE_LIMITS, type WorkspacePolicy } from './workspaces';

export interface SandboxOptions {
	authPort: number;
	accountsPort: number;
	/** Interface to listen on; loopback (127.0.0.1) when absent. */
	hostname?: string;
	/** Names requests may address besides localhost, 127.0.0.1 and [::1] on each host's port; only those when absent. */
	ownHostNames?: OwnHostNames;
	/** How long a client may take to send a request; the configuration's defaults when absent. */
	slowClients?: SlowClientLimits;
	explorerOrigin: string;
	/** SQLite file, or ':memory:'. */
	databasePath: string;
	controlApi: boolean;
	/** SANDBOX_ADMIN_TOKEN: what administration needs; null: only this machine administers (admin-access.ts). */
	adminToken?: string | null;
	/** Public mode, idle expiry and creation rate of workspaces; not public, 24 h, 20 per hour when absent. */
	workspaces?: WorkspacePolicy;
}

export interface RunningSandbox {
	authUrl: string;
	accountsUrl: string;
	store: SandboxStore;
	/** Who may make a workspace now: the one allowance per visitor that the control API and the explorer share. */
	admission: WorkspaceAdmission;
	close(): Promise<void>;
}

const port = (name: string, fallback: number) =>
	z
		.string()
		.regex(/^\d{1,5}$/, `${name} must be a port number from 0 to 65535`)
		.transform(Number)
		.refine((n) => n <= 65535, `${name} must be a port number from 0 to 65535`)
		.default(fallback);

const positiveNumber = (name: string, fallback: number, whole: boolean) =>
	z
		.string()
		.regex(whole ? /^\d{1,6}$/ : /^\d{1,6}(\.\d+)?$/, `${name} must be ${whole ? 'a whole number' : 'a number'} greater than 0`)
		.transform(Number)
		.refine((n) => n > 0, `${name} must be greater than 0`)
		.default(fallback);

const SandboxEnv = z.object({
	PORT: port('PORT', 3000),
	AUTH_PORT: port('AUTH_PORT', 3001),
	ACCOUNTS_PORT: port('ACCOUNTS_PORT', 3002),
	/** adapter-node's public origin of the explorer, when it is not http://localhost:PORT. */
	ORIGIN: z
		.string()
		.refine((s) => URL.canParse(s) && new URL(s).origin === s, 'ORIGIN must be an origin such as https://explorer.example (no path)')
		.optional(),
	DATA_DIR: z.string().min(1, 'DATA_DIR must name a directory').default('./data'),
	SANDBOX_CONTROL_API: z.enum(['on', 'off'], { message: 'SANDBOX_CONTROL_API must be "on" or "off"' }).default('on'),
	SANDBOX_ADMIN_TOKEN: z
		.string()
		.min(MIN_ADMIN_TOKEN_LENGTH, `SANDBOX_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (e.g. openssl rand -base64 24)`)
		.regex(/^[\x21-\x7e]+$/, 'SANDBOX_ADMIN_TOKEN must be printable ASCII without spaces')
		.optional(),
	SANDBOX_PUBLIC: z.enum(['on', 'off'], { message: 'SANDBOX_PUBLIC must be "on" or "off"' }).default('off'),
	SANDBOX_WORKSPACE_IDLE_HOURS: positiveNumber('SANDBOX_WORKSPACE_IDLE_HOURS', DEFAULT_WORKSPACE_POLICY.idleHours, false),
	SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: positiveNumber('SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR', DEFAULT_WORKSPACE_POLICY.creationsPerAddressPerHour, true)
});

const SANDBOX_VARIABLES = Object.keys(SandboxEnv.shape);
/** The last settings read, by the values of the variables they come from: the explorer asks on every request. */
let lastSettings: { key: string; options: SandboxOptions } | null = null;

/** The sandbox's settings from the environment; throws one clear message naming every bad variable. */
export function sandboxConfigFromEnv(env: Record<string, string | undefined>): SandboxOptions {
	const key = SANDBOX_VARIABLES.map((name) => env[name] ?? '').join('\0');
	if (lastSettings?.key === key) return lastSettings.options;
	const options = parseSandboxEnv(env);
	lastSettings = { key, options };
	return options;
}

function parseSandboxEnv(env: Record<string, string | undefined>): SandboxOptions {
	const parsed = SandboxEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
	if (!parsed.success) {
		const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
		throw new Error(`Invalid sandbox configuration: ${problems}.`);
	}
	const e = parsed.data;
	return {
		authPort: e.AUTH_PORT,
		accountsPort: e.ACCOUNTS_PORT,
		explorerOrigin: e.ORIGIN ?? `http://localhost:${e.PORT}`,
		databasePath: join(e.DATA_DIR, 'sandbox.db'),
		controlApi: e.SANDBOX_CONTROL_API === 'on',
		adminToken: e.SANDBOX_ADMIN_TOKEN ?? null,
		workspaces: {
			public: e.SANDBOX_PUBLIC === 'on',
			idleHours: e.SANDBOX_WORKSPACE_IDLE_HOURS,
			creationsPerAddressPerHour: e.SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR
		}
	};
}

function listen(server: Server, port: number, hostname: string | undefined, what: string, variable: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const reason = error.code === 'EADDRINUSE' ? 'the port is in use' : error.message;
			reject(new Error(`The sandbox ${what} could not listen on port ${port}: ${reason}. Set ${variable} to a free port.`));
		});
		server.listen(port, hostname, () => resolve((server.address() as AddressInfo).port));
	});
}

function urlHost(hostname: string | undefined): string {
	if (hostname === undefined || hostname === '0.0.0.0' || hostname === '::') return 'localhost';
	return hostname.includes(':') ? `[${hostname}]` : hostname;
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		if (!server.listening) return resolve();
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
	if (options.databasePath !== ':memory:') mkdirSync(dirname(options.databasePath), { recursive: true });
	const store = openStore(options.databasePath);
	if (store.isEmpty()) applyFixtures(store, options.explorerOrigin);
	const workspaces = options.workspaces ?? DEFAULT_WORKSPACE_POLICY;
	const expiry = startWorkspaceExpiry(store, workspaces.idleHours);
	const admission = workspaceAdmission(store, workspaces, options.explorerOrigin);

	// Requests must address the sandbox by one of its own names (DNS rebinding), and slow clients are cut off. In
	// public mode the default workspace is everyone's: requests no workspace claims are not kept in its log.
	const names = options.ownHostNames ?? ownHostNames(options.explorerOrigin, []);
	const logging = { logUnclaimed: !workspaces.public, server: slowClientOptions(options.slowClients ?? DEFAULT_SLOW_CLIENT_LIMITS) };
	const accounts = loggedServer(
		store,
		'accounts',
		refuseForeignHosts(
			names,
			createAccountsHost(store, { controlApi: options.controlApi, adminToken: options.adminToken ?? null, explorerOrigin: options.explorerOrigin, workspaces, admission })
		),
		logging
	);
	const auth = loggedServer(store, 'authorisation', refuseForeignHosts(names, createAuthHost(store, { explorerOrigin: options.explorerOrigin })), logging);

	const close = async () => {
		expiry.stop();
		await Promise.all([closeServer(auth), closeServer(accounts)]);
		store.close();
	};
	try {
		const [authPort, accountsPort] = await Promise.all([
			listen(auth, options.authPort, options.hostname ?? '127.0.0.1', 'authorisation host', 'AUTH_PORT'),
			listen(accounts, options.accountsPort, options.hostname ?? '127.0.0.1', 'accounts host', 'ACCOUNTS_PORT')
		]);
		const host = urlHost(options.hostname);
		return { authUrl: `http://${host}:${authPort}`, accountsUrl: `http://${host}:${accountsPort}`, store, admission, close };
	} catch (error) {
		await close();
		throw error;
	}
}
