/**
 * Grant codes, access tokens and refresh tokens. A code or token carries the id of its row, hidden with a key
 * (`credential-codec.ts`), and the row holds only a keyed digest of the rest, so the database never holds a usable
 * credential, and finding one reads the row it names instead of an index of random digests, whose page writes and
 * reads dominated the token endpoint. Access tokens once found are remembered in memory (me.json's path).
 */
import type Database from 'better-sqlite3';
import { LIMITS } from '../../protocol';
import { setRecent } from '$lib/recent';
import { checksMatch, credentialCodec, VERIFIER_BYTES, type CredentialCodec } from '../credential-codec';
import type { Clients } from './clients';
import type { SandboxClock } from './clock';
import type { Purger } from './purge';
import { takeRandom } from './random';
import type { Transactions } from './transactions';
import type { AccessTokenLookup, CodeExchange, IssuedTokens, RefreshResult } from './types';
import type { Users } from './users';

/** Access tokens remembered in memory after a lookup; the oldest is forgotten first. */
const ACCESS_TOKEN_CACHE_SIZE = 10_000;

interface CodeRow {
	id: number;
	check_digest: Buffer;
	client_id: string;
	user_id: number;
	redirect_uri: string;
	expires_ms: number;
	used_ms: number | null;
}

interface TokenRow {
	id: number;
	check_digest: Buffer;
	kind: 'access' | 'refresh';
	client_id: string;
	user_id: number;
	expires_ms: number | null;
	retired_ms: number | null;
}

export interface Credentials {
	issueCode(binding: { clientId: string; userId: number; redirectUri: string }): string;
	exchangeCode(code: string, clientId: string, redirectUri: string): CodeExchange;
	refresh(refreshToken: string, clientId: string): RefreshResult;
	lookupAccessToken(token: string): AccessTokenLookup;
	/** Drops every remembered access token (after a rollback, a purge or a clear). */
	forget(): void;
}

interface Dependencies {
	clock: SandboxClock;
	users: Users;
	clients: Clients;
	transactions: Transactions;
	purger: Purger;
}

/** Why an exchange that changed no row failed. Other clients learn nothing about the code's state. */
function exchangeFailure(row: CodeRow, clientId: string, redirectUri: string, now: number) {
	if (row.client_id !== clientId) return 'other-client' as const;
	if (row.used_ms !== null) return 'used' as const;
	if (row.expires_ms <= now) return 'expired' as const;
	if (row.redirect_uri !== redirectUri) return 'redirect-mismatch' as const;
	return 'used' as const;
}

