/** The control API's workspaces: creation, keys, scoping of every call, removal, and public mode. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MeResponse, TokenResponse } from '../../protocol/schemas';
import { openStore } from '../store';
import { workspaceAdmission } from '../workspace-admission';
import { DEFAULT_WORKSPACE_POLICY, WORKSPACE_LIMITS, startWorkspaceExpiry, type WorkspacePolicy } from '../workspaces';
import { CALLBACK, postToken, startAccounts, type RunningAccounts } from './test-support';
import { DEFAULT_READ_ONLY, WRONG_KEY } from './workspace-access';

let sandbox: RunningAccounts | undefined;
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
});

async function start(workspaces: WorkspacePolicy = DEFAULT_WORKSPACE_POLICY): Promise<RunningAccounts> {
	sandbox = await startAccounts({ workspaces });
	return sandbox;
}

const JSON_TYPE = { 'content-type': 'application/json' };

function call(method: string, path: string, { key, body }: { key?: string; body?: unknown } = {}): Promise<Response> {
	return fetch(`${sandbox!.url}/sandbox/${path}`, {
		method,
		headers: { ...(body === undefined ? {} : JSON_TYPE), ...(key === undefined ? {} : { 'X-Sandbox-Workspace-Key': key }) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
}

interface Created {
	id: string;
	key: string;
	clients: string[];
	kind: string;
	fixtures: string;
}

async function createWorkspace(body: unknown = {}): Promise<Created> {
	const res = await call('POST', 'workspaces', { body });
	expect(res.status).toBe(201);
	return (await res.json()) as Created;
}

async function stateOf(key?: string) {
	const res = await call('GET', 'state', { key });
	expect(res.status).toBe(200);
	return (await res.json()) as { now: string; today: string; clients: { client_id: string }[]; users: { login: string; sbid_number: string }[] };
}

/** Signs a fixture user in through the control API and exchanges the code: an access token of the workspace. */
async function accessToken(workspace: { key?: string; clientId: string }, login = 'student@example.com') {
	const authorize = await call('POST', 'authorize', {
		key: workspace.key,
		body: { supergroup: 'student', response_type: 'code', client_id: workspace.clientId, redirect_uri: CALLBACK, country: 'uk', login, decision: 'authorize' }
	});
	expect(authorize.status).toBe(200);
	const code = new URL(((await authorize.json()) as { location: string }).location).searchParams.get('code')!;
	const res = await postToken(sandbox!.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: workspace.clientId, client_secret: 'demo-secret-change-me' });
	expect(res.status).toBe(200);
	return TokenResponse.parse(await res.json());
}

