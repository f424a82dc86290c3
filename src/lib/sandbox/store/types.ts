/**
 * What the sandbox store holds and hands out, and the `SandboxStore` interface the rest of the sandbox uses.
 *
 * Users and clients come out of in-memory caches shared by every caller, so they are read-only, in their types
 * and at run time (frozen): a write to the store makes a new object, never changes one already handed out.
 */
import type { CausesOf, Supergroup } from '../../protocol';
import type { LogEntry, LogEntryInput } from '../request-log';

export type VerificationKey = 'supergroup' | 'group';

export interface SandboxClient {
	readonly client_id: string;
	readonly client_secret: string;
	readonly name: string;
	readonly redirect_uris: readonly string[];
	readonly countries: readonly string[];
	readonly verification_key: VerificationKey;
}

export interface SandboxVerification {
	readonly supergroup: Supergroup;
	/** YYYY-MM-DD: the first day on which the verification is no longer valid (2.4). */
	readonly expires_on: string;
}

export interface SandboxUser {
	readonly id: number;
	readonly login: string;
	readonly sbid_number: string;
	readonly verifications: readonly SandboxVerification[];
	readonly deletion_requested: boolean;
}

export interface PasswordHash {
	hash: string;
}

export interface UserInput {
	login: string;
	/**
	 * A password, or a hash made by `hashPassword` (fixtures hash their shared password once). Absent: an existing
	 * user keeps theirs (the control panel edits users without knowing their passwords); a new user needs one.
	 */
	password?: string | PasswordHash;
	verifications: readonly SandboxVerification[];
	deletion_requested?: boolean;
	/** Kept when the user exists; generated when absent on creation. */
	sbid_number?: string;
}

export interface IssuedTokens {
	access_token: string;
	refresh_token: string;
	/** Unix seconds on the sandbox clock. */
	created_at: number;
	expires_in: number;
}

export type CodeExchange =
	| { ok: true; tokens: IssuedTokens; userId: number }
	| { ok: false; cause: CausesOf<'token-invalid-grant', 'unknown-code' | 'used' | 'expired' | 'other-client' | 'redirect-mismatch'> };

export type RefreshResult =
	| { ok: true; tokens: IssuedTokens }
	| { ok: false; cause: 'unknown-token' | CausesOf<'token-invalid-grant', 'used' | 'other-client'> };

export type ClientAuthentication =
	| { ok: true; client: SandboxClient }
	| { ok: false; cause: CausesOf<'token-invalid-client', 'unknown-client' | 'wrong-secret'> };

export type AccessTokenLookup =
	| { kind: 'valid'; user: SandboxUser; client: SandboxClient }
	| { kind: 'expired'; expiredAt: Date }
	| { kind: 'grant-code' }
	| { kind: 'refresh-token' }
	| { kind: 'unknown' };

export interface SandboxStore {
	/** The sandbox clock: real time plus the offset. */
	now(): Date;
	/** YYYY-MM-DD (UTC) on the sandbox clock. */
	today(): string;
	advanceClock(seconds: number): Date;

	getClient(clientId: string): SandboxClient | undefined;
	listClients(): SandboxClient[];
	upsertClient(client: SandboxClient): SandboxClient;
	/** Constant-time check of a client's secret. */
	authenticateClient(clientId: string, clientSecret: string): ClientAuthentication;

	getUser(id: number): SandboxUser | undefined;
	getUserByLogin(login: string): SandboxUser | undefined;
	listUsers(): SandboxUser[];
	upsertUser(input: UserInput): SandboxUser;
	/** Constant-time password check (scrypt); undefined for an unknown login or a wrong password. */
	authenticateUser(login: string, password: string): SandboxUser | undefined;
	addVerification(userId: number, supergroup: Supergroup, expiresOn: string): SandboxUser;

	/** Issues a grant code bound to the client, the user and the exact redirect URI string. */
	issueCode(binding: { clientId: string; userId: number; redirectUri: string }): string;
	/**
	 * Consumes the code (atomically: of many racing calls exactly one succeeds) and issues tokens. A failed
	 * exchange consumes nothing, and a replay leaves the first tokens valid (sandbox choice 'replayed-code').
	 */
	exchangeCode(code: string, clientId: string, redirectUri: string): CodeExchange;
	/** Retires the refresh token (atomically) and issues new tokens. */
	refresh(refreshToken: string, clientId: string): RefreshResult;
	lookupAccessToken(token: string): AccessTokenLookup;

	log(input: LogEntryInput): void;
	recentLog(limit: number): LogEntry[];

	/** Removes everything (clients, users, codes, tokens, log) and sets the clock back to real time. */
	clear(): void;
	isEmpty(): boolean;
	transaction<T>(fn: () => T): T;
	/**
	 * Runs `fn` in one transaction with every other call made in the same turn of the event loop, and resolves
	 * once that transaction has committed (group commit): a burst of token requests pays for one commit, not one
	 * each, and no answer leaves before what it reports is written. `fn` runs in its own savepoint, so one that
	 * throws undoes only its own changes and rejects only its own promise.
	 */
	sharedTransaction<T>(fn: () => T): Promise<T>;
	close(): void;
}
