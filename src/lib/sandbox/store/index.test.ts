import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../protocol';
import { openStore, type SandboxStore, type SandboxVerification } from '.';
import { client, storeWithUser } from './test-support';

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
		// Their types already forbid it (read-only); the casts are a caller that ignores the types.
		expect(() => (lookup.user.verifications as SandboxVerification[]).push({ supergroup: 'graduate', expires_on: '2099-01-01' })).toThrow(TypeError);
		expect(() => ((lookup.client.redirect_uris as string[])[0] = 'https://evil.example/')).toThrow(TypeError);
		expect(store.getClient('c1')?.redirect_uris).toEqual(['https://app.example/cb']);
	});
});

describe('store: clear', () => {
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
