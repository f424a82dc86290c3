/**
 * Opening a SQLite database the process keeps its data in (the sandbox's, the explorer's saved runs), so that a
 * damaged file is never used or replaced silently: a missing file is a fresh start; an existing file must be a
 * sound database (`PRAGMA quick_check`), or the start stops with a message naming the file and what to do. An
 * existing but empty (0-byte) file is damage too (a truncated copy, a full disk), not a fresh start.
 * `databaseHealth` checks the same for the explorer's /health, which so sees damage done while the process runs.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';

export class DatabaseUnusableError extends Error {
	override name = 'DatabaseUnusableError';
}

/** What to do about a damaged file, for an operator. */
function remedy(path: string, freshStart: string): string {
	const aside = `${path}.damaged`;
	return (
		`Restore ${path} from a backup, or move it aside to start fresh (${freshStart}): ` +
		`mv ${path} ${aside} (and its -wal and -shm files, if any).`
	);
}

/** The first problems `quick_check` reports, or null when the database is sound. */
function quickCheck(db: Database.Database): string | null {
	const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
	const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
	return problems.length === 0 ? null : problems.join('; ');
}

function describeError(error: unknown): string {
	const code = (error as { code?: unknown })?.code;
	const message = error instanceof Error ? error.message : String(error);
	return typeof code === 'string' ? `${code}: ${message}` : message;
}

/** Why the database at `path` cannot be used (checked on its own read-only connection), or null when it can. */
export function databaseProblem(path: string): string | null {
	if (!existsSync(path)) return 'the file is missing';
	if (statSync(path).size === 0) return 'the file is empty (0 bytes)';
	let db: Database.Database | undefined;
	try {
		db = new Database(path, { readonly: true, fileMustExist: true });
		return quickCheck(db);
	} catch (error) {
		return describeError(error);
	} finally {
		db?.close();
	}
}

export interface CheckedDatabaseOptions {
	/** What the database holds, for messages: "the sandbox's database". */
	what: string;
	/** What starting fresh means for it: "the sandbox starts again from its fixtures". */
	freshStart: string;
}

/**
 * Opens (or, when the file is missing, creates) the database at `path`. Throws a DatabaseUnusableError naming the
 * file when it exists but is empty or damaged. ':memory:' is opened as is.
 */
export function openCheckedDatabase(path: string, options: CheckedDatabaseOptions): Database.Database {
	if (path === ':memory:') return new Database(path);
	if (existsSync(path)) {
		const problem = databaseProblem(path);
		if (problem) {
			throw new DatabaseUnusableError(
				`${options.what} ${path} cannot be used: ${problem}. Nothing was changed in it. ${remedy(path, options.freshStart)}`
			);
		}
	} else {
		mkdirSync(dirname(path), { recursive: true });
	}
	return new Database(path);
}

export interface DatabaseHealth {
	ok: boolean;
	/** The databases that cannot be used: file name, what it holds, and why. */
	problems: { database: string; what: string; reason: string }[];
}

/** How long a check's answer is reused: /health may be polled often, and quick_check reads the whole file. */
const CHECK_TTL_MS = 10_000;
const lastChecks = new Map<string, { at: number; problem: string | null }>();

/**
 * Whether each database can still be used. Each is checked on a connection of its own, so damage written to the
 * file since it was opened shows, whatever the store's own connection has cached.
 */
export function databaseHealth(databases: readonly { path: string; what: string }[], now: number = Date.now()): DatabaseHealth {
	const problems: DatabaseHealth['problems'] = [];
	for (const { path, what } of databases) {
		if (path === ':memory:') continue;
		let last = lastChecks.get(path);
		if (!last || now - last.at >= CHECK_TTL_MS) {
			last = { at: now, problem: databaseProblem(path) };
			lastChecks.set(path, last);
		}
		if (last.problem) problems.push({ database: basename(path), what, reason: last.problem });
	}
	return { ok: problems.length === 0, problems };
}
