/**
 * The explorer's long-lived services, created once per process: the sandbox's two hosts and the session store.
 * `init` in hooks.server.ts calls `startExplorerServices`; in dev, Vite may reload modules, so the instances live
 * on globalThis and are never started twice.
 */
import process from 'node:process';
import { startSandbox } from '$lib/sandbox';
import { config } from './config';
import { createSessionStore } from './session';
import { openRunStore, type RunStore } from '../features/runs/store';
import { ownHostNames } from '$lib/http/listener-guards';
import type { DatabaseHealth } from '$lib/sqlite/health-thread';
import { offerExplorerServer } from './explorer-server';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Services = { sandbox: Sandbox | null; sessions: ReturnType<typeof createSessionStore>; runs: RunStore };

const KEY = Symbol.for('sso-flow-explorer.services');
const holder = globalThis as typeof globalThis & { [KEY]?: Promise<Services> };

const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function startExplorerServices(): Promise<Services> {
	holder[KEY] ??= start().catch((error: unknown) => {
		// A wrong setting or a busy port: say which, plainly, and stop (no stack trace for an operator's mistake).
		console.error(`SSO Flow Explorer could not start: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	});
	return holder[KEY];
}

async function start(): Promise<Services> {
	const sessions = createSessionStore({ ttlMs: SESSION_TTL_MS });
	const { publicOrigin, host, allowedHostNames, slowClients, authPort, accountsPort, runsDatabasePath, savedRunsMaxMb, sandboxService: settings, sandbox: sandboxUrls } = config();
	const runs = openRunStore(runsDatabasePath, { maxMb: savedRunsMaxMb });
	const sandbox = settings.enabled
		? await startSandbox({
				authPort,
				accountsPort,
				databasePath: settings.databasePath,
				controlApi: settings.controlApi,
				adminToken: settings.adminToken,
				workspaces: settings.workspaces,
				explorerOrigin: publicOrigin,
				hostname: host,
				ownHostNames: ownHostNames(publicOrigin, allowedHostNames),
				slowClients
			})
		: null;
	// The sandbox's URLs as the walk and its links name them (config), whatever address the hosts listen on.
	console.log(
		[
			'',
			'SSO Flow Explorer',
			`  Explorer               ${publicOrigin}`,
			sandbox ? `  Sandbox authorisation  ${sandboxUrls.authUrl}` : '  Sandbox                off (SANDBOX=off)',
			sandbox ? `  Sandbox accounts       ${sandboxUrls.accountsUrl}` : '',
			''
		]
			.filter((line) => line !== '')
			.join('\n')
	);
	// adapter-node closes its own server on SIGINT/SIGTERM, then emits this; the sandbox must close too or the
	// process would stay up holding the sandbox ports.
	process.once('sveltekit:shutdown', () => {
		void sandbox?.close();
		runs.close();
	});
	offerExplorerServer();
	return { sandbox, sessions, runs };
}

/** Whether the databases this process keeps its data in can still be used (the explorer's /health). */
export async function storesHealth(): Promise<DatabaseHealth> {
	const { sandbox } = await services();
	const { runsDatabasePath, sandboxService: settings } = config();
	const databases = [{ path: runsDatabasePath, what: 'saved runs' }];
	if (sandbox) databases.push({ path: settings.databasePath, what: 'sandbox' });
	// Imported when first asked for, so the build keeps the checking thread's module in a chunk of its own.
	const { databaseHealth } = await import('$lib/sqlite/health-thread');
	return databaseHealth(databases);
}

export async function services(): Promise<Services> {
	return startExplorerServices();
}
