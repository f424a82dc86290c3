import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyFixtures, FIXTURE_CLIENTS, FIXTURE_PASSWORD } from '$lib/sandbox/fixtures';
import type { LoggedExchange } from '$lib/sandbox/log';
import { openStore, type SandboxStore } from '$lib/sandbox/store';
import { WORKSPACE_LIMITS } from '$lib/sandbox/workspaces';
import { addDays } from '$lib/dates';
import {
	advanceClockBy,
	newestRequestId,
	panelState,
	recentRequests,
	resetClockToRealTime,
	resetSandbox,
	setClockTo,
	saveClientForm,
	saveUserForm,
	setClientKey,
	setUserDeletion
} from './panel';

const ORIGIN = 'http://localhost:3000';

let store: SandboxStore;
beforeEach(() => {
	store = openStore(':memory:');
	applyFixtures(store, ORIGIN);
});
afterEach(() => store.close());

/** Outside public mode a workspace has no limits of clients and users; in public mode it has. */
const OPEN = { public: false };
const PUBLIC = { public: true };

function formOf(fields: Record<string, string | string[]>): FormData {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
	return form;
}

const newClient = {
	client_id: 'my-app',
	client_secret: 'my-very-own-secret',
	name: 'My App',
	redirect_uris: 'https://my-app.example/cb\nhttps://my-app.example/other',
	countries: 'uk, fr',
	verification_key: 'supergroup'
};

const newUser = {
	login: 'alice@example.com',
	password: 'alice-password-1',
	verification_supergroup: ['student', 'graduate'],
	verification_expires_on: ['2999-01-01', '2999-06-01']
};

describe('panel data', () => {
	it('lists clients with "secret set" and never a secret or a password', () => {
		saveClientForm(store, formOf(newClient), OPEN);
		saveUserForm(store, formOf(newUser), OPEN);
		const state = panelState(store);
		const text = JSON.stringify(state);
		for (const secret of [...FIXTURE_CLIENTS.map((c) => c.client_secret), newClient.client_secret, newUser.password]) {
			expect(text).not.toContain(secret);
		}
		expect(text).not.toContain('client_secret');
		expect(state.clients.find((c) => c.client_id === 'my-app')).toEqual({
			client_id: 'my-app',
			name: 'My App',
			redirect_uris: ['https://my-app.example/cb', 'https://my-app.example/other'],
			countries: ['uk', 'fr'],
			verification_key: 'supergroup',
			secret_set: true,
			pending_outcomes: []
		});
	});

	it('lists each client\'s pending outcome rules', () => {
		store.setOutcome('demo-client', 'me-404');
		store.setOutcome('demo-client', 'authorise-cancel');
		store.takeOutcome('demo-client', 'authorise', 'test');
		const clients = panelState(store).clients;
		expect(clients.find((c) => c.client_id === 'demo-client')?.pending_outcomes).toEqual(['me-404']);
		expect(clients.find((c) => c.client_id === 'group-key-client')?.pending_outcomes).toEqual([]);
	});

	it('marks each verification active or expired on the sandbox clock', () => {
		const expired = panelState(store).users.find((u) => u.login === 'expired@example.com');
		expect(expired?.verifications).toEqual([{ supergroup: 'student', expires_on: addDays(store.today(), -1), active: false }]);
		const multi = () => panelState(store).users.find((u) => u.login === 'multi@example.com')!;
		expect(multi().verifications.every((v) => v.active)).toBe(true);
		store.advanceClock(30 * 86_400); // social-assistance expires in 30 days: on that day it is no longer valid
		expect(multi().verifications.find((v) => v.supergroup === 'social-assistance')?.active).toBe(false);
		expect(multi().verifications.find((v) => v.supergroup === 'graduate')?.active).toBe(true);
	});

	it('shows the latest requests with method, target and status, newest first', () => {
		const exchange = (path: string, status: number): LoggedExchange => ({
			ref: path,
			host: 'accounts',
			sandboxAt: store.now().toISOString(),
			durationMs: 1.5,
			request: { method: 'GET', url: `http://localhost:3002${path}`, headers: [], body: null },
			response: { status, statusText: '', headers: [], body: '{}', truncated: false },
			keys: {}
		});
		expect(newestRequestId(store)).toBe(0);
		store.log({ host: 'accounts', entry: { build: () => exchange('/me.json?access_token=••••••abcd', 401) } });
		store.log({ host: 'accounts', entry: { build: () => exchange('/health', 200) } });
		const entries = recentRequests(store);
		expect(entries.map((e) => [e.method, e.target, e.status])).toEqual([
			['GET', '/health', 200],
			['GET', '/me.json?access_token=••••••abcd', 401]
		]);
		expect(newestRequestId(store)).toBe(entries[0]!.id);
	});
});

