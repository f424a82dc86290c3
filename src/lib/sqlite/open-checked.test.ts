import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnusableError, databaseProblem, openCheckedDatabase } from './open-checked';
import { scrambleMiddlePage, writeDatabase } from './testing';

const OPTIONS = { what: 'The test database', freshStart: 'with nothing in it' };
let dir: string;
let path: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'open-checked-'));
	path = join(dir, 'data.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
		writeDatabase(path);
		const db = openCheckedDatabase(path, OPTIONS);
		expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 400 });
		db.close();
	});

	it('refuses an emptied (0-byte) file rather than starting fresh on it', () => {
		writeDatabase(path);
		writeFileSync(path, '');
		expectRefused(/empty \(0 bytes\)/);
	});

	it('refuses a file with random bytes over a page in the middle', () => {
		writeDatabase(path);
		scrambleMiddlePage(path);
		expectRefused(/cannot be used: .+/);
	});

	it('refuses a file whose header is not a database header', () => {
		writeDatabase(path);
		const fd = openSync(path, 'r+');
		writeSync(fd, Buffer.from('this is not a SQLite file at all'), 0, 32, 0);
		closeSync(fd);
		expectRefused(/SQLITE_NOTADB|not a database/);
	});
});

describe('databaseProblem', () => {
	it('reports a database file that was emptied or removed', () => {
		writeDatabase(path);
		writeFileSync(path, '');
		expect(databaseProblem(path)).toBe('the file is empty (0 bytes)');
		rmSync(path);
		expect(databaseProblem(path)).toBe('the file is missing');
	});
});
