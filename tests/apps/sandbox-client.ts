/**
 * Runs a test client application against the running explorer's sandbox (ports: tests/security/support/ports.ts):
 * a throwaway workspace with the shipped fixture users, and a client of its own whose one registered redirect URI
 * is the app's callback. A `?next=` on the link needs no registration of its own: matching is on scheme, authority
 * and path only (2.1, 4.1.1), and the control API refuses a registered URI with `?`.
 */
import { randomBytes } from 'node:crypto';
import { ACCOUNTS_HOST, AUTH_HOST, DEMO_PASSWORD, STUDENT } from '../security/support/ports';
import { startPassportApp, type PassportApp, type PassportAppOptions } from './passport-app';

export interface SandboxWorkspace {
	id: string;
	/** The X-Sandbox-Workspace-Key value; every control call below sends it. */
	key: string;
	authHost: string;
	accountsHost: string;
	/** A control API call in this workspace; throws on a non-2xx answer. */
	control(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown>;
	/** Removes the workspace and everything in it. */
	remove(): Promise<void>;
}

export interface SandboxClient {
	clientId: string;
	clientSecret: string;
}

/** A fixture user of the workspace (docs/sandbox.md, "Sandbox accounts"); every one's password is `password`. */
export const SIGN_IN = { login: STUDENT, password: DEMO_PASSWORD };

async function call(method: string, path: string, key: string | undefined, body?: unknown): Promise<unknown> {
	const response = await fetch(`${ACCOUNTS_HOST}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...(key ? { 'x-sandbox-workspace-key': key } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
	return text ? JSON.parse(text) : undefined;
}

/** A new workspace with the demo fixtures (its users), made through the control API from this machine. */
export async function createSandboxWorkspace(name = 'passport-app test'): Promise<SandboxWorkspace> {
	const created = (await call('POST', '/sandbox/workspaces', undefined, { fixtures: 'demo', name })) as { id: string; key: string };
	return {
		id: created.id,
		key: created.key,
		authHost: AUTH_HOST,
		accountsHost: ACCOUNTS_HOST,
		control: (method, path, body) => call(method, path, created.key, body),
		remove: async () => {
			await call('DELETE', `/sandbox/workspaces/${created.id}`, created.key);
		}
	};
}

/** Client ids are unique across workspaces: a random one never collides with another test's. */
export function newClientCredentials(): SandboxClient {
	return { clientId: `passport-app-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(18).toString('base64url') };
}

/** Registers a client with these redirect URIs (plain: scheme, authority, path) in the workspace. */
export async function registerClient(
	workspace: SandboxWorkspace,
	redirectUris: string[],
	options: { verificationKey?: 'supergroup' | 'group'; credentials?: SandboxClient } = {}
): Promise<SandboxClient> {
	const client = options.credentials ?? newClientCredentials();
	await workspace.control('POST', '/sandbox/clients', {
		client_id: client.clientId,
		client_secret: client.clientSecret,
		name: 'Passport test app',
		redirect_uris: redirectUris,
		countries: ['uk'],
		...(options.verificationKey ? { verification_key: options.verificationKey } : {})
	});
	return client;
}

/** What the app's options take beyond the sandbox: its variant and knobs. */
export type AppKnobs = Omit<PassportAppOptions, 'authHost' | 'accountsHost' | 'clientId' | 'clientSecret'>;

export interface AppOnSandbox {
	app: PassportApp;
	workspace: SandboxWorkspace;
	client: SandboxClient;
	/** Stops the app and removes the workspace. */
	close(): Promise<void>;
}

/**
 * A passport app started against the sandbox: a new workspace, a client of its own registered for the app's
 * callback (once the app listens, so its port is known), the app running. Sign in as SIGN_IN.
 */
export async function startAppOnSandbox(knobs: AppKnobs, options: { verificationKey?: 'supergroup' | 'group' } = {}): Promise<AppOnSandbox> {
	const workspace = await createSandboxWorkspace();
	try {
		const credentials = newClientCredentials();
		const app = await startPassportApp({ ...knobs, authHost: AUTH_HOST, accountsHost: ACCOUNTS_HOST, ...credentials });
		const client = await registerClient(workspace, [app.callbackUrl], { ...options, credentials }).catch(async (e) => {
			await app.close();
			throw e;
		});
		return {
			app,
			workspace,
			client,
			close: async () => {
				await app.close();
				await workspace.remove();
			}
		};
	} catch (e) {
		await workspace.remove();
		throw e;
	}
}
