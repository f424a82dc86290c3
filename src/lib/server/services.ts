/**
 * The explorer's long-lived services, created once per process: the sandbox's two hosts and the session store.
 * `init` in hooks.server.ts calls `startExplorerServices`; in dev, Vite may reload modules, so the instances live
 * on globalThis and are never started twice.
 */
import { env } from 'node:process';
import { sandboxConfigFromEnv, startSandbox } from '$lib/sandbox';
import { config } from './config';
import { createSessionStore } from './session';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Services = { sandbox: Sandbox | null; sessions: ReturnType<typeof createSessionStore> };

const KEY = Symbol.for('sso-flow-explorer.services');
const holder = globalThis as typeof globalThis & { [KEY]?: Promise<Services> };

const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function startExplorerServices(): Promise<Services> {
	holder[KEY] ??= (async () => {
		const sessions = createSessionStore({ ttlMs: SESSION_TTL_MS });
		const sandbox =
			env.SANDBOX === 'off' ? null : await startSandbox({ ...sandboxConfigFromEnv(env), explorerOrigin: config().publicOrigin });
		const explorer = config().publicOrigin;
		console.log(
			[
				'',
				'SSO Flow Explorer',
				`  Explorer               ${explorer}`,
				sandbox ? `  Sandbox authorisation  ${sandbox.authUrl}` : '  Sandbox                off (SANDBOX=off)',
				sandbox ? `  Sandbox accounts       ${sandbox.accountsUrl}` : '',
				''
			]
				.filter((line) => line !== '')
				.join('\n')
		);
		return { sandbox, sessions };
	})();
	return holder[KEY];
}

export async function services(): Promise<Services> {
	return startExplorerServices();
}
