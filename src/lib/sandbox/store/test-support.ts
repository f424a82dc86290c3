/** What the store's tests share: a client, a store with one user, and a database as an older version left it. */
import Database from 'better-sqlite3';
import { openStore } from '.';
import { SCHEMA } from './schema';

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

/** A database as an older version left it: WAL, no auto-vacuum, the default workspace's clock a day ahead. */
export function databaseWithoutAutoVacuum(path: string): void {
	const db = new Database(path);
	db.pragma('journal_mode = WAL');
	db.exec(SCHEMA);
	db.exec("UPDATE workspaces SET clock_offset_ms = 86400000 WHERE id = 'default'");
	db.close();
}