describe('clients', () => {
	it('creates a client, and its feedback carries neither the secret nor the typed secret', () => {
		const feedback = saveClientForm(store, formOf(newClient), OPEN);
		expect(feedback).toMatchObject({ form: 'client', ok: true, subject: 'my-app' });
		expect(store.authenticateClient('my-app', newClient.client_secret).ok).toBe(true);
		expect(JSON.stringify(feedback)).not.toContain(newClient.client_secret);
	});

	it('refuses a new client without a secret, and never echoes a secret when refusing', () => {
		const blank = saveClientForm(store, formOf({ ...newClient, client_secret: '' }), OPEN);
		expect(blank.ok).toBe(false);
		expect(blank.fields.client_secret).toMatch(/new client needs one/);
		expect(store.getClient('my-app')).toBeUndefined();

		const bad = saveClientForm(store, formOf({ ...newClient, countries: 'GB' }), OPEN);
		expect(bad.ok).toBe(false);
		expect(JSON.stringify(bad)).not.toContain(newClient.client_secret);
		expect(bad.client).toMatchObject({ client_id: 'my-app', countries: 'GB' });
	});

	it('keeps the existing secret when editing with the secret left blank, and replaces it when one is typed', () => {
		saveClientForm(store, formOf(newClient), OPEN);
		const kept = saveClientForm(store, formOf({ ...newClient, client_secret: '', name: 'Renamed' }), OPEN);
		expect(kept.message).toMatch(/secret is unchanged/);
		expect(store.getClient('my-app')?.name).toBe('Renamed');
		expect(store.authenticateClient('my-app', newClient.client_secret).ok).toBe(true);

		saveClientForm(store, formOf({ ...newClient, client_secret: 'a-new-secret' }), OPEN);
		expect(store.authenticateClient('my-app', 'a-new-secret').ok).toBe(true);
		expect(store.authenticateClient('my-app', newClient.client_secret).ok).toBe(false);
	});

	it('says which line or entry is wrong, with the control API\'s own messages', () => {
		const feedback = saveClientForm(store, formOf({ ...newClient, redirect_uris: 'https://ok.example/cb\nhttps://x.example/cb?a=1', countries: 'uk, GB' }), OPEN);
		expect(feedback.ok).toBe(false);
		expect(feedback.fields.redirect_uris).toMatch(/^line 2: register it without `\?` or `#`/);
		expect(feedback.fields.countries).toBe('entry 2: write country codes in lower case (`uk`)');
		expect(feedback.message).toMatch(/2 fields need attention/);
		expect(store.getClient('my-app')).toBeUndefined();
	});

	it('switches a client to the `group` key and back, keeping its secret', () => {
		expect(setClientKey(store, formOf({ client_id: 'demo-client', verification_key: 'group' }), OPEN).ok).toBe(true);
		expect(store.getClient('demo-client')?.verification_key).toBe('group');
		expect(store.authenticateClient('demo-client', 'demo-secret-change-me').ok).toBe(true);
		setClientKey(store, formOf({ client_id: 'demo-client', verification_key: 'supergroup' }), OPEN);
		expect(store.getClient('demo-client')?.verification_key).toBe('supergroup');
	});

	it('refuses a key other than `supergroup` or `group`, and an unknown client', () => {
		expect(setClientKey(store, formOf({ client_id: 'demo-client', verification_key: 'grp' }), OPEN).ok).toBe(false);
		expect(store.getClient('demo-client')?.verification_key).toBe('supergroup');
		expect(setClientKey(store, formOf({ client_id: 'nobody', verification_key: 'group' }), OPEN)).toMatchObject({ ok: false, subject: 'nobody' });
	});
});

