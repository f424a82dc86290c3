/** What the store's tests share: a client, a store with one user, and a database as an older version left it. */
import Database from 'better-sqlite3';
import { openStore } from '.';

export const client = {
	client_id: 'c1',
	client_secret: 's1',
	name: 'One',
	redirect_uris: ['https://app.example/cb'],
	countries: ['uk'],
	verification_key: 'supergroup' as const
};

export function storeWithUser() {
	const store = openStore(':memory:');
	store.upsertClient(client);
	const user = store.upsertUser({ login: 'a@example.com', password: 'pw', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] });
	return { store, user };
}

/** A database as an older version left it: WAL, no auto-vacuum, a clock offset set. */
export function databaseWithoutAutoVacuum(path: string): void {
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	db.exec('CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1), clock_offset_ms INTEGER NOT NULL); INSERT INTO settings VALUES (1, 86400000);');
	db.close();
}
