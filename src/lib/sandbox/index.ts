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
import { loggedServer } from './request-log';
import { openStore, type SandboxStore } from './store';
import { DEFAULT_WORKSPACE_POLICY, startWorkspaceExpiry, type WorkspacePolicy } from './workspaces';

export { FIXTURE_CLIENTS, FIXTURE_PASSWORD, FIXTURE_USERS } from './fixtures';
export type { SandboxClient, SandboxStore, SandboxUser, SandboxWorkspace } from './store';
export { WORKSPACE_KEY_HEADER, WORKSPACE_LIMITS, type WorkspacePolicy } from './workspaces';

export interface SandboxOptions {
	authPort: number;
	accountsPort: number;
	/** Interface to listen on; all interfaces when absent. */
	hostname?: string;
	explorerOrigin: string;
	/** SQLite file, or ':memory:'. */
	databasePath: string;
	controlApi: boolean;
	/** Public mode, idle expiry and creation rate of workspaces; not public, 24 h, 20 per hour when absent. */
	workspaces?: WorkspacePolicy;
}

export interface RunningSandbox {
	authUrl: string;
	accountsUrl: string;
	store: SandboxStore;
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
	HOST: z.string().min(1).optional(),
	/** adapter-node's public origin of the explorer, when it is not http://localhost:PORT. */
	ORIGIN: z
		.string()
		.refine((s) => URL.canParse(s) && new URL(s).origin === s, 'ORIGIN must be an origin such as https://explorer.example (no path)')
		.optional(),
	DATA_DIR: z.string().min(1, 'DATA_DIR must name a directory').default('./data'),
	SANDBOX_CONTROL_API: z.enum(['on', 'off'], { message: 'SANDBOX_CONTROL_API must be "on" or "off"' }).default('on'),
	SANDBOX_PUBLIC: z.enum(['on', 'off'], { message: 'SANDBOX_PUBLIC must be "on" or "off"' }).default('off'),
	SANDBOX_WORKSPACE_IDLE_HOURS: positiveNumber('SANDBOX_WORKSPACE_IDLE_HOURS', DEFAULT_WORKSPACE_POLICY.idleHours, false),
	SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: positiveNumber('SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR', DEFAULT_WORKSPACE_POLICY.creationsPerAddressPerHour, true)
});

/** The sandbox's settings from the environment; throws one clear message naming every bad variable. */
export function sandboxConfigFromEnv(env: Record<string, string | undefined>): SandboxOptions {
	const parsed = SandboxEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
	if (!parsed.success) {
		const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
		throw new Error(`Invalid sandbox configuration: ${problems}.`);
	}
	const e = parsed.data;
	return {
		authPort: e.AUTH_PORT,
		accountsPort: e.ACCOUNTS_PORT,
		hostname: e.HOST,
		explorerOrigin: e.ORIGIN ?? `http://localhost:${e.PORT}`,
		databasePath: join(e.DATA_DIR, 'sandbox.db'),
		controlApi: e.SANDBOX_CONTROL_API === 'on',
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

function limitSlowClients(server: Server): Server {
	// Slow or stalled clients cannot hold a connection for long.
	server.requestTimeout = 30_000;
	server.headersTimeout = 10_000;
	return server;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
	if (options.databasePath !== ':memory:') mkdirSync(dirname(options.databasePath), { recursive: true });
	const store = openStore(options.databasePath);
	if (store.isEmpty()) applyFixtures(store, options.explorerOrigin);
	const workspaces = options.workspaces ?? DEFAULT_WORKSPACE_POLICY;
	const expiry = startWorkspaceExpiry(store, workspaces.idleHours);
	// In public mode the default workspace is everyone's: requests no workspace claims are not kept in its log.
	const logging = { logUnclaimed: !workspaces.public };

	const accounts = limitSlowClients(
		loggedServer(store, 'accounts', createAccountsHost(store, { controlApi: options.controlApi, explorerOrigin: options.explorerOrigin, workspaces }), logging)
	);
	const auth = limitSlowClients(loggedServer(store, 'authorisation', createAuthHost(store, { explorerOrigin: options.explorerOrigin }), logging));

	const close = async () => {
		expiry.stop();
		await Promise.all([closeServer(auth), closeServer(accounts)]);
		store.close();
	};
	try {
		const [authPort, accountsPort] = await Promise.all([
			listen(auth, options.authPort, options.hostname, 'authorisation host', 'AUTH_PORT'),
			listen(accounts, options.accountsPort, options.hostname, 'accounts host', 'ACCOUNTS_PORT')
		]);
		const host = urlHost(options.hostname);
		return { authUrl: `http://${host}:${authPort}`, accountsUrl: `http://${host}:${accountsPort}`, store, close };
	} catch (error) {
		await close();
		throw error;
	}
}
