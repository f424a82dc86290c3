/**
 * Grant codes, access tokens and refresh tokens. A code or token carries the id of its row, hidden with a key
 * (`credential-codec.ts`), and the row holds only a keyed digest of the rest, so the database never holds a usable
 * credential, and finding one reads the row it names instead of an index of random digests, whose page writes and
 * reads dominated the token endpoint. Access tokens once found are remembered in memory (me.json's path).
 *
 * Each row names its workspace, and times are on that workspace's clock. A workspace's view passes itself in: a
 * code or token of another workspace is unknown to it, exactly like one never issued.
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
	workspace: string;
	check_digest: Buffer;
	client_id: string;
	user_id: number;
	redirect_uri: string;
	expires_ms: number;
	used_ms: number | null;
}

interface TokenRow {
	id: number;
	workspace: string;
	check_digest: Buffer;
	kind: 'access' | 'refresh';
	client_id: string;
	user_id: number;
	expires_ms: number | null;
	retired_ms: number | null;
}

/** The workspace a credential is issued or presented in: its id and its clock. */
export interface CredentialScope {
	readonly id: string;
	readonly clock: SandboxClock;
}

export interface Credentials {
	issueCode(scope: CredentialScope, binding: { clientId: string; userId: number; redirectUri: string }): string;
	exchangeCode(scope: CredentialScope, code: string, clientId: string, redirectUri: string): CodeExchange;
	refresh(scope: CredentialScope, refreshToken: string, clientId: string): RefreshResult;
	/** The token looked up in whichever workspace issued it, on that workspace's clock. */
	lookupAccessToken(token: string): { lookup: AccessTokenLookup; workspace: string | null };
	/** Drops every remembered access token (after a rollback, a purge or a clear). */
	forget(): void;
}

interface Dependencies {
	/** The clock of a workspace that exists. */
	clockOf: (workspace: string) => SandboxClock | undefined;
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

export function openCredentials(db: Database.Database, { clockOf, users, clients, transactions, purger }: Dependencies): Credentials {
	const sql = {
		getCredentialKey: db.prepare<[string], { key: Buffer }>('SELECT key FROM credential_keys WHERE kind = ?'),
		setCredentialKey: db.prepare<[string, Buffer]>('INSERT INTO credential_keys (kind, key) VALUES (?, ?)'),
		insertCode: db.prepare<[string, Buffer, string, number, string, number, number]>(
			'INSERT INTO issued_codes (workspace, check_digest, client_id, user_id, redirect_uri, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)'
		),
		getCode: db.prepare<[number], CodeRow>('SELECT * FROM issued_codes WHERE id = ?'),
		// The one statement that makes a code single use: of racing exchanges, exactly one changes the row.
		consumeCode: db.prepare<[number, number, string, string, number], { user_id: number }>(
			`UPDATE issued_codes SET used_ms = ? WHERE id = ? AND used_ms IS NULL AND client_id = ? AND redirect_uri = ?
			 AND expires_ms > ? RETURNING user_id`
		),
		insertToken: db.prepare<[string, Buffer, string, string, number, number, number | null]>(
			'INSERT INTO issued_tokens (workspace, check_digest, kind, client_id, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)'
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

	function issueToken(workspace: string, kind: TokenRow['kind'], clientId: string, userId: number, now: number, expiresMs: number | null): string {
		const minted = tokenCodec.mint(takeRandom(VERIFIER_BYTES));
		return minted.encode(Number(sql.insertToken.run(workspace, minted.check, kind, clientId, userId, now, expiresMs).lastInsertRowid));
	}

	function issueTokens(workspace: string, clientId: string, userId: number, now: number): IssuedTokens {
		return {
			access_token: issueToken(workspace, 'access', clientId, userId, now, now + LIMITS.accessTokenExpiresIn * 1000),
			refresh_token: issueToken(workspace, 'refresh', clientId, userId, now, null),
			created_at: Math.floor(now / 1000),
			expires_in: LIMITS.accessTokenExpiresIn
		};
	}

	/** Whether the token is still valid: its user and client exist, in its workspace, on whose clock it has not expired. */
	function accessLookup(row: TokenRow): AccessTokenLookup {
		const clock = clockOf(row.workspace);
		if (!clock) return { kind: 'unknown' };
		if (row.expires_ms !== null && row.expires_ms <= clock.nowMs()) return { kind: 'expired', expiredAt: new Date(row.expires_ms) };
		const user = users.find(row.user_id);
		const client = clients.find(row.client_id);
		// A token outlives neither its user nor its client (both can be replaced through the control API).
		if (user?.workspace !== row.workspace || client?.workspace !== row.workspace) return { kind: 'unknown' };
		return { kind: 'valid', user: user.user, client: client.client };
	}

	return {
		issueCode(scope, { clientId, userId, redirectUri }) {
			const now = scope.clock.nowMs();
			if (purger.purgeExpired(scope.id, now) > 0) accessTokens.clear();
			const minted = codeCodec.mint(takeRandom(VERIFIER_BYTES));
			const expiresMs = now + LIMITS.codeTtlSeconds * 1000;
			return minted.encode(Number(sql.insertCode.run(scope.id, minted.check, clientId, userId, redirectUri, now, expiresMs).lastInsertRowid));
		},

		exchangeCode: transactions.wrap((scope: CredentialScope, code: string, clientId: string, redirectUri: string): CodeExchange => {
			const now = scope.clock.nowMs();
			const row = findCode(code);
			if (!row || row.workspace !== scope.id) return { ok: false, cause: 'unknown-code' };
			const consumed = sql.consumeCode.get(now, row.id, clientId, redirectUri, now);
			if (!consumed) return { ok: false, cause: exchangeFailure(row, clientId, redirectUri, now) };
			return { ok: true, tokens: issueTokens(scope.id, clientId, consumed.user_id, now), userId: consumed.user_id };
		}),

		refresh: transactions.wrap((scope: CredentialScope, refreshToken: string, clientId: string): RefreshResult => {
			const now = scope.clock.nowMs();
			const row = findToken(refreshToken);
			if (!row || row.kind !== 'refresh' || row.workspace !== scope.id) return { ok: false, cause: 'unknown-token' };
			const retired = sql.retireRefresh.run(now, row.id, clientId);
			if (retired.changes !== 1) return { ok: false, cause: row.client_id !== clientId ? 'other-client' : 'used' };
			return { ok: true, tokens: issueTokens(scope.id, clientId, row.user_id, now) };
		}),

		lookupAccessToken(token) {
			let row = accessTokens.get(token);
			if (!row) {
				const found = findToken(token);
				if (!found) {
					const code = findCode(token);
					return code ? { lookup: { kind: 'grant-code' }, workspace: code.workspace } : { lookup: { kind: 'unknown' }, workspace: null };
				}
				if (found.kind === 'refresh') return { lookup: { kind: 'refresh-token' }, workspace: found.workspace };
				setRecent(accessTokens, token, found, ACCESS_TOKEN_CACHE_SIZE);
				row = found;
			}
			return { lookup: accessLookup(row), workspace: row.workspace };
		},

		forget: () => accessTokens.clear()
	};
}
