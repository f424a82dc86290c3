/** Databases for the tests of this folder: a sound one, and damage done to it. */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';

/** A database of a few hundred rows spread over many pages, closed (its WAL folded back into the file). */
export function writeDatabase(path: string): void {
	const db = new Database(path);
	db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE INDEX items_body ON items (body);');
	const insert = db.prepare('INSERT INTO items (body) VALUES (?)');
	db.transaction(() => {
		for (let i = 0; i < 400; i++) insert.run(`item ${i} ${'x'.repeat(200)}`);
	})();
	db.close();
}

/** Random bytes over one whole page in the middle of the file (pages are 4096 bytes). */
export function scrambleMiddlePage(path: string): void {
	const pages = statSync(path).size / 4096;
	const fd = openSync(path, 'r+');
	writeSync(fd, randomBytes(4096), 0, 4096, Math.floor(pages / 2) * 4096);
	closeSync(fd);
}