export function openCredentials(db: Database.Database, { clock, users, clients, transactions, purger }: Dependencies): Credentials {
	const sql = {
		getCredentialKey: db.prepare<[string], { key: Buffer }>('SELECT key FROM credential_keys WHERE kind = ?'),
		setCredentialKey: db.prepare<[string, Buffer]>('INSERT INTO credential_keys (kind, key) VALUES (?, ?)'),
		insertCode: db.prepare<[Buffer, string, number, string, number, number]>(
			'INSERT INTO issued_codes (check_digest, client_id, user_id, redirect_uri, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)'
		),
		getCode: db.prepare<[number], CodeRow>('SELECT * FROM issued_codes WHERE id = ?'),
		// The one statement that makes a code single use: of racing exchanges, exactly one changes the row.
		consumeCode: db.prepare<[number, number, string, string, number], { user_id: number }>(
			`UPDATE issued_codes SET used_ms = ? WHERE id = ? AND used_ms IS NULL AND client_id = ? AND redirect_uri = ?
			 AND expires_ms > ? RETURNING user_id`
		),
		insertToken: db.prepare<[Buffer, string, string, number, number, number | null]>(
			'INSERT INTO issued_tokens (check_digest, kind, client_id, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)'
		),
		getToken: db.prepare<[number], TokenRow>('SELECT * FROM issued_tokens WHERE id = ?'),
		retireRefresh: db.prepare<[number, number, string]>(
			`UPDATE issued_tokens SET retired_ms = ? WHERE id = ? AND kind = 'refresh' AND retired_ms IS NULL AND client_id = ?`
		)
	};

	/** The key of one kind of credential, made on first use and kept: codes and tokens outlive the process. */
	function credentialKey(kind: 'code' | 'token'): Buffer {
		const known = sql.getCredentialKey.get(kind)?.key;
		if (known) return known;
		const key = takeRandom(32);
		sql.setCredentialKey.run(kind, key);
		return key;
	}
	const codeCodec = credentialCodec(credentialKey('code'));
	const tokenCodec = credentialCodec(credentialKey('token'));

	/** The row a credential names, if its check matches. */
	function findRow<R extends { check_digest: Buffer }>(codec: CredentialCodec, credential: string, byId: Database.Statement<[number], R>): R | undefined {
		const named = codec.decode(credential);
		const row = named && byId.get(named.id);
		return row && checksMatch(row.check_digest, named.check) ? row : undefined;
	}
	const findCode = (code: string) => findRow(codeCodec, code, sql.getCode);
	const findToken = (token: string) => findRow(tokenCodec, token, sql.getToken);

	/** Raw access token → its row; only tokens that exist, so a flood of unknown tokens cannot fill it. */
	const accessTokens = new Map<string, TokenRow>();

	function issueToken(kind: TokenRow['kind'], clientId: string, userId: number, now: number, expiresMs: number | null): string {
		const minted = tokenCodec.mint(takeRandom(VERIFIER_BYTES));
		return minted.encode(Number(sql.insertToken.run(minted.check, kind, clientId, userId, now, expiresMs).lastInsertRowid));
	}

	function issueTokens(clientId: string, userId: number, now: number): IssuedTokens {
		return {
			access_token: issueToken('access', clientId, userId, now, now + LIMITS.accessTokenExpiresIn * 1000),
			refresh_token: issueToken('refresh', clientId, userId, now, null),
			created_at: Math.floor(now / 1000),
			expires_in: LIMITS.accessTokenExpiresIn
		};
	}

	return {
		issueCode({ clientId, userId, redirectUri }) {
			const now = clock.nowMs();
			if (purger.purgeExpired(now) > 0) accessTokens.clear();
			const minted = codeCodec.mint(takeRandom(VERIFIER_BYTES));
			const expiresMs = now + LIMITS.codeTtlSeconds * 1000;
			return minted.encode(Number(sql.insertCode.run(minted.check, clientId, userId, redirectUri, now, expiresMs).lastInsertRowid));
		},

		exchangeCode: transactions.wrap((code: string, clientId: string, redirectUri: string): CodeExchange => {
			const now = clock.nowMs();
			const row = findCode(code);
			if (!row) return { ok: false, cause: 'unknown-code' };
			const consumed = sql.consumeCode.get(now, row.id, clientId, redirectUri, now);
			if (!consumed) return { ok: false, cause: exchangeFailure(row, clientId, redirectUri, now) };
			return { ok: true, tokens: issueTokens(clientId, consumed.user_id, now), userId: consumed.user_id };
		}),

		refresh: transactions.wrap((refreshToken: string, clientId: string): RefreshResult => {
			const now = clock.nowMs();
			const row = findToken(refreshToken);
			if (!row || row.kind !== 'refresh') return { ok: false, cause: 'unknown-token' };
			const retired = sql.retireRefresh.run(now, row.id, clientId);
			if (retired.changes !== 1) return { ok: false, cause: row.client_id !== clientId ? 'other-client' : 'used' };
			return { ok: true, tokens: issueTokens(clientId, row.user_id, now) };
		}),

		lookupAccessToken(token) {
			let row = accessTokens.get(token);
			if (!row) {
				const found = findToken(token);
				if (!found) return findCode(token) ? { kind: 'grant-code' } : { kind: 'unknown' };
				if (found.kind === 'refresh') return { kind: 'refresh-token' };
				setRecent(accessTokens, token, found, ACCESS_TOKEN_CACHE_SIZE);
				row = found;
			}
			if (row.expires_ms !== null && row.expires_ms <= clock.nowMs()) return { kind: 'expired', expiredAt: new Date(row.expires_ms) };
			const user = users.get(row.user_id);
			const client = clients.get(row.client_id);
			// A token outlives neither its user nor its client (both can be replaced through the control API).
			if (!user || !client) return { kind: 'unknown' };
			return { kind: 'valid', user, client };
		},

		forget: () => accessTokens.clear()
	};
}
