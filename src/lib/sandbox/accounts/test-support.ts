/** Shared by the accounts host's tests: a running host on an ephemeral port, with the fixtures, and grant codes. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTHORIZATION_CODE, type Supergroup } from '../../protocol';
import { checkAuthorizationRequest, decide } from '../authorize';
import { applyFixtures } from '../fixtures';
import { openStore, type SandboxStore } from '../store';
import type { WorkspaceAdmission } from '../workspace-admission';
import type { WorkspacePolicy } from '../workspaces';
import { createAccountsHost } from './host';

export const ORIGIN = 'http://localhost:3000';
export const CALLBACK = `${ORIGIN}/callback`;
export const DEMO = { client_id: 'demo-client', client_secret: 'demo-secret-change-me' } as const;

export interface RunningAccounts {
	url: string;
	store: SandboxStore;
	close(): Promise<void>;
}

export async function startAccounts(
	options: { controlApi?: boolean; adminToken?: string; store?: SandboxStore; workspaces?: WorkspacePolicy; admission?: WorkspaceAdmission } = {}
): Promise<RunningAccounts> {
	const store = options.store ?? openStore(':memory:');
	if (store.isEmpty()) applyFixtures(store, ORIGIN);
	const server = createServer(
		createAccountsHost(store, { controlApi: options.controlApi ?? true, adminToken: options.adminToken ?? null, explorerOrigin: ORIGIN, workspaces: options.workspaces, admission: options.admission })
	);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		store,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			})
	};
}

/** A grant code as the authorisation page would issue it. */
export function issueCode(
	store: SandboxStore,
	{
		login = 'student@example.com',
		clientId = DEMO.client_id as string,
		redirectUri = CALLBACK,
		supergroup = 'student' as Supergroup
	}: { login?: string; clientId?: string; redirectUri?: string; supergroup?: Supergroup } = {}
): string {
	const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, country: 'uk' });
	const check = checkAuthorizationRequest(store, supergroup, query);
	if (!check.ok) throw new Error(`bad test request: ${check.error.message}`);
	const user = store.getUserByLogin(login);
	if (!user) throw new Error(`no fixture user ${login}`);
	return new URL(decide(check.request, user.id, 'authorize', 'consent page (test)').location).searchParams.get('code')!;
}

/** `POST /oauth/token` with the parameters in the query string, as the interface describes. */
export function postToken(url: string, params: Record<string, string>, init: RequestInit = {}): Promise<Response> {
	return fetch(`${url}/oauth/token?${new URLSearchParams(params)}`, { method: 'POST', ...init });
}

export function exchangeParams(code: string, overrides: Record<string, string> = {}): Record<string, string> {
	return { grant_type: AUTHORIZATION_CODE, code, redirect_uri: CALLBACK, ...DEMO, ...overrides };
}

/** An access token for a fixture user, through the real token endpoint. */
export async function accessTokenFor(running: RunningAccounts, login: string, clientId: string = DEMO.client_id): Promise<string> {
	const client = running.store.getClient(clientId)!;
	const user = running.store.getUserByLogin(login)!;
	const supergroup = user.verifications[0]?.supergroup ?? 'student';
	const code = issueCode(running.store, { login, clientId, supergroup });
	const res = await postToken(running.url, exchangeParams(code, { client_id: clientId, client_secret: client.client_secret }));
	if (res.status !== 200) throw new Error(`token exchange failed: ${await res.text()}`);
	return ((await res.json()) as { access_token: string }).access_token;
}
