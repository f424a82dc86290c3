import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { openStore } from '.';
import { client, databaseWithoutAutoVacuum, storeWithUser } from './test-support';

describe('store: purge', () => {
	it('purges codes long expired', () => {
		const { store, user } = storeWithUser();
		const code = store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		store.advanceClock(3 * 24 * 3600);
		store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		expect(store.exchangeCode(code, 'c1', 'https://app.example/cb')).toEqual({ ok: false, cause: 'unknown-code' });
	});
});

/** A store at `path` with client c1 and one user; `issue(n)` issues n codes to them in one transaction. */
function storeIssuingCodes(path: string) {
	const store = openStore(path);
	store.upsertClient(client);
	const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [] });
	const issue = (n: number) =>
		store.transaction(() => {
			for (let i = 0; i < n; i++) store.issueCode({ clientId: 'c1', userId: user.id, redirectUri: 'https://app.example/cb' });
		});
	return { store, issue };
}

describe('store: files after a purge', () => {
	it.each([
		['a new database', () => {}],
		['a database made before auto-vacuum', databaseWithoutAutoVacuum]
	])('gives the space of purged codes back in %s: the database file shrinks again, and the WAL stays bounded', (_, prepare) => {
		const dir = mkdtempSync(join(tmpdir(), 'store-purge-'));
		try {
			const path = join(dir, 'sandbox.db');
			prepare(path);
			const { store, issue } = storeIssuingCodes(path);
			const sizes = () => ({ db: statSync(path).size, wal: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0 });
			for (let i = 0; i < 20; i++) issue(1000);
			const total = ({ db, wal }: { db: number; wal: number }) => db + wal;
			const peak = total(sizes());
			store.advanceClock(3 * 24 * 3600); // past the codes' 2 hours and the purge's grace
			for (let i = 0; i < 250; i++) issue(1); // ordinary traffic: each new code purges up to 100 expired ones
			store.close();
			const after = sizes();
			expect(total(after)).toBeLessThan(peak / 4);
			expect(after.wal).toBeLessThanOrEqual(4 * 1024 * 1024);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
	it('shrinks the database file within a second of a purge while it keeps running, though traffic stopped', () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		const dir = mkdtempSync(join(tmpdir(), 'store-purge-'));
		try {
			const path = join(dir, 'sandbox.db');
			const { store, issue } = storeIssuingCodes(path);
			for (let i = 0; i < 20; i++) issue(1000);
			const other = new Database(path);
			other.pragma('wal_checkpoint(PASSIVE)'); // the codes in the file itself, as after SQLite's own checkpoint
			other.close();
			const peak = statSync(path).size;
			store.advanceClock(3 * 24 * 3600);
			for (let i = 0; i < 3; i++) issue(1); // each purges 100 codes and gives their pages back
			// Far fewer than SQLite's 1000 pages were written since the last checkpoint: SQLite would not copy them yet.
			expect(statSync(path).size).toBe(peak);
			vi.advanceTimersByTime(1000);
			const reader = new Database(path, { readonly: true });
			const logicalSize = (reader.pragma('page_count', { simple: true }) as number) * (reader.pragma('page_size', { simple: true }) as number);
			reader.close();
			expect(logicalSize).toBeLessThan(peak);
			expect(statSync(path).size).toBe(logicalSize);
			store.close();
		} finally {
			vi.useRealTimers();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