describe('control API: workspaces', () => {
	it('creates a workspace with the demo fixtures copied in, client ids suffixed by its id, and answers its key once', async () => {
		await start();
		const created = await createWorkspace({ name: 'Support: ticket 42' });
		expect(created).toMatchObject({ kind: 'normal', fixtures: 'demo', clients: [`demo-client~${created.id}`, `group-key-client~${created.id}`] });
		expect(created.key.length).toBeGreaterThan(40);
		const state = await stateOf(created.key);
		expect(state.clients.map((c) => c.client_id)).toEqual(created.clients);
		expect(state.users.map((u) => u.login)).toEqual((await stateOf()).users.map((u) => u.login));
		const info = (await (await call('GET', 'workspace', { key: created.key })).json()) as Record<string, unknown>;
		expect(info).toMatchObject({ id: created.id, name: 'Support: ticket 42', kind: 'normal', read_only: false, idle_expiry_hours: 24 });
		expect(JSON.stringify(info)).not.toContain(created.key);
		expect((await stateOf()).clients.map((c) => c.client_id)).toEqual(['demo-client', 'group-key-client']);
	});
	it('an empty workspace has nothing in it, and its reset keeps it empty', async () => {
		await start();
		const { key } = await createWorkspace({ fixtures: 'empty' });
		expect(await stateOf(key)).toMatchObject({ clients: [], users: [] });
		await call('POST', 'users', { key, body: { login: 'x@example.com', password: 'p', verifications: [] } });
		expect((await call('POST', 'reset', { key, body: {} })).status).toBe(200);
		expect(await stateOf(key)).toMatchObject({ clients: [], users: [] });
	});
	it('refuses a bad creation body, and a creation without the JSON type', async () => {
		await start();
		expect((await call('POST', 'workspaces', { body: { fixtures: 'all' } })).status).toBe(400);
		expect((await call('POST', 'workspaces', { body: { extra: 1 } })).status).toBe(400);
		expect((await fetch(`${sandbox!.url}/sandbox/workspaces`, { method: 'POST' })).status).toBe(415);
		expect((await call('GET', 'workspaces')).status).toBe(405);
	});
	it('a wrong key gets one answer whatever is wrong with it, and never repeats the key', async () => {
		await start();
		const { id, key } = await createWorkspace();
		const secret = key.split('.')[1]!;
		const wrongKeys = [`${id}.${'A'.repeat(43)}`, `nosuchid00.${secret}`, 'garbage', `default.${secret}`, `${key} extra`];
		for (const wrong of wrongKeys) {
			const res = await call('GET', 'state', { key: wrong });
			expect(res.status).toBe(403);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({ error: WRONG_KEY });
			expect(text).not.toContain(secret);
		}
	});
	it('each workspace\'s calls change only it: users, clients, clock and reset', async () => {
		await start();
		const a = await createWorkspace();
		const b = await createWorkspace();
		const defaultBefore = await stateOf();
		expect((await call('POST', 'users', { key: a.key, body: { login: 'only-a@example.com', password: 'p', verifications: [] } })).status).toBe(200);
		expect((await call('POST', 'clock', { key: a.key, body: { set: '2001-02-03T04:05:06Z' } })).status).toBe(200);
		expect((await stateOf(a.key)).today).toBe('2001-02-03');
		expect((await stateOf(b.key)).today).toBe(new Date().toISOString().slice(0, 10));
		expect((await stateOf(b.key)).users.map((u) => u.login)).not.toContain('only-a@example.com');
		expect(await stateOf()).toMatchObject({ clients: defaultBefore.clients, users: defaultBefore.users, today: defaultBefore.today });
		// b cannot take or change a's client, nor the default workspace's.
		for (const clientId of [a.clients[0], 'demo-client']) {
			const res = await call('POST', 'clients', {
				key: b.key,
				body: { client_id: clientId, client_secret: 'stolen', redirect_uris: ['https://evil.example/cb'], countries: ['uk'] }
			});
			expect(res.status).toBe(409);
			expect(((await res.json()) as { error: string }).error).toMatch(/taken by another workspace/);
		}
		expect((await call('POST', 'reset', { key: b.key, body: {} })).status).toBe(200);
		expect((await stateOf(a.key)).users.map((u) => u.login)).toContain('only-a@example.com');
		const reset = await call('POST', 'clock', { key: a.key, body: { reset: true } });
		expect(((await reset.json()) as { today: string }).today).toBe(new Date().toISOString().slice(0, 10));
	});
	it('the clock refuses a malformed set or reset with the problem named', async () => {
		await start();
		const { key } = await createWorkspace();
		for (const body of [{ set: '2001-02-03' }, { set: 'yesterday' }, { reset: false }, { set: '2001-02-03T04:05:06Z', reset: true }]) {
			const res = await call('POST', 'clock', { key, body });
			expect(res.status).toBe(400);
			expect(((await res.json()) as { error: string }).error).toMatch(/set|reset/);
		}
	});
	it('a flow in a workspace issues its codes and tokens, which its clients alone can use', async () => {
		await start();
		const a = await createWorkspace();
		const tokens = await accessToken({ key: a.key, clientId: a.clients[0]! });
		const me = await fetch(`${sandbox!.url}/api/v3/me.json`, { headers: { Authorization: `Bearer ${tokens.access_token}`, 'User-Agent': 'test' } });
		expect(me.status).toBe(200);
		expect(MeResponse.parse(await me.json()).sbid_number).toBe('STU0001');
		const crossed = await postToken(sandbox!.url, {
			grant_type: 'refresh_token',
			refresh_token: tokens.refresh_token,
			client_id: 'demo-client',
			client_secret: 'demo-secret-change-me'
		});
		expect(crossed.status).toBe(400);
		expect(await crossed.json()).toEqual({ error: 'invalid_grant', error_description: 'The refresh token is not one this service issued.' });
		// /sandbox/authorize with a's key knows only a's clients.
		const foreign = await call('POST', 'authorize', {
			key: a.key,
			body: { supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: CALLBACK, country: 'uk', login: 'student@example.com', decision: 'authorize' }
		});
		expect(((await foreign.json()) as { row: string }).row).toBe('auth-invalid-client');
	});
	it('deletes a workspace with its own key only; then its key, clients and tokens are gone', async () => {
		await start();
		const a = await createWorkspace();
		const b = await createWorkspace();
		const tokens = await accessToken({ key: a.key, clientId: a.clients[0]! });
		expect((await call('DELETE', `workspaces/${a.id}`, { key: b.key })).status).toBe(403);
		expect((await call('DELETE', `workspaces/${a.id}`)).status).toBe(403);
		expect((await call('DELETE', 'workspaces/default')).status).toBe(403);
		const deleted = await call('DELETE', `workspaces/${a.id}`, { key: a.key });
		expect(deleted.status).toBe(200);
		expect(await deleted.json()).toEqual({ deleted: a.id });
		expect((await call('GET', 'state', { key: a.key })).status).toBe(403);
		const me = await fetch(`${sandbox!.url}/api/v3/me.json`, { headers: { Authorization: `Bearer ${tokens.access_token}`, 'User-Agent': 'test' } });
		expect(me.status).toBe(401);
		expect((await stateOf(b.key)).clients).toHaveLength(2);
	});
});

