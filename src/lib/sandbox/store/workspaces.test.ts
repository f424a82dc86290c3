import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../protocol';
import { ClientIdTakenError, openStore, type SandboxStore, type SandboxWorkspace } from '.';
import { client } from './test-support';
import { exchangeRef } from '../log/test-entries';

const CB = 'https://app.example/cb';

/** A workspace with client `clientId` and user a@example.com (verified student), and a code and tokens of theirs. */
function world(workspace: SandboxWorkspace, clientId: string) {
	workspace.upsertClient({ ...client, client_id: clientId });
	const user = workspace.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] });
	const code = workspace.issueCode({ clientId, userId: user.id, redirectUri: CB });
	const exchanged = workspace.exchangeCode(workspace.issueCode({ clientId, userId: user.id, redirectUri: CB }), clientId, CB);
	if (!exchanged.ok) throw new Error(exchanged.cause);
	return { user, code, tokens: exchanged.tokens };
}

function twoWorlds() {
	const store = openStore(':memory:');
	const { workspace: other, key } = store.createWorkspace({ fixtures: 'empty' });
	return { store, other, key, home: world(store, 'c1'), away: world(other, 'c2') };
}

describe('store: workspaces are separate worlds', () => {
	it('each sees only its own clients and users; the same login can live in both', () => {
		const { store, other, home, away } = twoWorlds();
		expect(store.listClients().map((c) => c.client_id)).toEqual(['c1']);
		expect(other.listClients().map((c) => c.client_id)).toEqual(['c2']);
		expect(store.getClient('c2')).toBeUndefined();
		expect(other.getClient('c1')).toBeUndefined();
		expect(other.authenticateClient('c1', 's1')).toEqual({ ok: false, cause: 'unknown-client' });
		expect(store.getUserByLogin('a@example.com')?.id).toBe(home.user.id);
		expect(other.getUserByLogin('a@example.com')?.id).toBe(away.user.id);
		expect(other.getUser(home.user.id)).toBeUndefined();
		expect(() => other.addVerification(home.user.id, 'graduate', '2099-01-01')).toThrow(/no user/);
		expect(store.authenticateUser('a@example.com', 'pw')?.id).toBe(home.user.id);
	});
	it('a client id is unique across the sandbox: another workspace cannot take it or change it', () => {
		const { store, other } = twoWorlds();
		expect(() => other.upsertClient({ ...client, client_id: 'c1', client_secret: 'stolen' })).toThrow(ClientIdTakenError);
		expect(store.getClient('c1')?.client_secret).toBe('s1');
		expect(store.findClientAnywhere('c2')?.workspace.id).toBe(other.id);
	});
	it('a code or token of one workspace is unknown in the other, and consumes nothing there', () => {
		const { store, other, home, away } = twoWorlds();
		expect(other.exchangeCode(home.code, 'c2', CB)).toEqual({ ok: false, cause: 'unknown-code' });
		expect(other.refresh(home.tokens.refresh_token, 'c2')).toEqual({ ok: false, cause: 'unknown-token' });
		expect(other.lookupAccessToken(home.tokens.access_token)).toEqual({ kind: 'unknown' });
		expect(store.lookupAccessToken(away.tokens.access_token)).toEqual({ kind: 'unknown' });
		expect(() => other.issueCode({ clientId: 'c1', userId: home.user.id, redirectUri: CB })).toThrow();
		expect(() => other.issueCode({ clientId: 'c2', userId: home.user.id, redirectUri: CB })).toThrow();
		// Still good where they belong.
		expect(store.exchangeCode(home.code, 'c1', CB).ok).toBe(true);
		expect(store.refresh(home.tokens.refresh_token, 'c1').ok).toBe(true);
		expect(store.findAccessToken(away.tokens.access_token)).toMatchObject({ lookup: { kind: 'valid' }, workspace: { id: other.id } });
	});
	it('an access token expires on its own workspace clock', () => {
		const { store, other, home, away } = twoWorlds();
		other.advanceClock(LIMITS.accessTokenExpiresIn + 1);
		expect(store.findAccessToken(away.tokens.access_token).lookup.kind).toBe('expired');
		expect(store.findAccessToken(home.tokens.access_token).lookup.kind).toBe('valid');
		other.resetClock();
		expect(store.findAccessToken(away.tokens.access_token).lookup.kind).toBe('valid');
	});
	it('purging follows each workspace clock: a clock set back does not lose another\'s codes, nor its own', () => {
		const { store, other, home, away } = twoWorlds();
		store.setClock(new Date('2001-01-01T00:00:00Z'));
		const old = world(store, 'c3');
		other.advanceClock(3 * 86400);
		other.issueCode({ clientId: 'c2', userId: away.user.id, redirectUri: CB }); // purges the other workspace's expired rows
		store.resetClock();
		store.issueCode({ clientId: 'c1', userId: home.user.id, redirectUri: CB }); // purges this one's: the 2001 code is long expired
		expect(other.exchangeCode(away.code, 'c2', CB)).toEqual({ ok: false, cause: 'unknown-code' });
		expect(store.exchangeCode(home.code, 'c1', CB).ok).toBe(true);
		expect(store.exchangeCode(old.code, 'c3', CB)).toEqual({ ok: false, cause: 'unknown-code' });
	});
	it('keeps a log per workspace, and a clear empties only its own workspace', () => {
		const { store, other } = twoWorlds();
		store.log({ host: 'accounts', entry: { build: () => exchangeRef('home') } });
		other.log({ host: 'accounts', entry: { build: () => exchangeRef('away') } });
		expect(store.recentLog(10).map((e) => e.entry.ref)).toEqual(['home']);
		expect(other.recentLog(10).map((e) => e.entry.ref)).toEqual(['away']);
		other.advanceClock(3600);
		other.clear();
		expect(other.isEmpty()).toBe(true);
		expect(other.recentLog(10)).toEqual([]);
		expect(Math.abs(other.now().getTime() - Date.now())).toBeLessThan(1000);
		expect(store.isEmpty()).toBe(false);
		expect(store.recentLog(10)).toHaveLength(1);
	});
});

