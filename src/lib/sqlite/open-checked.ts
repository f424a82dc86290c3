/**
 * Opening a SQLite database the process keeps its data in (the sandbox's, the explorer's saved runs), so that a
 * damaged file is never used or replaced silently: a missing file is a fresh start; an existing file must be a
 * sound database (`PRAGMA quick_check`), or the start stops with a message naming the file and what to do. An
 * existing but empty (0-byte) file is damage too (a truncated copy, a full disk), not a fresh start.
 * `databaseHealth` (health-thread.ts) checks the same for the explorer's /health, which so sees damage done while the
 * process runs.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

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