describe('control API: public mode', () => {
	const PUBLIC: WorkspacePolicy = { public: true, idleHours: 24, creationsPerAddressPerHour: 3 };

	it('limits how many workspaces one address creates per hour: 429 with Retry-After and a clear message', async () => {
		await start(PUBLIC);
		for (let i = 0; i < 3; i++) await createWorkspace({ fixtures: 'empty' });
		const res = await call('POST', 'workspaces', { body: {} });
		expect(res.status).toBe(429);
		const retryAfter = Number(res.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThan(3500);
		expect(retryAfter).toBeLessThanOrEqual(3600);
		expect(((await res.json()) as { error: string }).error).toMatch(/3 workspaces in the last hour/);
	});
	it('not public: creation is not rate-limited', async () => {
		await start({ ...PUBLIC, public: false });
		for (let i = 0; i < 5; i++) await createWorkspace({ fixtures: 'empty' });
	});
	it('the explorer\'s internal work and the administrator spend no visitor\'s allowance (issue 26)', async () => {
		const store = openStore(':memory:');
		const admission = workspaceAdmission(store, PUBLIC, 'http://localhost:3000');
		sandbox = await startAccounts({ store, workspaces: PUBLIC, admission, adminToken: 'an-admin-token-of-enough-length' });
		const create = (headers: Record<string, string>) =>
			fetch(`${sandbox!.url}/sandbox/workspaces`, { method: 'POST', headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify({ fixtures: 'empty' }) });
		for (let i = 0; i < 5; i++) {
			expect((await create({ 'X-Sandbox-Internal-Work': admission.internalCredential })).status).toBe(201);
			expect((await create({ Authorization: 'Bearer an-admin-token-of-enough-length' })).status).toBe(201);
		}
		// A guessed credential is a visitor's call like any other.
		for (let i = 0; i < 3; i++) expect((await create({ 'X-Sandbox-Internal-Work': 'guess' })).status).toBe(201);
		expect((await create({})).status).toBe(429);
	});
	it('one allowance per visitor, whichever door: the explorer\'s workspaces count against the control API\'s', async () => {
		const store = openStore(':memory:');
		const admission = workspaceAdmission(store, PUBLIC, 'http://localhost:3000');
		sandbox = await startAccounts({ store, workspaces: PUBLIC, admission });
		// The explorer's one-click workspace, as workspace-session.ts makes it for a visitor from this machine.
		for (let i = 0; i < 3; i++) expect(admission.create({ kind: 'visitor', address: '::ffff:127.0.0.1' }, { fixtures: 'demo' }).ok).toBe(true);
		const res = await call('POST', 'workspaces', { body: {} });
		expect(res.status).toBe(429);
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
	});
	it('the default workspace is read-only through the control API and its log is not shown; its flows still work', async () => {
		await start(PUBLIC);
		const before = await stateOf();
		for (const [path, body] of [
			['reset', {}],
			['clock', { advance_seconds: 7200 }],
			['users', { login: 'x@example.com', password: 'p', verifications: [] }],
			['clients', { client_id: 'mine', client_secret: 's', redirect_uris: ['https://a.example/cb'], countries: ['uk'] }],
			['authorize', { supergroup: 'student', client_id: 'demo-client', redirect_uri: CALLBACK, country: 'uk', response_type: 'code', login: 'student@example.com', decision: 'authorize' }]
		] as const) {
			const res = await call('POST', path, { body });
			expect(res.status).toBe(403);
			expect(await res.json()).toEqual({ error: DEFAULT_READ_ONLY });
		}
		expect((await call('GET', 'log')).status).toBe(403);
		expect(await stateOf()).toEqual({ ...before, now: expect.any(String) });
		// The interface's own flows still run in the default workspace.
		const { store } = sandbox!;
		const user = store.getUserByLogin('student@example.com')!;
		const code = store.issueCode({ clientId: 'demo-client', userId: user.id, redirectUri: CALLBACK });
		const res = await postToken(sandbox!.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'demo-client', client_secret: 'demo-secret-change-me' });
		expect(res.status).toBe(200);
		// And a workspace of one's own is writable.
		const { key } = await createWorkspace();
		expect((await call('POST', 'clock', { key, body: { advance_seconds: 60 } })).status).toBe(200);
		expect((await call('GET', 'log', { key })).status).toBe(200);
	});
	it('holds each workspace to its limits of clients and users; replacing one still works', async () => {
		await start({ ...PUBLIC, creationsPerAddressPerHour: 100 });
		const { key, clients } = await createWorkspace();
		const clientBody = (id: string) => ({ client_id: id, client_secret: 's', redirect_uris: ['https://a.example/cb'], countries: ['uk'] });
		for (let i = clients.length; i < WORKSPACE_LIMITS.clients; i++) {
			expect((await call('POST', 'clients', { key, body: clientBody(`extra-${i}-${key.slice(0, 10)}`) })).status).toBe(200);
		}
		const full = await call('POST', 'clients', { key, body: clientBody(`one-too-many-${key.slice(0, 10)}`) });
		expect(full.status).toBe(409);
		expect(((await full.json()) as { error: string }).error).toMatch(/20 clients, the most public mode allows/);
		expect((await call('POST', 'clients', { key, body: clientBody(clients[0]!) })).status).toBe(200);

		const { key: other } = await createWorkspace({ fixtures: 'empty' });
		const store = sandbox!.store.workspaceForKey(other)!;
		store.transaction(() => {
			for (let i = 0; i < WORKSPACE_LIMITS.users; i++) store.upsertUser({ login: `u${i}@example.com`, password: { hash: 'x' }, verifications: [] });
		});
		const tooMany = await call('POST', 'users', { key: other, body: { login: 'late@example.com', password: 'p', verifications: [] } });
		expect(tooMany.status).toBe(409);
		expect((await call('POST', 'users', { key: other, body: { login: 'u0@example.com', password: 'p', verifications: [] } })).status).toBe(200);
	});
});