describe('store: workspace keys, removal and expiry', () => {
	it('a key opens its workspace only; a wrong or foreign key opens nothing', () => {
		const { store, other, key } = twoWorlds();
		expect(store.workspaceForKey(key)?.id).toBe(other.id);
		const second = store.createWorkspace({ fixtures: 'empty' });
		expect(store.workspaceForKey(second.key)?.id).toBe(second.workspace.id);
		expect(store.workspaceForKey(`${other.id}.${second.key.split('.')[1]}`)).toBeUndefined();
		expect(store.workspaceForKey(`${key}x`)).toBeUndefined();
		expect(store.workspaceForKey('default.anything')).toBeUndefined();
		expect(store.workspaceForKey('')).toBeUndefined();
		expect(key.length).toBeGreaterThan(40);
	});
	it('deleting a workspace removes everything in it, and its key and tokens stop working', () => {
		const { store, other, key, away } = twoWorlds();
		expect(store.deleteWorkspace(other.id)).toBe(true);
		expect(store.workspaceForKey(key)).toBeUndefined();
		expect(store.workspace(other.id)).toBeUndefined();
		expect(store.findClientAnywhere('c2')).toBeUndefined();
		expect(store.findAccessToken(away.tokens.access_token)).toEqual({ lookup: { kind: 'unknown' }, workspace: null });
		expect(store.deleteWorkspace('default')).toBe(false);
		expect(store.isEmpty()).toBe(false);
	});
	it('expires normal workspaces idle since before a time, never the default one', () => {
		const { store, other } = twoWorlds();
		const fresh = store.createWorkspace({ fixtures: 'empty' }).workspace;
		const cutoff = Date.now() + 1;
		fresh.info(); // reading is not using
		expect(store.expireIdle(cutoff).sort()).toEqual([other.id, fresh.id].sort());
		expect(store.workspaceCount()).toBe(1);
		expect(store.workspace('default')).toBeDefined();
	});
	it('a touched workspace is not idle', () => {
		const { store, other } = twoWorlds();
		const cutoff = Date.now() + 1;
		vi.useFakeTimers({ toFake: ['Date'], now: cutoff + 60_000 });
		try {
			other.touch();
		} finally {
			vi.useRealTimers();
		}
		expect(store.expireIdle(cutoff)).toEqual([]);
	});
});

describe('store: workspaces persist', () => {
	it('keeps workspaces, their keys, clocks, rows and last use across a reopen', () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-ws-'));
		try {
			const path = join(dir, 'sandbox.db');
			let store: SandboxStore = openStore(path);
			const { workspace, key } = store.createWorkspace({ fixtures: 'empty', name: 'CI run 7' });
			const { tokens } = world(workspace, 'c2');
			workspace.setClock(new Date('2030-06-01T00:00:00Z'));
			workspace.touch();
			const lastUsed = workspace.info().lastUsedMs;
			store.close();

			store = openStore(path);
			const reopened = store.workspaceForKey(key)!;
			expect(reopened.info()).toMatchObject({ id: workspace.id, name: 'CI run 7', fixtures: 'empty', kind: 'normal', lastUsedMs: lastUsed });
			expect(reopened.today()).toBe('2030-06-01');
			expect(store.findAccessToken(tokens.access_token).workspace?.id).toBe(workspace.id);
			expect(store.today()).toBe(new Date().toISOString().slice(0, 10));
			store.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('store: a removed workspace', () => {
	it('takes no more log entries, even from a request that found it before it went', () => {
		const store = openStore(':memory:');
		const { workspace } = store.createWorkspace({ fixtures: 'empty' });
		store.deleteWorkspace(workspace.id);
		workspace.log({ host: 'accounts', entry: { build: () => exchangeRef('late') } });
		expect(workspace.recentLog(10)).toEqual([]);
		expect(store.recentLog(10)).toEqual([]);
	});
});
