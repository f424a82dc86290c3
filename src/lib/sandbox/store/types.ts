/**
 * What the sandbox store holds and hands out, and the `SandboxStore` interface the rest of the sandbox uses.
 *
 * Users and clients come out of in-memory caches shared by every caller, so they are read-only, in their types
 * and at run time (frozen): a write to the store makes a new object, never changes one already handed out.
 */
import type { CausesOf, OutcomeId, OutcomeOfStage, OutcomeStage, Supergroup } from '../../protocol';
import type { LogEntry, LogEntryInput, LogListener } from '../log';

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

/** A pending outcome rule (sandbox choice 'outcome-rules'). Times are ISO instants on the workspace clock. */
export interface OutcomeRule {
	readonly outcome: OutcomeId;
	readonly stage: OutcomeStage;
	readonly setAt: string;
}

export interface UsedOutcomeRule extends OutcomeRule {
	readonly usedAt: string;
	/** Which request used it, such as `POST /oauth/token`. */
	readonly request: string;
}

export interface OutcomeRules {
	/** At most one per stage. */
	pending: OutcomeRule[];
	/** Newest first. */
	used: UsedOutcomeRule[];
}

/** `default` holds the shipped fixtures and always exists; `normal` ones are made with `createWorkspace`. */
export type WorkspaceKind = 'default' | 'normal';
/** What a workspace was made with, and what `POST /sandbox/reset` brings it back to. */
export type WorkspaceFixtures = 'demo' | 'empty';

/** The id of the workspace holding the shipped fixtures, made with every database. */
export const DEFAULT_WORKSPACE_ID = 'default';

export interface WorkspaceInfo {
	readonly id: string;
	readonly kind: WorkspaceKind;
	readonly name: string;
	readonly fixtures: WorkspaceFixtures;
	/** Real time (ms), not the workspace clock. */
	readonly createdMs: number;
	/** Real time (ms) of the last request that found this workspace. */
	readonly lastUsedMs: number;
	/** Made by a visitor of a public sandbox (not by its operator): the one kind removed to make room when it is full. */
	readonly anonymous: boolean;
}

/** What a workspace is made with. */
export interface NewWorkspace {
	name?: string;
	fixtures: WorkspaceFixtures;
	/** A public sandbox's visitor makes it (workspace-admission.ts); false when absent. */
	anonymous?: boolean;
}

/** A client together with the workspace it belongs to (client ids are unique across workspaces). */
export interface FoundClient {
	client: SandboxClient;
	workspace: SandboxWorkspace;
}

/** A client id already used by another workspace: ids are unique across the sandbox, since requests find their workspace by it. */
export class ClientIdTakenError extends Error {
	constructor(readonly clientId: string) {
		super(`client_id \`${clientId}\` is taken`);
	}
}

/**
 * One sandbox world: its own clients, users, codes, tokens, clock and request log. Every method sees and changes
 * only this workspace: a client, user, code or token of another one is unknown here.
 */
export interface SandboxWorkspace {
	readonly id: string;
	info(): WorkspaceInfo;
	/** Marks the workspace as used now (real time): idle workspaces expire. */
	touch(): void;

	/** The workspace clock: real time plus the workspace's offset. */
	now(): Date;
	/** YYYY-MM-DD (UTC) on the workspace clock. */
	today(): string;
	advanceClock(seconds: number): Date;
	/** Sets the workspace clock to any instant, backwards too; it runs on from there. */
	setClock(at: Date): Date;
	/** Back to real time. */
	resetClock(): Date;

	getClient(clientId: string): SandboxClient | undefined;
	/** This workspace's client, as a `FoundClient`. */
	findClient(clientId: string): FoundClient | undefined;
	listClients(): SandboxClient[];
	/** Throws `ClientIdTakenError` when another workspace has the client id. */
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