describe('users', () => {
	it('creates a user with verifications; the feedback carries no password', () => {
		const feedback = saveUserForm(store, formOf(newUser), OPEN);
		expect(feedback.ok).toBe(true);
		expect(JSON.stringify(feedback)).not.toContain(newUser.password);
		const user = store.authenticateUser('alice@example.com', newUser.password);
		expect(user?.verifications).toEqual([
			{ supergroup: 'graduate', expires_on: '2999-06-01' },
			{ supergroup: 'student', expires_on: '2999-01-01' }
		]);
	});

	it('refuses a new user without a password', () => {
		const feedback = saveUserForm(store, formOf({ ...newUser, password: '' }), OPEN);
		expect(feedback.fields.password).toMatch(/new user needs one/);
		expect(store.getUserByLogin('alice@example.com')).toBeUndefined();
	});

	it('keeps the password when editing with it left blank', () => {
		const feedback = saveUserForm(store, formOf({ login: 'student@example.com', password: '', deletion_requested: 'on' }), OPEN);
		expect(feedback.message).toMatch(/password is unchanged/);
		const user = store.authenticateUser('student@example.com', FIXTURE_PASSWORD);
		expect(user).toMatchObject({ deletion_requested: true, verifications: [] });
	});

	it('refuses two rows for one supergroup and a date that is not a real date, keeping what was typed', () => {
		const twice = saveUserForm(store, formOf({ ...newUser, verification_supergroup: ['student', 'student'] }), OPEN);
		expect(twice.fields.verifications).toMatch(/at most one verification per supergroup/);
		const badDate = saveUserForm(store, formOf({ ...newUser, verification_expires_on: ['2999-02-30', '2999-06-01'] }), OPEN);
		expect(badDate.fields.verifications).toMatch(/^row 1 \(expires_on\): a real calendar date/);
		expect(badDate.user?.verifications[0]).toEqual({ supergroup: 'student', expires_on: '2999-02-30' });
		expect(store.getUserByLogin('alice@example.com')).toBeUndefined();
	});

	it('drops verification rows left wholly blank', () => {
		saveUserForm(store, formOf({ ...newUser, verification_supergroup: ['student', ''], verification_expires_on: ['2999-01-01', ''] }), OPEN);
		expect(store.getUserByLogin('alice@example.com')?.verifications).toHaveLength(1);
	});

	it('marks and unmarks account deletion, keeping password and verifications', () => {
		const before = store.getUserByLogin('multi@example.com')!;
		expect(setUserDeletion(store, formOf({ login: 'multi@example.com', deletion_requested: 'true' }), OPEN).ok).toBe(true);
		expect(store.authenticateUser('multi@example.com', FIXTURE_PASSWORD)).toEqual({ ...before, deletion_requested: true });
		setUserDeletion(store, formOf({ login: 'multi@example.com', deletion_requested: 'false' }), OPEN);
		expect(store.getUserByLogin('multi@example.com')?.deletion_requested).toBe(false);
		expect(setUserDeletion(store, formOf({ login: 'nobody@example.com', deletion_requested: 'true' }), OPEN).ok).toBe(false);
	});
});

describe('clock', () => {
	it('advances by 2 hours', () => {
		const before = store.now().getTime();
		const feedback = advanceClockBy(store, formOf({ seconds: '7200' }));
		expect(feedback.message).toMatch(/^Advanced 2 hours\./);
		expect(store.now().getTime() - before).toBeGreaterThanOrEqual(7200_000);
		expect(store.now().getTime() - before).toBeLessThan(7260_000);
	});

	it('refuses to advance by nothing, backwards or by a non-number', () => {
		for (const seconds of ['0', '-60', 'soon', '', '1.5']) {
			const before = store.now().getTime();
			expect(advanceClockBy(store, formOf({ seconds })).ok).toBe(false);
			expect(store.now().getTime() - before).toBeLessThan(1000);
		}
	});

	it('sets the clock to a later date, at its start or at a time of day (UTC)', () => {
		const target = addDays(store.today(), 3);
		expect(setClockTo(store, formOf({ date: target, time: '' })).ok).toBe(true);
		expect(store.today()).toBe(target);
		expect(store.now().toISOString()).toMatch(new RegExp(`^${target}T00:00:0`));
		expect(setClockTo(store, formOf({ date: target, time: '13:45' })).message).toMatch(new RegExp(`^Set\\. The sandbox's now is ${target}T13:45:0`));
	});

	it('sets the clock backwards, and resets it to real time on its own', () => {
		const feedback = setClockTo(store, formOf({ date: '2001-02-03', time: '04:05' }));
		expect(feedback.ok).toBe(true);
		expect(store.now().toISOString()).toMatch(/^2001-02-03T04:05:0/);
		const client = store.listClients().length;
		const reset = resetClockToRealTime(store);
		expect(reset.message).toMatch(/^Back to real time/);
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(2000);
		expect(store.listClients()).toHaveLength(client);
	});

	it('refuses a date or time that is not one, with a clear message, and leaves the clock alone', () => {
		const today = store.today();
		expect(setClockTo(store, formOf({ date: '2999-13-01' })).fields.date).toMatch(/not a real calendar date/);
		expect(setClockTo(store, formOf({ date: '' })).fields.date).toMatch(/`\(empty\)` is not/);
		const badTime = setClockTo(store, formOf({ date: '2030-01-01', time: '25:00' }));
		expect(badTime.ok).toBe(false);
		expect(badTime.fields.time).toMatch(/HH:MM/);
		expect(store.today()).toBe(today);
	});
});

