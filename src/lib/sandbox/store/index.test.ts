import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../protocol';
import { openStore, type SandboxStore } from './store';

const client = {
	client_id: 'c1',
	client_secret: 's1',
	name: 'One',
	redirect_uris: ['https://app.example/cb'],
	countries: ['uk'],
	verification_key: 'supergroup' as const
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function storeWithUser() {
	const store = openStore(':memory:');
	store.upsertClient(client);
	const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] });
	return { store, user };
}

describe('store: users', () => {
	it('creates a user with a 7-character alphanumeric sbid_number and keeps it on update', () => {
		const { store, user } = storeWithUser();
		expect(user.sbid_number).toMatch(/^[A-Za-z0-9]{7}$/);
		const updated = store.upsertUser({ login: 'a@example.com', password: 'new', verifications: [], deletion_requested: true });
		expect(updated).toEqual({ ...user, verifications: [], deletion_requested: true });
	});
	it('authenticates with the right password only', () => {
		const { store, user } = storeWithUser();
		expect(store.authenticateUser('a@example.com', 'pw')?.id).toBe(user.id);
		expect(store.authenticateUser('a@example.com', 'PW')).toBeUndefined();
		expect(store.authenticateUser('nobody@example.com', 'pw')).toBeUndefined();
	});
	it('still verifies a password hashed at another scrypt cost (a database from before the cost changed)', () => {
		const { store } = storeWithUser();
		const salt = randomBytes(16);
		const key = scryptSync('older-pw', salt, 32, { N: 16384, r: 8, p: 1 });
		store.upsertUser({ login: 'old@example.com', password: { hash: `scrypt$16384$${salt.toString('base64')}$${key.toString('base64')}` }, verifications: [] });
		expect(store.authenticateUser('old@example.com', 'older-pw')?.login).toBe('old@example.com');
		expect(store.authenticateUser('old@example.com', 'wrong')).toBeUndefined();
	});
	it('keeps an existing user\'s password when an update gives none, and refuses a new user without one', () => {
		const { store } = storeWithUser();
		store.upsertUser({ login: 'a@example.com', verifications: [], deletion_requested: true });
		expect(store.authenticateUser('a@example.com', 'pw')?.deletion_requested).toBe(true);
		expect(() => store.upsertUser({ login: 'new@example.com', verifications: [] })).toThrow(/needs a password/);
		expect(store.getUserByLogin('new@example.com')).toBeUndefined();
	});
	it('adds or replaces a verification', () => {
		const { store, user } = storeWithUser();
		const after = store.addVerification(user.id, 'student', '2100-01-01');
		expect(after.verifications).toEqual([{ supergroup: 'student', expires_on: '2100-01-01' }]);
	});
});

describe('store: clients', () => {
	it('authenticates a client secret and tells unknown from wrong', () => {
		const { store } = storeWithUser();
		expect(store.authenticateClient('c1', 's1').ok).toBe(true);
		expect(store.authenticateClient('c1', 's2')).toEqual({ ok: false, cause: 'wrong-secret' });
		expect(store.authenticateClient('c2', 's1')).toEqual({ ok: false, cause: 'unknown-client' });
	});
	it('takes a changed secret at once, and refuses the old one', () => {
		const { store } = storeWithUser();
		expect(store.authenticateClient('c1', 's1').ok).toBe(true);
		store.upsertClient({ ...client, client_secret: 's2' });
		expect(store.authenticateClient('c1', 's2').ok).toBe(true);
		expect(store.authenticateClient('c1', 's1')).toEqual({ ok: false, cause: 'wrong-secret' });
	});
});