describe('idle workspaces expire', () => {
	afterEach(() => vi.useRealTimers());

	it('the timer removes workspaces idle longer than the set time, keeps used ones and the default one', () => {
		vi.useFakeTimers();
		const store = openStore(':memory:');
		const idle = store.createWorkspace({ fixtures: 'empty' }).workspace;
		const used = store.createWorkspace({ fixtures: 'empty' }).workspace;
		const expiry = startWorkspaceExpiry(store, 1);
		vi.advanceTimersByTime(50 * 60_000);
		used.touch();
		expect(store.workspaceCount()).toBe(3);
		vi.advanceTimersByTime(20 * 60_000); // idle for 70 minutes, used 20 minutes ago
		expect(store.workspace(idle.id)).toBeUndefined();
		expect(store.workspace(used.id)).toBeDefined();
		expect(store.workspace('default')).toBeDefined();
		expiry.stop();
		store.close();
	});
});

describe('control API: workspace keys beside the admin token', () => {
	const ADMIN = 'an-admin-token-long-enough';

	it('with SANDBOX_ADMIN_TOKEN set, a call with a workspace key needs only the key; a call without one administers and needs the token', async () => {
		sandbox = await startAccounts({ adminToken: ADMIN, workspaces: DEFAULT_WORKSPACE_POLICY });
		expect((await call('POST', 'workspaces', { body: {} })).status).toBe(401);
		expect((await call('POST', 'workspaces', { key: 'any-key-at-all', body: {} })).status).toBe(401);
		const created = await fetch(`${sandbox.url}/sandbox/workspaces`, { method: 'POST', headers: { ...JSON_TYPE, 'X-Sandbox-Admin-Token': ADMIN }, body: '{}' });
		expect(created.status).toBe(201);
		const { key } = (await created.json()) as Created;
		expect((await call('GET', 'state', { key })).status).toBe(200);
		expect((await call('POST', 'clock', { key, body: { advance_seconds: 60 } })).status).toBe(200);
		expect((await call('GET', 'state')).status).toBe(401);
		expect((await call('POST', 'reset', { body: {} })).status).toBe(401);
		expect((await call('GET', 'state', { key: 'not-a-key' })).status).toBe(403);
	});

	it('in public mode anyone creates a workspace, while the default workspace stays the administrator\'s', async () => {
		sandbox = await startAccounts({ adminToken: ADMIN, workspaces: { ...DEFAULT_WORKSPACE_POLICY, public: true } });
		const created = await call('POST', 'workspaces', { body: {} });
		expect(created.status).toBe(201);
		const { key } = (await created.json()) as Created;
		expect((await call('POST', 'clock', { key, body: { advance_seconds: 60 } })).status).toBe(200);
		expect((await call('POST', 'reset', { body: {} })).status).toBe(401);
	});
});
