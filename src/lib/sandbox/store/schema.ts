/**
 * The sandbox database's tables and settings: `openDatabase` opens (or makes) the file, sets its pragmas and
 * creates what is missing. A database made by a version that kept credentials in other tables is refused with a
 * message saying how to reset it, rather than opened with those credentials silently ignored.
 */
import type Database from 'better-sqlite3';
import { openCheckedDatabase } from '../../sqlite/open-checked';

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

/** Empties every table but the settings and the credential keys. */
export const DELETE_ALL_ROWS =
	'DELETE FROM verifications; DELETE FROM users; DELETE FROM clients; DELETE FROM issued_codes; DELETE FROM issued_tokens; DELETE FROM request_log;';

/** Where versions before the credential codec kept codes and tokens, found by digest. */
const RETIRED_TABLES = ['codes', 'tokens'];

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
	db.exec(SCHEMA);
	return db;
}

/** A sandbox holds test data: one made before the credential tables changed is reset, not migrated. */
function refuseRetiredSchema(db: Database.Database, path: string): void {
	const found = db
		.prepare<string[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${RETIRED_TABLES.map(() => '?').join(', ')})`)
		.all(...RETIRED_TABLES);
	if (found.length === 0) return;
	const tables = `${found.length === 1 ? 'the table' : 'the tables'} ${found.map((t) => t.name).join(' and ')}`;
	throw new Error(
		`The sandbox database ${path} was made by an earlier version (it has ${tables}, which this version no longer reads). ` +
			`It holds only test data: stop the explorer, delete ${path} (and ${path}-wal and ${path}-shm if they exist), ` +
			`and start again to get a fresh sandbox with its fixtures.`
	);
}
