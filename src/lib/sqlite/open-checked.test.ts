import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnusableError, databaseHealth, databaseProblem, openCheckedDatabase } from './open-checked';

const OPTIONS = { what: 'The test database', freshStart: 'with nothing in it' };
let dir: string;
let path: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'open-checked-'));
	path = join(dir, 'data.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database of a few hundred rows spread over many pages, closed (its WAL folded back into the file). */
function writeDatabase(): void {
	const db = new Database(path);
	db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE INDEX items_body ON items (body);');
	const insert = db.prepare('INSERT INTO items (body) VALUES (?)');
	db.transaction(() => {
		for (let i = 0; i < 400; i++) insert.run(`item ${i} ${'x'.repeat(200)}`);
	})();
	db.close();
}

/** Random bytes over one whole page in the middle of the file (pages are 4096 bytes). */
function scrambleMiddlePage(): void {
	const pages = statSync(path).size / 4096;
	const fd = openSync(path, 'r+');
	writeSync(fd, randomBytes(4096), 0, 4096, Math.floor(pages / 2) * 4096);
	closeSync(fd);
}

function expectRefused(problem: RegExp): void {
	const before = readFileSync(path);
	let thrown: unknown;
	try {
		openCheckedDatabase(path, OPTIONS).close();
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(DatabaseUnusableError);
	const message = (thrown as Error).message;
	expect(message).toContain(path);
	expect(message).toMatch(problem);
	expect(message).toMatch(/restore .* from a backup, or move it aside to start fresh \(with nothing in it\)/i);
	// Never replaced or repaired behind the operator's back.
	expect(readFileSync(path).equals(before)).toBe(true);
}

describe('openCheckedDatabase', () => {
	it('creates a missing file (and its directory): a fresh start', () => {
		path = join(dir, 'new', 'data.db');
		const db = openCheckedDatabase(path, OPTIONS);
		db.exec('CREATE TABLE t (x)');
		db.close();
		expect(existsSync(path)).toBe(true);
	});

	it('opens a sound database with its data', () => {
		writeDatabase();
		const db = openCheckedDatabase(path, OPTIONS);
		expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 400 });
		db.close();
	});

	it('refuses an emptied (0-byte) file rather than starting fresh on it', () => {
		writeDatabase();
		writeFileSync(path, '');
		expectRefused(/empty \(0 bytes\)/);
	});

	it('refuses a file with random bytes over a page in the middle', () => {
		writeDatabase();
		scrambleMiddlePage();
		expectRefused(/cannot be used: .+/);
	});

	it('refuses a file whose header is not a database header', () => {
		writeDatabase();
		const fd = openSync(path, 'r+');
		writeSync(fd, Buffer.from('this is not a SQLite file at all'), 0, 32, 0);
		closeSync(fd);
		expectRefused(/SQLITE_NOTADB|not a database/);
	});
});

describe('databaseHealth', () => {
	it('reports a database damaged while in use, naming it, and a sound one as ok', () => {
		writeDatabase();
		const db = openCheckedDatabase(path, OPTIONS);
		const databases = [{ path, what: 'test data' }];
		expect(databaseHealth(databases, 0)).toEqual({ ok: true, problems: [] });
		scrambleMiddlePage();
		// The answer is reused for a while, then the file is checked again.
		expect(databaseHealth(databases, 1000).ok).toBe(true);
		const health = databaseHealth(databases, 60_000);
		expect(health.ok).toBe(false);
		expect(health.problems).toEqual([{ database: 'data.db', what: 'test data', reason: expect.any(String) }]);
		db.close();
	});

	it('reports a database file that was emptied or removed', () => {
		writeDatabase();
		writeFileSync(path, '');
		expect(databaseProblem(path)).toBe('the file is empty (0 bytes)');
		rmSync(path);
		expect(databaseProblem(path)).toBe('the file is missing');
	});
});
