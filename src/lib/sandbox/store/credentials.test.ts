import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../protocol';
import { client, storeWithUser } from './test-support';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

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
});