describe('store: codes and tokens', () => {
	it('issues codes with 256 bits of randomness, never twice the same', () => {
		const { store, user } = storeWithUser();
		const a = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const b = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		expect(Buffer.from(a, 'base64url')).toHaveLength(32);
		expect(a).not.toBe(b);
	});
	it('exchanges a code once, then says it was used', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb?x=1' });
		const first = store.exchangeCode(code, 'c1', 'https://app.example/cb?x=1');
		expect(first.ok && first.tokens.expires_in).toBe(LIMITS.accessTokenExpiresIn);
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb?x=1')).toEqual({ ok: false, cause: 'used' });
	});
	it('a code changed to name another code is unknown, and leaves that other code exchangeable', () => {
		const { store, user } = storeWithUser();
		const issue = () => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const codes = Array.from({ length: 4 }, issue);
		// The selector's lowest bits flipped: the same verifier, naming the row two ids on (the third code).
		const changed = Buffer.from(codes[0]!, 'base64url');
		changed[7]! ^= 0x02;
		expect(store.exchangeCode(changed.toString('base64url'), 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
		for (const code of codes) expect(store.exchangeCode(code, 'c1', 'https://app.example/cb').ok).toBe(true);
	});
	it('issues an access token and a refresh token per exchange, each found as its kind', () => {
		const { store, user } = storeWithUser();
		for (let i = 0; i < 5; i++) {
			const exchanged = store.exchangeCode(store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }), 'c1', 'https://app.example/cb');
			if (!exchanged.ok) throw new Error('exchange failed');
			expect(store.lookupAccessToken(exchanged.tokens.access_token).kind).toBe('valid');
			expect(store.lookupAccessToken(exchanged.tokens.refresh_token).kind).toBe('refresh-token');
		}
	});
	it('names the cause of a failed exchange and does not consume the code', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb?x=1' });
		expect(store.exchangeCode('nope', 'c1', 'https://app.example/cb?x=1')).toEqual({ ok: false, cause: 'unknown-code' });
		expect(store.exchangeCode(code, 'c2', 'https://app.example/cb?x=1')).toEqual({ ok: false, cause: 'other-client' });
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'redirect-mismatch' });
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb?x=1').ok).toBe(true);
	});
	it('expires a code after two hours on the sandbox clock', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		store.advanceClock(LIMITS.codeTtlSeconds);
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'expired' });
	});
	it('looks up access tokens, and recognises grant codes and refresh tokens', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const exchange = store.exchangeCode(code, 'c1', 'https://app.example/cb');
		if (!exchange.ok) throw new Error('exchange failed');
		const found = store.lookupAccessToken(exchange.tokens.access_token);
		expect(found.kind === 'valid' && found.user.id).toBe(user.id);
		expect(store.lookupAccessToken(code).kind).toBe('grant-code');
		expect(store.lookupAccessToken(exchange.tokens.refresh_token).kind).toBe('refresh-token');
		expect(store.lookupAccessToken('x').kind).toBe('unknown');
		store.advanceClock(LIMITS.accessTokenExpiresIn);
		expect(store.lookupAccessToken(exchange.tokens.access_token).kind).toBe('expired');
	});
	it('refreshes once per refresh token, for its own client only', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const exchange = store.exchangeCode(code, 'c1', 'https://app.example/cb');
		if (!exchange.ok) throw new Error('exchange failed');
		expect(store.refresh(exchange.tokens.refresh_token, 'c2')).toEqual({ ok: false, cause: 'other-client' });
		expect(store.refresh(exchange.tokens.refresh_token, 'c1').ok).toBe(true);
		expect(store.refresh(exchange.tokens.refresh_token, 'c1')).toEqual({ ok: false, cause: 'used' });
		expect(store.refresh(exchange.tokens.access_token, 'c1')).toEqual({ ok: false, cause: 'unknown-token' });
	});
	it('refuses a token changed in any one character, a token of another sandbox, and a token from before a clear', () => {
		const { store, user } = storeWithUser();
		const exchange = store.exchangeCode(store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }), 'c1', 'https://app.example/cb');
		if (!exchange.ok) throw new Error('exchange failed');
		const token = exchange.tokens.access_token;
		for (let i = 0; i < token.length; i++) {
			const changed = token.slice(0, i) + ALPHABET[(ALPHABET.indexOf(token[i]!) + 4) % 64] + token.slice(i + 1);
			expect(store.lookupAccessToken(changed).kind, `character ${i}`).toBe('unknown');
			expect(store.refresh(changed, 'c1'), `character ${i}`).toEqual({ ok: false, cause: 'unknown-token' });
		}
		const other = storeWithUser();
		const foreign = other.store.exchangeCode(other.store.issueCode({ clientId: 'c1', userId: other.user.id, redirectUri: 'https://app.example/cb' }), 'c1', 'https://app.example/cb');
		if (!foreign.ok) throw new Error('exchange failed');
		// The other sandbox's first token names row 1 too, under its own key.
		expect(store.lookupAccessToken(foreign.tokens.access_token).kind).toBe('unknown');
		expect(store.refresh(foreign.tokens.refresh_token, 'c1')).toEqual({ ok: false, cause: 'unknown-token' });

		store.clear();
		store.upsertClient(client);
		const again = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
		const fresh = store.exchangeCode(store.issueCode({ clientId: 'c1', userId: again.id, redirectUri: 'https://app.example/cb' }), 'c1', 'https://app.example/cb');
		if (!fresh.ok) throw new Error('exchange failed');
		// Row ids start again after a clear; the old token names a row that is now someone else's.
		expect(store.lookupAccessToken(token).kind).toBe('unknown');
		expect(store.refresh(exchange.tokens.refresh_token, 'c1')).toEqual({ ok: false, cause: 'unknown-token' });
		expect(store.lookupAccessToken(fresh.tokens.access_token).kind).toBe('valid');
	});
	it('refuses a code changed in any one character, a code of another sandbox, a token as a code, and a code from before a clear', () => {
		const { store, user } = storeWithUser();
		const issue = () => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const code = issue();
		for (let i = 0; i < code.length; i++) {
			const changed = code.slice(0, i) + ALPHABET[(ALPHABET.indexOf(code[i]!) + 4) % 64] + code.slice(i + 1);
			expect(store.exchangeCode(changed, 'c1', 'https://app.example/cb'), `character ${i}`).toEqual({ ok: false, cause: 'unknown-code' });
			expect(store.lookupAccessToken(changed).kind, `character ${i}`).toBe('unknown');
		}
		const other = storeWithUser();
		// The other sandbox's first code names row 1 too, under its own key.
		const foreign = other.store.issueCode({ clientId: 'c1', userId: other.user.id, redirectUri: 'https://app.example/cb' });
		expect(store.exchangeCode(foreign, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
		const exchanged = store.exchangeCode(code, 'c1', 'https://app.example/cb');
		if (!exchanged.ok) throw new Error(exchanged.cause);
		// The first token names row 1 as the first code does; it is still not a code.
		expect(store.exchangeCode(exchanged.tokens.access_token, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });

		const spare = issue();
		store.clear();
		store.upsertClient(client);
		const again = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
		const fresh = store.issueCode({ clientId: 'c1', userId: again.id, redirectUri: 'https://app.example/cb' });
		// Row ids start again after a clear; the old codes name rows that are now others'.
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
		expect(store.exchangeCode(spare, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
		expect(store.lookupAccessToken(spare).kind).toBe('unknown');
		expect(store.exchangeCode(fresh, 'c1', 'https://app.example/cb').ok).toBe(true);
	});
	it('purges codes long expired', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		store.advanceClock(3 * 24 * 3600);
		store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
	});
});

describe('store: what it serves from memory stays true to the database', () => {
	function tokenFor(store: SandboxStore, userId: number): string {
		const exchanged = store.exchangeCode(store.issueCode({ clientId: 'c1', userId, redirectUri: 'https://app.example/cb' }), 'c1', 'https://app.example/cb');
		if (!exchanged.ok) throw new Error(exchanged.cause);
		return exchanged.tokens.access_token;
	}
	const valid = (store: SandboxStore, token: string) => {
		const lookup = store.lookupAccessToken(token);
		if (lookup.kind !== 'valid') throw new Error(`token is ${lookup.kind}`);
		return lookup;
	};

	it('a token\'s user and client reflect every edit at once', () => {
		const { store, user } = storeWithUser();
		const token = tokenFor(store, user.id);
		expect(valid(store, token).user.verifications).toEqual([{ supergroup: 'student', expires_on: '2099-01-01' }]);
		store.addVerification(user.id, 'graduate', '2098-01-01');
		expect(valid(store, token).user.verifications.map((v) => v.supergroup)).toEqual(['graduate', 'student']);
		store.upsertUser({ login: 'a@example.com', verifications: [], deletion_requested: true });
		expect(valid(store, token).user).toMatchObject({ verifications: [], deletion_requested: true });
		store.upsertClient({ ...client, verification_key: 'group' });
		expect(valid(store, token).client.verification_key).toBe('group');
	});
	it('a remembered token still expires on the sandbox clock, and is gone after a clear', () => {
		const { store, user } = storeWithUser();
		const token = tokenFor(store, user.id);
		valid(store, token);
		store.advanceClock(LIMITS.accessTokenExpiresIn + 1);
		expect(store.lookupAccessToken(token).kind).toBe('expired');
		store.clear();
		expect(store.lookupAccessToken(token).kind).toBe('unknown');
	});
	it('a token whose user was removed by a clear is not valid even if the user is recreated', () => {
		const { store, user } = storeWithUser();
		const token = tokenFor(store, user.id);
		valid(store, token);
		store.clear();
		store.upsertClient(client);
		store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
		expect(store.lookupAccessToken(token).kind).toBe('unknown');
	});
	it('a purged token is unknown, whether or not it was looked up before', () => {
		const { store, user } = storeWithUser();
		const lookedUp = tokenFor(store, user.id);
		const notLookedUp = tokenFor(store, user.id);
		valid(store, lookedUp);
		store.advanceClock(LIMITS.accessTokenExpiresIn + 2 * 86400);
		store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }); // purges
		expect(store.lookupAccessToken(notLookedUp).kind).toBe('unknown');
		expect(store.lookupAccessToken(lookedUp).kind).toBe('unknown');
	});
	it('hands out users and clients that cannot be changed behind the store\'s back', () => {
		const { store, user } = storeWithUser();
		const lookup = valid(store, tokenFor(store, user.id));
		expect(() => lookup.user.verifications.push({ supergroup: 'graduate', expires_on: '2099-01-01' })).toThrow(TypeError);
		expect(() => (lookup.client.redirect_uris[0] = 'https://evil.example/')).toThrow(TypeError);
		expect(store.getClient('c1')?.redirect_uris).toEqual(['https://app.example/cb']);
	});
	it('today follows the sandbox clock across midnight', () => {
		const store = openStore(':memory:');
		const day = store.today();
		expect(day).toBe(store.now().toISOString().slice(0, 10));
		store.advanceClock(86400);
		expect(store.today()).toBe(store.now().toISOString().slice(0, 10));
		expect(store.today() > day).toBe(true);
	});
});