describe('reset', () => {
	it('needs the confirmation, then removes what was created and puts the clock back', () => {
		saveClientForm(store, formOf(newClient), OPEN);
		store.advanceClock(5 * 86_400);
		expect(resetSandbox(store, ORIGIN, formOf({})).fields.confirm).toBeDefined();
		expect(store.getClient('my-app')).toBeDefined();

		expect(resetSandbox(store, ORIGIN, formOf({ confirm: 'on' })).ok).toBe(true);
		expect(store.getClient('my-app')).toBeUndefined();
		expect(store.getClient('demo-client')).toBeDefined();
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(1000);
	});
});

describe('the panel holds the control API\'s rules (issue 26)', () => {
	it('a client id another workspace holds is a clear conflict in the form, not a thrown error', () => {
		const other = store.createWorkspace({ fixtures: 'empty' }).workspace;
		const feedback = saveClientForm(other, formOf({ ...newClient, client_id: 'demo-client' }), OPEN);
		expect(feedback).toMatchObject({ form: 'client', ok: false, status: 409, fields: { client_id: expect.stringMatching(/taken by another workspace/) } });
		expect(feedback.message).toMatch(/`demo-client` is taken by another workspace.*Choose another/);
		expect(JSON.stringify(feedback)).not.toContain(newClient.client_secret);
		expect(other.getClient('demo-client')).toBeUndefined();
	});

	it('in public mode, adds no client past the workspace limit; replacing one still works', () => {
		const workspace = store.createWorkspace({ fixtures: 'empty' }).workspace;
		for (let i = 0; i < WORKSPACE_LIMITS.clients; i++) {
			expect(saveClientForm(workspace, formOf({ ...newClient, client_id: `app-${i}` }), PUBLIC).ok).toBe(true);
		}
		const full = saveClientForm(workspace, formOf({ ...newClient, client_id: 'one-too-many' }), PUBLIC);
		expect(full).toMatchObject({ ok: false, status: 409 });
		expect(full.message).toMatch(/20 clients, the most public mode allows/);
		expect(workspace.listClients()).toHaveLength(WORKSPACE_LIMITS.clients);
		expect(saveClientForm(workspace, formOf({ ...newClient, client_id: 'app-0', name: 'Renamed' }), PUBLIC).ok).toBe(true);
		expect(saveClientForm(workspace, formOf({ ...newClient, client_id: 'one-too-many' }), OPEN).ok).toBe(true);
	});

	it('in public mode, adds no user past the workspace limit; editing one still works', () => {
		const workspace = store.createWorkspace({ fixtures: 'empty' }).workspace;
		workspace.transaction(() => {
			for (let i = 0; i < WORKSPACE_LIMITS.users; i++) workspace.upsertUser({ login: `u${i}@example.com`, password: { hash: 'x' }, verifications: [] });
		});
		const full = saveUserForm(workspace, formOf(newUser), PUBLIC);
		expect(full).toMatchObject({ ok: false, status: 409 });
		expect(full.message).toMatch(/200 users, the most public mode allows/);
		expect(workspace.getUserByLogin(newUser.login)).toBeUndefined();
		expect(saveUserForm(workspace, formOf({ ...newUser, login: 'u0@example.com' }), PUBLIC).ok).toBe(true);
		expect(setUserDeletion(workspace, formOf({ login: 'u1@example.com', deletion_requested: 'true' }), PUBLIC).ok).toBe(true);
	});
});
