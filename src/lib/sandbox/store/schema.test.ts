import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '.';
import { databaseWithoutAutoVacuum } from './test-support';

describe('store: schema', () => {
	it('turns on auto-vacuum in a database made without it, keeping its data', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-old-'));
		try {
			const path = join(dir, 'sandbox.db');
			databaseWithoutAutoVacuum(path);
			const store = openStore(path);
			expect(store.now().getTime() - Date.now()).toBeGreaterThan(86_000_000);
			store.close();
			const db = new Database(path, { readonly: true });
			expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
			db.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('adds the `anonymous` column to a database made before it, every workspace in it the operator\'s', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-anonymous-'));
		try {
			const path = join(dir, 'sandbox.db');
			const made = openStore(path);
			const kept = made.createWorkspace({ fixtures: 'empty', name: 'kept' }).workspace.id;
			made.close();
			const old = new Database(path);
			old.exec('ALTER TABLE workspaces DROP COLUMN anonymous');
			old.close();
			const store = openStore(path);
			expect(store.workspace(kept)?.info()).toMatchObject({ name: 'kept', anonymous: false });
			expect(store.createWorkspace({ fixtures: 'empty', anonymous: true }).workspace.info().anonymous).toBe(true);
			store.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('refuses a database from before workspaces (one clock in a settings table), naming the file and how to reset it', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-settings-'));
		try {
			const path = join(dir, 'sandbox.db');
			const old = new Database(path);
			old.exec('CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), clock_offset_ms INTEGER NOT NULL); INSERT INTO settings VALUES (1, 0);');
			old.close();
			expect(() => openStore(path)).toThrow(`The sandbox database ${path} was made by an earlier version (it has the table settings, which this version no longer reads)`);
			expect(() => openStore(path)).toThrow(`delete ${path}`);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('refuses a database from before the credential tables changed, naming the file and how to reset it', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-retired-'));
		try {
			const path = join(dir, 'sandbox.db');
			const old = new Database(path);
			old.exec('CREATE TABLE codes (code_hash TEXT PRIMARY KEY); CREATE TABLE tokens (token_hash TEXT PRIMARY KEY);');
			old.exec("INSERT INTO codes VALUES ('a'); INSERT INTO tokens VALUES ('b');");
			old.close();
			expect(() => openStore(path)).toThrow(`The sandbox database ${path} was made by an earlier version`);
			expect(() => openStore(path)).toThrow(`delete ${path}`);
			// Nothing was changed, and the file is not left open.
			const db = new Database(path, { readonly: true });
			expect(db.prepare('SELECT COUNT(*) AS n FROM codes').get()).toEqual({ n: 1 });
			expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'issued_codes'").get()).toEqual({ n: 0 });
			db.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