describe('store: shared transactions (group commit)', () => {
	it('runs the calls of one turn together, each resolving to its own result once committed', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-shared-'));
		try {
			const path = join(dir, 'sandbox.db');
			const store = openStore(path);
			store.upsertClient(client);
			const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
			const codes = Array.from({ length: 5 }, () => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }));
			const exchanges = codes.map((code) => store.sharedTransaction(() => store.exchangeCode(code, 'c1', 'https://app.example/cb')));
			const replay = store.sharedTransaction(() => store.exchangeCode(codes[0]!, 'c1', 'https://app.example/cb'));
			const results = await Promise.all(exchanges);
			expect(results.every((r) => r.ok)).toBe(true);
			expect(await replay).toEqual({ ok: false, cause: 'used' });
			// Committed: another connection sees every token issued.
			const reader = new Database(path, { readonly: true });
			expect(reader.prepare('SELECT COUNT(*) AS n FROM issued_tokens').get()).toEqual({ n: 10 });
			reader.close();
			store.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('undoes and rejects only the call that throws', async () => {
		const { store, user } = storeWithUser();
		const kept = store.sharedTransaction(() => store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' }));
		const failing = store.sharedTransaction(() => {
			store.addVerification(user.id, 'graduate', '2099-01-01');
			throw new Error('a bug');
		});
		await expect(failing).rejects.toThrow('a bug');
		expect(store.exchangeCode(await kept, 'c1', 'https://app.example/cb').ok).toBe(true);
		expect(store.getUser(user.id)?.verifications.map((v) => v.supergroup)).toEqual(['student']);
	});
});

describe('store: clock, log, clear', () => {
	it('moves the clock forward and back to real time on clear', () => {
		const store = openStore(':memory:');
		const before = store.now().getTime();
		store.advanceClock(86400);
		expect(store.now().getTime() - before).toBeGreaterThanOrEqual(86400_000);
		store.clear();
		expect(Math.abs(store.now().getTime() - Date.now())).toBeLessThan(1000);
	});
	it('keeps the most recent log entries, newest first', () => {
		const store = openStore(':memory:');
		for (let i = 0; i < 510; i++) store.log({ host: 'accounts', entry: { build: () => ({ i }) } });
		const recent = store.recentLog(1000);
		expect(recent).toHaveLength(500);
		expect(recent[0]?.entry).toEqual({ i: 509 });
	});
	it('builds only the entries it keeps: a burst beyond the log\'s size costs the newest 500', () => {
		const store = openStore(':memory:');
		const built: number[] = [];
		for (let i = 0; i < 2000; i++) store.log({ host: 'accounts', entry: { build: () => (built.push(i), { i }) } });
		expect(store.recentLog(1)[0]?.entry).toEqual({ i: 1999 });
		expect(built).toHaveLength(500);
		expect(built[0]).toBe(1500);
	});
	it('keeps the order of entries across several flushes', () => {
		const store = openStore(':memory:');
		for (let i = 0; i < 3; i++) store.log({ host: 'accounts', entry: { build: () => ({ i }) } });
		expect(store.recentLog(10).map((e) => e.entry)).toEqual([{ i: 2 }, { i: 1 }, { i: 0 }]);
		store.log({ host: 'authorisation', entry: { build: () => ({ i: 3 }) } });
		expect(store.recentLog(10).map((e) => e.entry)).toEqual([{ i: 3 }, { i: 2 }, { i: 1 }, { i: 0 }]);
	});
	it('writes waiting entries once requests pause, and within 5 s under steady traffic', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-log-'));
		vi.useFakeTimers();
		try {
			const path = join(dir, 'sandbox.db');
			const store = openStore(path);
			const written = () => {
				const reader = new Database(path, { readonly: true });
				const { n } = reader.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number };
				reader.close();
				return n;
			};
			store.log({ host: 'accounts', entry: { build: () => ({ i: 0 }) } });
			vi.advanceTimersByTime(150);
			expect(written()).toBe(0);
			vi.advanceTimersByTime(100);
			expect(written()).toBe(1);
			// A request every 50 ms never leaves the sandbox idle; the oldest entry still waits at most 5 s.
			for (let i = 1; i <= 110; i++) {
				store.log({ host: 'accounts', entry: { build: () => ({ i }) } });
				vi.advanceTimersByTime(50);
			}
			expect(written()).toBeGreaterThan(1);
			expect(written()).toBeLessThan(111);
			store.close();
			expect(written()).toBe(111);
		} finally {
			vi.useRealTimers();
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('clear empties everything', () => {
		const { store } = storeWithUser();
		expect(store.isEmpty()).toBe(false);
		store.clear();
		expect(store.isEmpty()).toBe(true);
	});
});

describe('store: persistence', () => {
	let dir: string | undefined;
	afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

	it('keeps clients, users, codes, tokens and the clock across a reopen', () => {
		dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'));
		const path = join(dir, 'sandbox.db');
		let store: SandboxStore = openStore(path);
		store.upsertClient(client);
		const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const spare = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		const exchange = store.exchangeCode(code, 'c1', 'https://app.example/cb');
		if (!exchange.ok) throw new Error('exchange failed');
		store.advanceClock(3600);
		store.close();

		store = openStore(path);
		expect(store.getClient('c1')).toEqual(client);
		expect(store.authenticateUser('a@example.com', 'pw')?.sbid_number).toBe(user.sbid_number);
		expect(store.lookupAccessToken(exchange.tokens.access_token).kind).toBe('valid');
		expect(store.refresh(exchange.tokens.refresh_token, 'c1').ok).toBe(true);
		expect(store.exchangeCode(spare, 'c1', 'https://app.example/cb').ok).toBe(true);
		expect(store.now().getTime() - Date.now()).toBeGreaterThan(3500_000);
		store.close();
	});
});

describe('store: codes and tokens issued before they carried their row id', () => {
	let dir: string | undefined;
	afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

	/** A database file with client c1 and one user, closed so the test can write old rows into it. */
	function databaseWithClientAndUser() {
		dir = mkdtempSync(join(tmpdir(), 'store-legacy-'));
		const path = join(dir, 'sandbox.db');
		const store = openStore(path);
		store.upsertClient(client);
		const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
		store.close();
		return { path, user };
	}

	/** Writes tokens the way the previous version did: a row keyed by the SHA-256 of the token, in `tokens`. */
	function issueLegacyTokens(path: string, userId: number, createdMs: number) {
		const access = randomBytes(32).toString('base64url');
		const refresh = randomBytes(32).toString('base64url');
		const db = new Database(path);
		const insert = db.prepare('INSERT INTO tokens (token_hash, kind, client_id, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)');
		const digest = (token: string) => createHash('sha256').update(token).digest('hex');
		insert.run(digest(access), 'access', 'c1', userId, createdMs, createdMs + LIMITS.accessTokenExpiresIn * 1000);
		insert.run(digest(refresh), 'refresh', 'c1', userId, createdMs, null);
		db.close();
		return { access, refresh };
	}

	/** Writes a code the way the previous version did: a row keyed by the SHA-256 of the code, in `codes`. */
	function issueLegacyCode(path: string, userId: number, createdMs: number): string {
		const code = randomBytes(32).toString('base64url');
		const db = new Database(path);
		db.prepare('INSERT INTO codes (code_hash, client_id, user_id, redirect_uri, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)').run(
			createHash('sha256').update(code).digest('hex'), 'c1', userId, 'https://app.example/cb', createdMs, createdMs + LIMITS.codeTtlSeconds * 1000
		);
		db.close();
		return code;
	}

	it('still exchanges old codes once, with the precise causes, and purges them when long expired', () => {
		const { path, user } = databaseWithClientAndUser();
		const code = issueLegacyCode(path, user.id, Date.now());
		const expired = issueLegacyCode(path, user.id, Date.now() - (LIMITS.codeTtlSeconds + 2 * 24 * 3600) * 1000);

		const store = openStore(path);
		expect(store.lookupAccessToken(code).kind).toBe('grant-code');
		expect(store.exchangeCode(code, 'c2', 'https://app.example/cb')).toEqual({ ok: false, cause: 'other-client' });
		expect(store.exchangeCode(code, 'c1', 'https://app.example/other')).toEqual({ ok: false, cause: 'redirect-mismatch' });
		const exchanged = store.exchangeCode(code, 'c1', 'https://app.example/cb');
		expect(exchanged.ok && store.lookupAccessToken(exchanged.tokens.access_token).kind).toBe('valid');
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'used' });
		expect(store.exchangeCode(expired, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'expired' });
		store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		expect(store.exchangeCode(expired, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
		store.close();
	});

	it('still finds old tokens: me.json, refresh once, expiry and purge', () => {
		const { path, user } = databaseWithClientAndUser();
		const legacy = issueLegacyTokens(path, user.id, Date.now());
		const expired = issueLegacyTokens(path, user.id, Date.now() - (LIMITS.accessTokenExpiresIn + 2 * 24 * 3600) * 1000);

		const store = openStore(path);
		expect(store.lookupAccessToken(legacy.access).kind).toBe('valid');
		expect(store.lookupAccessToken(legacy.refresh).kind).toBe('refresh-token');
		expect(store.refresh(legacy.refresh, 'c2')).toEqual({ ok: false, cause: 'other-client' });
		const refreshed = store.refresh(legacy.refresh, 'c1');
		expect(refreshed.ok).toBe(true);
		expect(store.refresh(legacy.refresh, 'c1')).toEqual({ ok: false, cause: 'used' });
		if (refreshed.ok) expect(store.lookupAccessToken(refreshed.tokens.access_token).kind).toBe('valid');
		expect(store.lookupAccessToken(expired.access).kind).toBe('expired');
		// Issuing a code purges what expired more than the grace ago, old tokens included.
		store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		expect(store.lookupAccessToken(expired.access).kind).toBe('unknown');
		expect(store.lookupAccessToken(legacy.access).kind).toBe('valid');
		store.close();
	});
});

/** A database as an older version left it: WAL, no auto-vacuum, a clock offset set. */
function databaseWithoutAutoVacuum(path: string): void {
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	db.exec('CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), clock_offset_ms INTEGER NOT NULL); INSERT INTO settings VALUES (1, 86400000);');
	db.close();
}

describe('store: files after a purge', () => {
	it('turns on auto-vacuum in a database made without it, keeping its data', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-old-'));
		try {
			const path = join(dir, 'sandbox.db');
			databaseWithoutAutoVacuum(path);
			const store = openStore(path);
			expect(store.now().getTime() - Date.now()).toBeGreaterThan(86_000_000);
			store.close();
			const db = new Database(path, { readonly: true });
			expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
			db.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it.each([
		['a new database', () => {}],
		['a database made before auto-vacuum', databaseWithoutAutoVacuum]
	])('gives the space of purged codes back in %s: the database file shrinks again, and the WAL stays bounded', (_, prepare) => {
		const dir = mkdtempSync(join(tmpdir(), 'store-purge-'));
		try {
			const path = join(dir, 'sandbox.db');
			prepare(path);
			const store = openStore(path);
			store.upsertClient(client);
			const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
			const issue = (n: number) =>
				store.transaction(() => {
					for (let i = 0; i < n; i++) store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
				});
			const sizes = () => ({ db: statSync(path).size, wal: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0 });
			for (let i = 0; i < 20; i++) issue(1000);
			const total = ({ db, wal }: { db: number; wal: number }) => db + wal;
			const peak = total(sizes());
			store.advanceClock(3 * 24 * 3600); // past the codes' 2 hours and the purge's grace
			for (let i = 0; i < 250; i++) issue(1); // ordinary traffic: each new code purges up to 100 expired ones
			store.close();
			const after = sizes();
			expect(total(after)).toBeLessThan(peak / 4);
			expect(after.wal).toBeLessThanOrEqual(4 * 1024 * 1024);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('shrinks the database file within a second of a purge while it keeps running, though traffic stopped', () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		const dir = mkdtempSync(join(tmpdir(), 'store-purge-'));
		try {
			const path = join(dir, 'sandbox.db');
			const store = openStore(path);
			store.upsertClient(client);
			const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
			const issue = (n: number) =>
				store.transaction(() => {
					for (let i = 0; i < n; i++) store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
				});
			for (let i = 0; i < 20; i++) issue(1000);
			const other = new Database(path);
			other.pragma('wal_checkpoint(PASSIVE)'); // the codes in the file itself, as after SQLite's own checkpoint
			other.close();
			const peak = statSync(path).size;
			store.advanceClock(3 * 24 * 3600);
			for (let i = 0; i < 3; i++) issue(1); // each purges 100 codes and gives their pages back
			// Far fewer than SQLite's 1000 pages were written since the last checkpoint: SQLite would not copy them yet.
			expect(statSync(path).size).toBe(peak);
			vi.advanceTimersByTime(1000);
			const reader = new Database(path, { readonly: true });
			const logicalSize = (reader.pragma('page_count', { simple: true }) as number) * (reader.pragma('page_size', { simple: true }) as number);
			reader.close();
			expect(logicalSize).toBeLessThan(peak);
			expect(statSync(path).size).toBe(logicalSize);
			store.close();
		} finally {
			vi.useRealTimers();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
