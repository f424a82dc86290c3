/**
 * The sandbox's state in SQLite (better-sqlite3, WAL): clients, users and their verifications, grant codes,
 * tokens, the request log and the sandbox clock. A code or token carries the id of its row (hidden, see
 * `credential-codec.ts`), and the row holds only a digest of the rest, so the database never holds a usable
 * credential; passwords are scrypt hashes. Finding a credential by its id needs no index of random digests, whose
 * page writes and reads dominated the token endpoint.
 *
 * All times are on the sandbox clock (real time plus an offset that `POST /sandbox/clock` moves forward).
 */
import Database from 'better-sqlite3';
import { openCheckedDatabase } from '../sqlite/open-checked';
import { hash, randomBytes, randomFillSync, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';
import { LIMITS, type Supergroup } from '../protocol';
import { checksMatch, credentialCodec, CREDENTIAL_BYTES, VERIFIER_BYTES, type CredentialCodec } from './credential-codec';
import { setRecent } from '$lib/recent';

export type VerificationKey = 'supergroup' | 'group';

export interface SandboxClient {
	client_id: string;
	client_secret: string;
	name: string;
	redirect_uris: string[];
	countries: string[];
	verification_key: VerificationKey;
}

export interface SandboxVerification {
	supergroup: Supergroup;
	/** YYYY-MM-DD: the first day on which the verification is no longer valid (2.4). */
	expires_on: string;
}

export interface SandboxUser {
	id: number;
	login: string;
	sbid_number: string;
	verifications: SandboxVerification[];
	deletion_requested: boolean;
}

export interface UserInput {
	login: string;
	/**
	 * A password, or a hash made by `hashPassword` (fixtures hash their shared password once). Absent: an existing
	 * user keeps theirs (the control panel edits users without knowing their passwords); a new user needs one.
	 */
	password?: string | PasswordHash;
	verifications: SandboxVerification[];
	deletion_requested?: boolean;
	/** Kept when the user exists; generated when absent on creation. */
	sbid_number?: string;
}

export interface PasswordHash {
	hash: string;
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
	| { ok: false; cause: 'unknown-code' | 'used' | 'expired' | 'other-client' | 'redirect-mismatch' };

export type RefreshResult =
	| { ok: true; tokens: IssuedTokens }
	| { ok: false; cause: 'unknown-token' | 'used' | 'other-client' };

export type ClientAuthentication =
	| { ok: true; client: SandboxClient }
	| { ok: false; cause: 'unknown-client' | 'wrong-secret' };

export type AccessTokenLookup =
	| { kind: 'valid'; user: SandboxUser; client: SandboxClient }
	| { kind: 'expired'; expiredAt: Date }
	| { kind: 'grant-code' }
	| { kind: 'refresh-token' }
	| { kind: 'unknown' };

export interface LogEntrySource {
	/**
	 * Builds the JSON-serialisable record of the exchange, already masked. Called only for entries the log keeps
	 * when it is written, so a burst of requests costs the building of the last `LOG_CAPACITY` only.
	 */
	build(): unknown;
}

export interface LogEntryInput {
	host: 'authorisation' | 'accounts';
	entry: LogEntrySource;
}

export interface LogEntry {
	id: number;
	at: string;
	host: 'authorisation' | 'accounts';
	entry: unknown;
}

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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	clock_offset_ms INTEGER NOT NULL
);
INSERT OR IGNORE INTO settings (id, clock_offset_ms) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS clients (
	client_id TEXT PRIMARY KEY,
	client_secret TEXT NOT NULL,
	name TEXT NOT NULL,
	redirect_uris TEXT NOT NULL,
	countries TEXT NOT NULL,
	verification_key TEXT NOT NULL CHECK (verification_key IN ('supergroup', 'group'))
);
CREATE TABLE IF NOT EXISTS users (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	login TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	sbid_number TEXT NOT NULL UNIQUE,
	deletion_requested INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS verifications (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	supergroup TEXT NOT NULL,
	expires_on TEXT NOT NULL,
	PRIMARY KEY (user_id, supergroup)
);
-- Codes issued before codes carried their row id, found by digest. None are added; they go as they expire.
CREATE TABLE IF NOT EXISTS codes (
	code_hash TEXT PRIMARY KEY,
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	redirect_uri TEXT NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER NOT NULL,
	used_ms INTEGER
);
CREATE INDEX IF NOT EXISTS codes_expiry ON codes (expires_ms);
-- Tokens issued before tokens carried their row id, found by digest. None are added; access tokens go as they
-- expire, refresh tokens (which never expire) stay.
CREATE TABLE IF NOT EXISTS tokens (
	token_hash TEXT PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER,
	retired_ms INTEGER
);
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_ms);
-- Tokens found by the row id they carry; the check is a keyed digest of the rest of the token (CredentialCodec).
CREATE TABLE IF NOT EXISTS issued_tokens (
	id INTEGER PRIMARY KEY,
	check_digest BLOB NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER,
	retired_ms INTEGER
);
-- Refresh tokens never expire, so only access tokens need to be found by expiry.
CREATE INDEX IF NOT EXISTS issued_tokens_expiry ON issued_tokens (expires_ms) WHERE expires_ms IS NOT NULL;
-- Codes found by the row id they carry, like issued_tokens.
CREATE TABLE IF NOT EXISTS issued_codes (
	id INTEGER PRIMARY KEY,
	check_digest BLOB NOT NULL,
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	redirect_uri TEXT NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER NOT NULL,
	used_ms INTEGER
);
CREATE INDEX IF NOT EXISTS issued_codes_expiry ON issued_codes (expires_ms);
-- The keys that hide row ids in codes and in tokens (credential-codec.ts), one per kind of credential.
CREATE TABLE IF NOT EXISTS credential_keys (
	kind TEXT PRIMARY KEY CHECK (kind IN ('code', 'token')),
	key BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS request_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	at TEXT NOT NULL,
	host TEXT NOT NULL,
	entry TEXT NOT NULL
);
`;

/** How many log entries are kept; older ones are dropped as new ones arrive. */
const LOG_CAPACITY = 500;
/** Expired codes and tokens are kept this long (for a precise invalid_grant cause), then purged. */
const PURGE_GRACE_MS = 24 * 60 * 60 * 1000;
/** At most this many rows are purged per issue, so purging stays cheap. */
const PURGE_BATCH = 100;
/** Free pages given back to the file system after a purge: more than a purge frees, so the file keeps up. */
const VACUUM_PAGES = 64;
/** The WAL is cut back to this size after each checkpoint. */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;
/**
 * A purge shrinks the database file only once a checkpoint copies it there, and SQLite checkpoints only every
 * 1000 pages written: traffic that stops after a purge could leave the file at its old size. So a checkpoint
 * follows each purge within this long (at most one per period, and none while the process is exiting).
 */
const CHECKPOINT_AFTER_PURGE_MS = 1000;
/**
 * Log entries are written together once the sandbox has had no request for LOG_IDLE_MS, and at the latest
 * LOG_MAX_WAIT_MS after the oldest waiting one arrived; reading the log writes them first. Building and masking
 * 500 entries takes milliseconds, which a burst of traffic should not wait for.
 */
const LOG_IDLE_MS = 200;
const LOG_MAX_WAIT_MS = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Access tokens remembered in memory after a lookup; the oldest is forgotten first. */
const ACCESS_TOKEN_CACHE_SIZE = 10_000;

/**
 * Sandbox passwords are test passwords (the fixtures' are published): hashing keeps the database from holding a
 * usable credential, it need not slow an offline attack on real ones. N = 2048 costs ~4 ms a sign-in instead of
 * ~45 ms (16384), on the walk's path and 9 times per reset. Hashes record their N, so older ones still verify.
 */
const SCRYPT = { N: 2048, r: 8, p: 1, keyLength: 32 } as const;
const SBID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Random bytes drawn in blocks: one call into the CSPRNG per 128 credentials instead of one each. */
const randomPool = Buffer.alloc(128 * CREDENTIAL_BYTES);
let randomPoolOffset = randomPool.length;

/** `length` random bytes; each byte of the pool is used once, then wiped. */
function takeRandom(length: number): Buffer {
	if (randomPoolOffset + length > randomPool.length) {
		randomFillSync(randomPool);
		randomPoolOffset = 0;
	}
	const end = randomPoolOffset + length;
	const bytes = Buffer.from(randomPool.subarray(randomPoolOffset, end));
	randomPool.fill(0, randomPoolOffset, end);
	randomPoolOffset = end;
	return bytes;
}

/** 256 bits of randomness, URL-safe: sign-in sessions, their CSRF tokens, authorisation flows. */
export function randomCredential(): string {
	return takeRandom(CREDENTIAL_BYTES).toString('base64url');
}

function digest(value: string): Buffer {
	return hash('sha256', value, 'buffer');
}

function digestHex(value: string): string {
	return hash('sha256', value, 'hex');
}

/** Compares two strings in time independent of where they differ (equal-length digests). */
export function constantTimeEqual(a: string, b: string): boolean {
	return timingSafeEqual(digest(a), digest(b));
}

export function hashPassword(password: string): PasswordHash {
	const salt = randomBytes(16);
	const key = scryptSync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
	return { hash: `scrypt$${SCRYPT.N}$${salt.toString('base64')}$${key.toString('base64')}` };
}

function verifyPassword(password: string, stored: string): boolean {
	const [, n, salt, key] = stored.split('$');
	if (!n || !salt || !key) return false;
	const expected = Buffer.from(key, 'base64');
	const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: SCRYPT.r, p: SCRYPT.p });
	return timingSafeEqual(actual, expected);
}

/** Checked against when the login is unknown, so an unknown login takes as long as a wrong password. */
const DUMMY_PASSWORD_HASH = hashPassword(randomCredential()).hash;

function randomSbidNumber(): string {
	let value = '';
	for (let i = 0; i < LIMITS.sbidLength; i++) value += SBID_ALPHABET[randomInt(SBID_ALPHABET.length)];
	return value;
}

function deepFreeze<T extends object>(value: T): T {
	for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') deepFreeze(inner as object);
	return Object.freeze(value);
}

export function isoDay(date: Date): string {
	return date.toISOString().slice(0, 10);
}

interface ClientRow {
	client_id: string;
	client_secret: string;
	name: string;
	redirect_uris: string;
	countries: string;
	verification_key: VerificationKey;
}

interface UserRow {
	id: number;
	login: string;
	password_hash: string;
	sbid_number: string;
	deletion_requested: number;
}

interface CodeRow {
	/** Absent for a code issued before codes carried their row id: that one is found by its digest. */
	id?: number;
	client_id: string;
	user_id: number;
	redirect_uri: string;
	expires_ms: number;
	used_ms: number | null;
}

interface TokenRow {
	/** Absent for a token issued before tokens carried their row id: that one is found by its digest. */
	id?: number;
	kind: 'access' | 'refresh';
	client_id: string;
	user_id: number;
	expires_ms: number | null;
	retired_ms: number | null;
}

function clientFromRow(row: ClientRow): SandboxClient {
	return {
		client_id: row.client_id,
		client_secret: row.client_secret,
		name: row.name,
		redirect_uris: JSON.parse(row.redirect_uris) as string[],
		countries: JSON.parse(row.countries) as string[],
		verification_key: row.verification_key
	};
}

export function openStore(path: string): SandboxStore {
	const db = openCheckedDatabase(path, { what: "The sandbox's database", freshStart: 'the sandbox starts again from its fixtures' });
	// So the files shrink again once expired codes are purged: pages freed by the purge go back to the file system,
	// and the WAL is cut back after a checkpoint. Auto-vacuum takes effect only on a new database, and only when set
	// before anything (switching to WAL included) writes its first page.
	db.pragma('auto_vacuum = INCREMENTAL');
	db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
	db.pragma('journal_mode = WAL');
	// A database made before this setting keeps auto_vacuum = NONE until a VACUUM rebuilds it: done once, here.
	if (db.pragma('auto_vacuum', { simple: true }) === 0) {
		db.pragma('auto_vacuum = INCREMENTAL');
		db.exec('VACUUM');
	}
	// OFF: no fsync. A crash of the process loses nothing (every commit is handed to the OS before its answer is
	// sent; the SIGKILL fault test checks it); an OS crash or power cut could lose the last commits or damage the
	// file, a risk a sandbox of test data can take for the token endpoint's speed (fsyncs at checkpoints cost it a
	// third). The explorer's own runs database, which holds the user's work, keeps NORMAL.
	db.pragma('synchronous = OFF');
	db.pragma('foreign_keys = ON');
	db.pragma('busy_timeout = 5000');
	db.exec(SCHEMA);

	const sql = {
		getOffset: db.prepare<[], { clock_offset_ms: number }>('SELECT clock_offset_ms FROM settings WHERE id = 1'),
		setOffset: db.prepare<[number]>('UPDATE settings SET clock_offset_ms = ? WHERE id = 1'),
		getClient: db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE client_id = ?'),
		listClients: db.prepare<[], ClientRow>('SELECT * FROM clients ORDER BY client_id'),
		upsertClient: db.prepare(
			`INSERT INTO clients (client_id, client_secret, name, redirect_uris, countries, verification_key)
			 VALUES (@client_id, @client_secret, @name, @redirect_uris, @countries, @verification_key)
			 ON CONFLICT (client_id) DO UPDATE SET client_secret = excluded.client_secret, name = excluded.name,
			 redirect_uris = excluded.redirect_uris, countries = excluded.countries, verification_key = excluded.verification_key`
		),
		getUser: db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?'),
		getUserByLogin: db.prepare<[string], UserRow>('SELECT * FROM users WHERE login = ?'),
		listUsers: db.prepare<[], UserRow>('SELECT * FROM users ORDER BY id'),
		sbidTaken: db.prepare<[string], { id: number }>('SELECT id FROM users WHERE sbid_number = ?'),
		insertUser: db.prepare<[string, string, string, number]>(
			'INSERT INTO users (login, password_hash, sbid_number, deletion_requested) VALUES (?, ?, ?, ?)'
		),
		updateUser: db.prepare<[string, number, number]>('UPDATE users SET password_hash = ?, deletion_requested = ? WHERE id = ?'),
		verificationsOf: db.prepare<[number], SandboxVerification>(
			'SELECT supergroup, expires_on FROM verifications WHERE user_id = ? ORDER BY supergroup'
		),
		clearVerifications: db.prepare<[number]>('DELETE FROM verifications WHERE user_id = ?'),
		putVerification: db.prepare<[number, string, string]>(
			`INSERT INTO verifications (user_id, supergroup, expires_on) VALUES (?, ?, ?)
			 ON CONFLICT (user_id, supergroup) DO UPDATE SET expires_on = excluded.expires_on`
		),
		insertCode: db.prepare<[Buffer, string, number, string, number, number]>(
			'INSERT INTO issued_codes (check_digest, client_id, user_id, redirect_uri, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)'
		),
		// The one statement that makes a code single use: of racing exchanges, exactly one changes the row.
		consumeCode: db.prepare<[number, number, string, string, number], { user_id: number }>(
			`UPDATE issued_codes SET used_ms = ? WHERE id = ? AND used_ms IS NULL AND client_id = ? AND redirect_uri = ?
			 AND expires_ms > ? RETURNING user_id`
		),
		getCode: db.prepare<[number], CodeRow & { check_digest: Buffer }>('SELECT * FROM issued_codes WHERE id = ?'),
		consumeLegacyCode: db.prepare<[number, string, string, string, number], { user_id: number }>(
			`UPDATE codes SET used_ms = ? WHERE code_hash = ? AND used_ms IS NULL AND client_id = ? AND redirect_uri = ?
			 AND expires_ms > ? RETURNING user_id`
		),
		getLegacyCode: db.prepare<[string], CodeRow>('SELECT * FROM codes WHERE code_hash = ?'),
		getCredentialKey: db.prepare<[string], { key: Buffer }>('SELECT key FROM credential_keys WHERE kind = ?'),
		setCredentialKey: db.prepare<[string, Buffer]>('INSERT INTO credential_keys (kind, key) VALUES (?, ?)'),
		insertToken: db.prepare<[Buffer, string, string, number, number, number | null]>(
			'INSERT INTO issued_tokens (check_digest, kind, client_id, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)'
		),
		getToken: db.prepare<[number], TokenRow & { check_digest: Buffer }>('SELECT * FROM issued_tokens WHERE id = ?'),
		retireRefresh: db.prepare<[number, number, string]>(
			`UPDATE issued_tokens SET retired_ms = ? WHERE id = ? AND kind = 'refresh' AND retired_ms IS NULL AND client_id = ?`
		),
		getLegacyToken: db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE token_hash = ?'),
		retireLegacyRefresh: db.prepare<[number, string, string]>(
			`UPDATE tokens SET retired_ms = ? WHERE token_hash = ? AND kind = 'refresh' AND retired_ms IS NULL AND client_id = ?`
		),
		purgeCodes: db.prepare<[number, number]>(
			'DELETE FROM issued_codes WHERE id IN (SELECT id FROM issued_codes WHERE expires_ms < ? LIMIT ?)'
		),
		purgeLegacyCodes: db.prepare<[number, number]>(
			'DELETE FROM codes WHERE rowid IN (SELECT rowid FROM codes WHERE expires_ms < ? LIMIT ?)'
		),
		purgeTokens: db.prepare<[number, number]>(
			'DELETE FROM issued_tokens WHERE id IN (SELECT id FROM issued_tokens WHERE expires_ms IS NOT NULL AND expires_ms < ? LIMIT ?)'
		),
		purgeLegacyTokens: db.prepare<[number, number]>(
			'DELETE FROM tokens WHERE rowid IN (SELECT rowid FROM tokens WHERE expires_ms IS NOT NULL AND expires_ms < ? LIMIT ?)'
		),
		anyLegacyCode: db.prepare<[], { found: number }>('SELECT EXISTS (SELECT 1 FROM codes) AS found'),
		anyExpiringLegacyToken: db.prepare<[], { found: number }>('SELECT EXISTS (SELECT 1 FROM tokens WHERE expires_ms IS NOT NULL) AS found'),
		insertLog: db.prepare<[string, string, string]>('INSERT INTO request_log (at, host, entry) VALUES (?, ?, ?)'),
		trimLog: db.prepare<[number]>('DELETE FROM request_log WHERE id <= ?'),
		recentLog: db.prepare<[number], { id: number; at: string; host: LogEntry['host']; entry: string }>(
			'SELECT * FROM request_log ORDER BY id DESC LIMIT ?'
		),
		countAll: db.prepare<[], { n: number }>('SELECT (SELECT COUNT(*) FROM clients) + (SELECT COUNT(*) FROM users) AS n')
	};

	// Log entries are written in batches: one transaction per request would dominate the hot path's cost. Only
	// the newest LOG_CAPACITY can survive the trim, so they wait in a ring of that size: under load, older ones
	// are overwritten before they are ever built.
	type PendingEntry = { atMs: number; host: LogEntryInput['host']; entry: LogEntrySource };
	const pendingLog: (PendingEntry | undefined)[] = new Array(LOG_CAPACITY);
	let pendingNext = 0;
	let pendingCount = 0;
	let logFlushTimer: ReturnType<typeof setTimeout> | undefined;
	let firstPendingAtMs = 0;
	let lastLogAtMs = 0;
	function flushLogWhenIdle(): void {
		const now = Date.now();
		if (now - lastLogAtMs < LOG_IDLE_MS && now - firstPendingAtMs < LOG_MAX_WAIT_MS) {
			logFlushTimer = setTimeout(flushLogWhenIdle, LOG_IDLE_MS - (now - lastLogAtMs)).unref();
			return;
		}
		flushLog();
	}
	const writeLog = db.transaction((entries: PendingEntry[]) => {
		let last = 0;
		for (const { atMs, host, entry } of entries) {
			last = Number(sql.insertLog.run(new Date(atMs).toISOString(), host, JSON.stringify(entry.build())).lastInsertRowid);
		}
		if (last > LOG_CAPACITY) sql.trimLog.run(last - LOG_CAPACITY);
	});
	function takePendingLog(): PendingEntry[] {
		const entries: PendingEntry[] = [];
		for (let i = pendingCount; i > 0; i--) {
			const slot = (pendingNext - i + LOG_CAPACITY) % LOG_CAPACITY;
			entries.push(pendingLog[slot]!);
			pendingLog[slot] = undefined;
		}
		pendingCount = 0;
		return entries;
	}
	function flushLog(): void {
		clearTimeout(logFlushTimer);
		logFlushTimer = undefined;
		const entries = takePendingLog();
		if (entries.length > 0 && db.open) writeLog(entries);
	}

	/** A transaction whose failure also forgets what the caches below learnt inside it: the rollback undid it. */
	function transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
		const run = db.transaction(fn);
		return (...args) => {
			try {
				return run(...args);
			} catch (error) {
				forgetCached();
				throw error;
			}
		};
	}

	type Queued = { fn: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
	let sharedQueue: Queued[] = [];
	type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };
	const savepoint = transaction((fn: () => unknown) => fn());
	const runShared = transaction((batch: Queued[]): Settled[] =>
		batch.map((item) => {
			try {
				return { ok: true, value: savepoint(item.fn) };
			} catch (error) {
				return { ok: false, error };
			}
		})
	);
	function commitShared(): void {
		const batch = sharedQueue;
		sharedQueue = [];
		if (batch.length === 0) return;
		let settled: Settled[];
		try {
			if (!db.open) throw new Error('the sandbox store is closed');
			settled = runShared(batch);
		} catch (error) {
			for (const item of batch) item.reject(error);
			return;
		}
		batch.forEach((item, i) => {
			const outcome = settled[i]!;
			if (outcome.ok) item.resolve(outcome.value);
			else item.reject(outcome.error);
		});
	}

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

	/**
	 * The row a credential names, if its check matches; then the old table's row with its digest, if any. Only a
	 * credential not found by its id pays for that second lookup: an old one, or one that is wrong.
	 */
	function findRow<R extends { check_digest: Buffer }, L>(
		codec: CredentialCodec,
		credential: string,
		byId: (id: number) => R | undefined,
		byDigest: (digest: string) => L | undefined
	): R | L | undefined {
		const named = codec.decode(credential);
		const row = named && byId(named.id);
		if (row && checksMatch(row.check_digest, named.check)) return row;
		return byDigest(digestHex(credential));
	}
	const findCode = (code: string): CodeRow | undefined =>
		findRow(codeCodec, code, (id) => sql.getCode.get(id), (digest) => sql.getLegacyCode.get(digest));
	const findToken = (token: string): TokenRow | undefined =>
		findRow(tokenCodec, token, (id) => sql.getToken.get(id), (digest) => sql.getLegacyToken.get(digest));

	// The offset is read once and written through: this process is the database's only writer.
	let clockOffsetMs = sql.getOffset.get()?.clock_offset_ms ?? 0;
	const nowMs = () => Date.now() + clockOffsetMs;

	// me.json asks for the day on every request; the string is made once a day.
	let day = { startMs: 0, endMs: 0, iso: '' };
	function today(): string {
		const now = nowMs();
		if (now < day.startMs || now >= day.endMs) {
			const startMs = now - (now % DAY_MS);
			day = { startMs, endMs: startMs + DAY_MS, iso: isoDay(new Date(startMs)) };
		}
		return day.iso;
	}

	function userFromRow(row: UserRow): SandboxUser {
		return {
			id: row.id,
			login: row.login,
			sbid_number: row.sbid_number,
			verifications: sql.verificationsOf.all(row.id),
			deletion_requested: row.deletion_requested === 1
		};
	}

	// This process is the database's only writer, so the reads on me.json's and the token endpoint's path are
	// served from memory: each write below drops what it changes. Cached objects are frozen, so a caller cannot
	// change what the next caller reads.
	const users = new Map<number, SandboxUser>();
	const clients = new Map<string, SandboxClient>();
	/** Raw access token → its row; only tokens that exist, so a flood of unknown tokens cannot fill it. */
	const accessTokens = new Map<string, TokenRow>();

	function getUser(id: number): SandboxUser | undefined {
		const known = users.get(id);
		if (known) return known;
		const row = sql.getUser.get(id);
		const user = row && deepFreeze(userFromRow(row));
		// Unknown ids are not remembered, as for clients below.
		if (user) users.set(id, user);
		return user;
	}

	function getClient(clientId: string): SandboxClient | undefined {
		const known = clients.get(clientId);
		if (known) return known;
		const row = sql.getClient.get(clientId);
		const client = row && deepFreeze(clientFromRow(row));
		// Unknown ids are not remembered: anyone can send any number of them.
		if (client) clients.set(clientId, client);
		return client;
	}

	/** Digests of cached clients' secrets, made once per client object (a changed client is a new object). */
	const secretDigests = new WeakMap<SandboxClient, Buffer>();
	function secretDigestOf(client: SandboxClient): Buffer {
		let known = secretDigests.get(client);
		if (!known) secretDigests.set(client, (known = digest(client.client_secret)));
		return known;
	}

	function forgetCached(): void {
		users.clear();
		clients.clear();
		accessTokens.clear();
		// A rollback can bring back rows of the old tables that a purge had removed.
		legacyCodesToPurge = sql.anyLegacyCode.get()!.found === 1;
		legacyTokensToPurge = sql.anyExpiringLegacyToken.get()!.found === 1;
	}

	function rememberAccessToken(token: string, row: TokenRow): TokenRow {
		setRecent(accessTokens, token, row, ACCESS_TOKEN_CACHE_SIZE);
		return row;
	}

	function uniqueSbidNumber(): string {
		for (;;) {
			const candidate = randomSbidNumber();
			if (!sql.sbidTaken.get(candidate)) return candidate;
		}
	}

	// The old tables only lose rows, so once nothing in them can expire they are left alone: each code issued then
	// runs two purges, not four. (Old refresh tokens never expire, so they do not keep the purge of `tokens` going.)
	let legacyCodesToPurge = sql.anyLegacyCode.get()!.found === 1;
	let legacyTokensToPurge = sql.anyExpiringLegacyToken.get()!.found === 1;
	function purgeLegacy(purge: Database.Statement<[number, number]>, any: Database.Statement<[], { found: number }>, before: number) {
		const purged = purge.run(before, PURGE_BATCH).changes;
		return { purged, left: purged === PURGE_BATCH || any.get()!.found === 1 };
	}

	function purgeExpired(now: number): void {
		const before = now - PURGE_GRACE_MS;
		let purged = sql.purgeCodes.run(before, PURGE_BATCH).changes + sql.purgeTokens.run(before, PURGE_BATCH).changes;
		if (legacyCodesToPurge) {
			const legacy = purgeLegacy(sql.purgeLegacyCodes, sql.anyLegacyCode, before);
			purged += legacy.purged;
			legacyCodesToPurge = legacy.left;
		}
		if (legacyTokensToPurge) {
			const legacy = purgeLegacy(sql.purgeLegacyTokens, sql.anyExpiringLegacyToken, before);
			purged += legacy.purged;
			legacyTokensToPurge = legacy.left;
		}
		if (purged > 0) {
			accessTokens.clear();
			db.pragma(`incremental_vacuum(${VACUUM_PAGES})`);
			checkpointTimer ??= setTimeout(checkpointAfterPurge, CHECKPOINT_AFTER_PURGE_MS).unref();
		}
	}
	let checkpointTimer: ReturnType<typeof setTimeout> | undefined;
	function checkpointAfterPurge(): void {
		checkpointTimer = undefined;
		// PASSIVE: copies what no reader still needs and never waits; a busy moment just leaves it to the next one.
		if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
	}

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

	/** Why an exchange that changed no row failed. Other clients learn nothing about the code's state. */
	function exchangeFailure(row: CodeRow, clientId: string, redirectUri: string, now: number) {
		if (row.client_id !== clientId) return 'other-client' as const;
		if (row.used_ms !== null) return 'used' as const;
		if (row.expires_ms <= now) return 'expired' as const;
		if (row.redirect_uri !== redirectUri) return 'redirect-mismatch' as const;
		return 'used' as const;
	}

	const exchangeCode = transaction((code: string, clientId: string, redirectUri: string): CodeExchange => {
		const now = nowMs();
		const row = findCode(code);
		if (!row) return { ok: false, cause: 'unknown-code' };
		const consumed =
			row.id === undefined
				? sql.consumeLegacyCode.get(now, digestHex(code), clientId, redirectUri, now)
				: sql.consumeCode.get(now, row.id, clientId, redirectUri, now);
		if (!consumed) return { ok: false, cause: exchangeFailure(row, clientId, redirectUri, now) };
		return { ok: true, tokens: issueTokens(clientId, consumed.user_id, now), userId: consumed.user_id };
	});

	const refresh = transaction((refreshToken: string, clientId: string): RefreshResult => {
		const now = nowMs();
		const row = findToken(refreshToken);
		if (!row || row.kind !== 'refresh') return { ok: false, cause: 'unknown-token' };
		const retired =
			row.id === undefined
				? sql.retireLegacyRefresh.run(now, digestHex(refreshToken), clientId)
				: sql.retireRefresh.run(now, row.id, clientId);
		if (retired.changes !== 1) return { ok: false, cause: row.client_id !== clientId ? 'other-client' : 'used' };
		return { ok: true, tokens: issueTokens(clientId, row.user_id, now) };
	});

	const upsertUser = transaction((input: UserInput): SandboxUser => {
		const existing = sql.getUserByLogin.get(input.login);
		const given = input.password;
		const passwordHash = given === undefined ? existing?.password_hash : typeof given === 'string' ? hashPassword(given).hash : given.hash;
		if (passwordHash === undefined) throw new Error(`a new user (${input.login}) needs a password`);
		const deletion = input.deletion_requested ? 1 : 0;
		let id: number;
		if (existing) {
			id = existing.id;
			sql.updateUser.run(passwordHash, deletion, id);
			sql.clearVerifications.run(id);
		} else {
			const sbid = input.sbid_number ?? uniqueSbidNumber();
			id = Number(sql.insertUser.run(input.login, passwordHash, sbid, deletion).lastInsertRowid);
		}
		for (const v of input.verifications) sql.putVerification.run(id, v.supergroup, v.expires_on);
		users.delete(id);
		return getUser(id)!;
	});

	return {
		now: () => new Date(nowMs()),
		today,
		advanceClock(seconds) {
			sql.setOffset.run(clockOffsetMs + Math.round(seconds * 1000));
			clockOffsetMs += Math.round(seconds * 1000);
			return new Date(nowMs());
		},

		getClient,
		listClients: () => sql.listClients.all().map(clientFromRow),
		upsertClient(client) {
			sql.upsertClient.run({
				...client,
				redirect_uris: JSON.stringify(client.redirect_uris),
				countries: JSON.stringify(client.countries)
			});
			clients.delete(client.client_id);
			return getClient(client.client_id)!;
		},
		authenticateClient(clientId, clientSecret) {
			const client = getClient(clientId);
			// Compare even for an unknown client, so timing does not tell which client ids exist.
			const expected = client ? secretDigestOf(client) : digest(randomCredential());
			const secretMatches = timingSafeEqual(digest(clientSecret), expected);
			if (!client) return { ok: false, cause: 'unknown-client' };
			return secretMatches ? { ok: true, client } : { ok: false, cause: 'wrong-secret' };
		},

		getUser,
		getUserByLogin(login) {
			const row = sql.getUserByLogin.get(login);
			return row && userFromRow(row);
		},
		listUsers: () => sql.listUsers.all().map(userFromRow),
		upsertUser,
		authenticateUser(login, password) {
			const row = sql.getUserByLogin.get(login);
			const matches = verifyPassword(password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
			return row && matches ? userFromRow(row) : undefined;
		},
		addVerification(userId, supergroup, expiresOn) {
			sql.putVerification.run(userId, supergroup, expiresOn);
			users.delete(userId);
			const user = getUser(userId);
			if (!user) throw new Error(`no user with id ${userId}`);
			return user;
		},

		issueCode({ clientId, userId, redirectUri }) {
			const now = nowMs();
			purgeExpired(now);
			const minted = codeCodec.mint(takeRandom(VERIFIER_BYTES));
			const expiresMs = now + LIMITS.codeTtlSeconds * 1000;
			return minted.encode(Number(sql.insertCode.run(minted.check, clientId, userId, redirectUri, now, expiresMs).lastInsertRowid));
		},
		exchangeCode: (code, clientId, redirectUri) => exchangeCode(code, clientId, redirectUri),
		refresh: (refreshToken, clientId) => refresh(refreshToken, clientId),
		lookupAccessToken(token) {
			let row = accessTokens.get(token);
			if (!row) {
				const found = findToken(token);
				if (!found) return findCode(token) ? { kind: 'grant-code' } : { kind: 'unknown' };
				if (found.kind === 'refresh') return { kind: 'refresh-token' };
				row = rememberAccessToken(token, found);
			}
			if (row.expires_ms !== null && row.expires_ms <= nowMs()) return { kind: 'expired', expiredAt: new Date(row.expires_ms) };
			const user = getUser(row.user_id);
			const client = getClient(row.client_id);
			// A token outlives neither its user nor its client (both can be replaced through the control API).
			if (!user || !client) return { kind: 'unknown' };
			return { kind: 'valid', user, client };
		},

		log({ host, entry }) {
			lastLogAtMs = Date.now();
			pendingLog[pendingNext] = { atMs: lastLogAtMs, host, entry };
			pendingNext = (pendingNext + 1) % LOG_CAPACITY;
			pendingCount = Math.min(pendingCount + 1, LOG_CAPACITY);
			if (logFlushTimer === undefined) {
				firstPendingAtMs = lastLogAtMs;
				// Unreferenced: a waiting log entry never keeps the process alive (close() writes it).
				logFlushTimer = setTimeout(flushLogWhenIdle, LOG_IDLE_MS).unref();
			}
		},
		recentLog(limit) {
			flushLog();
			return sql.recentLog.all(limit).map((row) => ({ ...row, entry: JSON.parse(row.entry) as unknown }));
		},

		clear() {
			takePendingLog();
			forgetCached();
			db.exec('DELETE FROM verifications; DELETE FROM users; DELETE FROM clients; DELETE FROM codes; DELETE FROM issued_codes; DELETE FROM tokens; DELETE FROM issued_tokens; DELETE FROM request_log;');
			sql.setOffset.run(0);
			clockOffsetMs = 0;
			legacyCodesToPurge = false;
			legacyTokensToPurge = false;
		},
		isEmpty: () => (sql.countAll.get()?.n ?? 0) === 0,
		transaction: (fn) => transaction(fn)(),
		sharedTransaction<T>(fn: () => T): Promise<T> {
			return new Promise<T>((resolve, reject) => {
				if (sharedQueue.length === 0) setImmediate(commitShared);
				sharedQueue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
			});
		},
		close() {
			commitShared();
			flushLog();
			clearTimeout(checkpointTimer);
			db.close();
		}
	};
}