	/** Issues a grant code bound to the client, the user and the exact redirect URI string (all of this workspace). */
	issueCode(binding: { clientId: string; userId: number; redirectUri: string }): string;
	/**
	 * Consumes the code (atomically: of many racing calls exactly one succeeds) and issues tokens. A failed
	 * exchange consumes nothing, and a replay leaves the first tokens valid (sandbox choice 'replayed-code').
	 * A code of another workspace is unknown here.
	 */
	exchangeCode(code: string, clientId: string, redirectUri: string): CodeExchange;
	/** Retires the refresh token (atomically) and issues new tokens. */
	refresh(refreshToken: string, clientId: string): RefreshResult;
	lookupAccessToken(token: string): AccessTokenLookup;

	/** Sets a one-shot outcome rule on this workspace's client, replacing its pending rule of the same stage; throws for a client of no workspace or another's. */
	setOutcome(clientId: string, outcome: OutcomeId): void;
	/** Removes the client's pending rules (only `outcome`'s when given); answers how many were removed. */
	clearOutcomes(clientId: string, outcome?: OutcomeId): number;
	/** The client's pending and used rules; none for a client of another workspace. */
	outcomeRules(clientId: string): OutcomeRules;
	/** The client's pending rule of `stage`, left pending; null when none. */
	pendingOutcome<S extends OutcomeStage>(clientId: string, stage: S): OutcomeOfStage<S> | null;
	/** The client's pending rule of `stage`, now marked used by `request`; null when none (a lookup in memory). */
	takeOutcome<S extends OutcomeStage>(clientId: string, stage: S, request: string): OutcomeOfStage<S> | null;

	log(input: LogEntryInput): void;
	recentLog(limit: number): LogEntry[];
	/** Each entry this workspace's log records from now on, as it is recorded (see LogBuffer.subscribe). */
	subscribeLog(listener: LogListener): () => void;

	/** Removes this workspace's clients, users, codes, tokens and log, and sets its clock back to real time. */
	clear(): void;
	/** No clients and no users. */
	isEmpty(): boolean;
	transaction<T>(fn: () => T): T;
	/**
	 * Runs `fn` in one transaction with every other call made in the same turn of the event loop, and resolves
	 * once that transaction has committed (group commit): a burst of token requests pays for one commit, not one
	 * each, and no answer leaves before what it reports is written. `fn` runs in its own savepoint, so one that
	 * throws undoes only its own changes and rejects only its own promise.
	 */
	sharedTransaction<T>(fn: () => T): Promise<T>;
}

/** An access token found in whichever workspace issued it (me.json finds its workspace by the token). */
export interface AccessTokenFound {
	lookup: AccessTokenLookup;
	/** The workspace that issued the credential (an access token, or a code or refresh token sent in its place); null when none did. */
	workspace: SandboxWorkspace | null;
}

export interface CreatedWorkspace {
	workspace: SandboxWorkspace;
	/** The workspace's key: shown once, stored only as a digest. */
	key: string;
}

/**
 * The whole sandbox: itself the default workspace (so the explorer and the fixtures use it as before), plus the
 * other workspaces and the lookups that find a request's workspace by what it carries.
 */
export interface SandboxStore extends SandboxWorkspace {
	workspace(id: string): SandboxWorkspace | undefined;
	/** The workspace a key opens (compared in constant time), or undefined: a wrong key and an unknown workspace look alike. */
	workspaceForKey(key: string): SandboxWorkspace | undefined;
	createWorkspace(options: NewWorkspace): CreatedWorkspace;
	/** Removes a normal workspace and everything in it; false for the default one or an unknown id. */
	deleteWorkspace(id: string): boolean;
	/** Removes the normal workspaces last used before `beforeMs` (real time); returns their ids. */
	expireIdle(beforeMs: number): string[];
	workspaceCount(): number;
	/** Every workspace, the default one included. */
	listWorkspaces(): WorkspaceInfo[];

	/** The client with this id in any workspace, with its workspace. */
	findClientAnywhere(clientId: string): FoundClient | undefined;
	/** An access token looked up in whichever workspace issued it, on that workspace's clock. */
	findAccessToken(token: string): AccessTokenFound;

	close(): void;
}
