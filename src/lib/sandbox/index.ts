/**
 * The sandbox: our own implementation of the service interface, served as two hosts (authorisation and accounts)
 * from the explorer's process. `startSandbox` opens the store, applies the fixtures to an empty database, and
 * starts both listeners with every request recorded (masked) in the store's log.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { createAccountsHost } from './accounts/host';
import { createAuthHost } from './auth/host';
import { applyFixtures } from './fixtures';
import { loggedServer } from './log';
import { openStore, type SandboxStore } from './store';
import { DEFAULT_SLOW_CLIENT_LIMITS, explainClientErrors, ownHostNames, refuseForeignHosts, slowClientOptions, type OwnHostNames, type SlowClientLimits } from '../http/listener-guards';
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
	const slowClients = options.slowClients ?? DEFAULT_SLOW_CLIENT_LIMITS;
	const logging = { logUnclaimed: !workspaces.public, server: slowClientOptions(slowClients) };
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
	for (const server of [accounts, auth]) explainClientErrors(server, slowClients);

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
