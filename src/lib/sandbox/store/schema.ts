/**
 * The sandbox database's tables and settings: `openDatabase` opens (or makes) the file, sets its pragmas and
 * creates what is missing. A database made by a version that kept credentials in other tables, or had one world
 * instead of workspaces, is refused with a message saying how to reset it, rather than opened with its data
 * silently ignored.
 */
import type Database from 'better-sqlite3';
import { openCheckedDatabase } from '../../sqlite/open-checked';

/**
 * Every row of a world carries its workspace (clients, users, codes, tokens, log entries); verifications follow
 * their user. Client ids stay unique across workspaces: the token endpoint and the authorisation page find a
 * request's workspace by its client_id. Codes and tokens also name their workspace, so purging and removing a
 * workspace read an index instead of joining through clients.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS workspaces (
	id TEXT PRIMARY KEY,
	kind TEXT NOT NULL CHECK (kind IN ('default', 'normal')),
	name TEXT NOT NULL,
	fixtures TEXT NOT NULL CHECK (fixtures IN ('demo', 'empty')),
	key_digest BLOB,
	created_ms INTEGER NOT NULL,
	last_used_ms INTEGER NOT NULL,
	clock_offset_ms INTEGER NOT NULL DEFAULT 0,
	-- 1: made by a public sandbox's visitor, the one kind removed to make room when the sandbox is full.
	anonymous INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO workspaces (id, kind, name, fixtures, key_digest, created_ms, last_used_ms, clock_offset_ms)
	VALUES ('default', 'default', 'Default', 'demo', NULL, 0, 0, 0);
CREATE TABLE IF NOT EXISTS clients (
	client_id TEXT PRIMARY KEY,
	workspace TEXT NOT NULL,
	client_secret TEXT NOT NULL,
	name TEXT NOT NULL,
	redirect_uris TEXT NOT NULL,
	countries TEXT NOT NULL,
	verification_key TEXT NOT NULL CHECK (verification_key IN ('supergroup', 'group'))
);
CREATE INDEX IF NOT EXISTS clients_workspace ON clients (workspace);
CREATE TABLE IF NOT EXISTS users (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	workspace TEXT NOT NULL,
	login TEXT NOT NULL,
	password_hash TEXT NOT NULL,
	sbid_number TEXT NOT NULL,
	deletion_requested INTEGER NOT NULL DEFAULT 0,
	UNIQUE (workspace, login),
	UNIQUE (workspace, sbid_number)
);
CREATE TABLE IF NOT EXISTS verifications (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	supergroup TEXT NOT NULL,
	expires_on TEXT NOT NULL,
	PRIMARY KEY (user_id, supergroup)
);
-- Tokens found by the row id they carry; the check is a keyed digest of the rest of the token (CredentialCodec).
CREATE TABLE IF NOT EXISTS issued_tokens (
	id INTEGER PRIMARY KEY,
	workspace TEXT NOT NULL,
	check_digest BLOB NOT NULL,
	kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER,
	retired_ms INTEGER
);
-- Purged by workspace and expiry (each workspace's clock is its own); refresh tokens (no expiry) sort first.
CREATE INDEX IF NOT EXISTS issued_tokens_expiry ON issued_tokens (workspace, expires_ms);
-- Codes found by the row id they carry, like issued_tokens.
CREATE TABLE IF NOT EXISTS issued_codes (
	id INTEGER PRIMARY KEY,
	workspace TEXT NOT NULL,
	check_digest BLOB NOT NULL,
	client_id TEXT NOT NULL,
	user_id INTEGER NOT NULL,
	redirect_uri TEXT NOT NULL,
	created_ms INTEGER NOT NULL,
	expires_ms INTEGER NOT NULL,
	used_ms INTEGER
);
CREATE INDEX IF NOT EXISTS issued_codes_expiry ON issued_codes (workspace, expires_ms);
-- The keys that hide row ids in codes and in tokens (credential-codec.ts), one per kind of credential.
CREATE TABLE IF NOT EXISTS credential_keys (
	kind TEXT PRIMARY KEY CHECK (kind IN ('code', 'token')),
	key BLOB NOT NULL
);
-- Outcome rules (sandbox choice 'outcome-rules'): pending while used_at is NULL (at most one per client and stage),
-- then kept as history. set_at and used_at are on the workspace clock; used_ms (real time) orders the history.
CREATE TABLE IF NOT EXISTS outcome_rules (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	workspace TEXT NOT NULL,
	client_id TEXT NOT NULL,
	stage TEXT NOT NULL CHECK (stage IN ('authorise', 'token', 'me')),
	outcome TEXT NOT NULL,
	set_at TEXT NOT NULL,
	used_at TEXT,
	used_ms INTEGER,
	used_by TEXT
);
CREATE INDEX IF NOT EXISTS outcome_rules_client ON outcome_rules (client_id, used_ms);
CREATE TABLE IF NOT EXISTS request_log (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	workspace TEXT NOT NULL,
	at TEXT NOT NULL,
	host TEXT NOT NULL,
	entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS request_log_workspace ON request_log (workspace, id);
`;

/** Empties one workspace's rows (its id bound as @workspace); the workspace row itself stays. */
export const DELETE_WORKSPACE_ROWS = [
	'DELETE FROM users WHERE workspace = @workspace', // verifications go with their users
	'DELETE FROM clients WHERE workspace = @workspace',
	'DELETE FROM issued_codes WHERE workspace = @workspace',
	'DELETE FROM issued_tokens WHERE workspace = @workspace',
	'DELETE FROM request_log WHERE workspace = @workspace',
	'DELETE FROM outcome_rules WHERE workspace = @workspace'
];

/**
 * Tables of earlier versions: `codes` and `tokens` (credentials found by digest, before the credential codec) and
 * `settings` (the one sandbox clock, before workspaces).
 */
const RETIRED_TABLES = ['codes', 'tokens', 'settings'];

/** The WAL is cut back to this size after each checkpoint. */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

export function openDatabase(path: string): Database.Database {
	const db = openCheckedDatabase(path, { what: "The sandbox's database", freshStart: 'the sandbox starts again from its fixtures' });
	try {
		refuseRetiredSchema(db, path);
	} catch (error) {
		db.close();
		throw error;
	}
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
	addAnonymousColumn(db);
	db.exec(SCHEMA);
	return db;
}

/**
 * A database made before workspaces were told apart by who made them gets the column, every workspace in it counted
 * as the operator's (never removed to make room): nothing is lost, and nothing made by a visitor existed yet to tell.
 */
function addAnonymousColumn(db: Database.Database): void {
	const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('workspaces')`).all();
	if (columns.length > 0 && !columns.some((c) => c.name === 'anonymous')) {
		db.exec('ALTER TABLE workspaces ADD COLUMN anonymous INTEGER NOT NULL DEFAULT 0');
	}
}

/** A sandbox holds test data: one made before the credential tables or workspaces is reset, not migrated. */
function refuseRetiredSchema(db: Database.Database, path: string): void {
	const found = db
		.prepare<string[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${RETIRED_TABLES.map(() => '?').join(', ')})`)
		.all(...RETIRED_TABLES);
	if (found.length === 0) return;
	const names = found.map((t) => t.name);
	const tables = `${names.length === 1 ? 'the table' : 'the tables'} ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`}`;
	throw new Error(
		`The sandbox database ${path} was made by an earlier version (it has ${tables}, which this version no longer reads). ` +
			`It holds only test data: stop the explorer, delete ${path} (and ${path}-wal and ${path}-shm if they exist), ` +
			`and start again to get a fresh sandbox with its fixtures.`
	);
}
