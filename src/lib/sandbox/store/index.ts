/**
 * The sandbox's state in SQLite (better-sqlite3, WAL): `openStore` composes the parts into the `SandboxStore` the
 * rest of the sandbox uses. Each part is one concern, in a module of its own:
 *
 * - schema.ts: the tables and pragmas, and the refusal of a database made by an earlier version;
 * - clock.ts: the sandbox clock (real time plus an offset; every time the store records is on it);
 * - clients.ts and users.ts: clients, users and their verifications, served from memory (frozen-cache.ts);
 * - credentials.ts: grant codes and tokens; purge.ts: purging the expired ones and giving their space back;
 * - transactions.ts: transactions that forget the caches on rollback, and group commit;
 * - passwords.ts and random.ts: scrypt hashes, randomness and constant-time comparison;
 * - the request log's buffer lives with the request log (`../request-log.ts`).
 *
 * This process is the database's only writer, which is what lets the caches serve reads from memory.
 */
import { openLogBuffer } from '../request-log';
import { openClients } from './clients';
import { openClock } from './clock';
import { openCredentials } from './credentials';
import { openPurger } from './purge';
import { DELETE_ALL_ROWS, openDatabase } from './schema';
import { openTransactions } from './transactions';
import type { SandboxStore } from './types';
import { openUsers } from './users';

export type * from './types';
export { hashPassword } from './passwords';
export { constantTimeEqual, randomCredential } from './random';

export function openStore(path: string): SandboxStore {
	const db = openDatabase(path);
	const clock = openClock(db);
	const logBuffer = openLogBuffer(db);
	const clients = openClients(db);
	const users = openUsers(db);
	const transactions = openTransactions(db, forgetCached);
	const purger = openPurger(db);
	const credentials = openCredentials(db, { clock, users, clients, transactions, purger });

	/** Empties the caches: after a rollback (it undid what they learnt inside it) and after a clear. */
	function forgetCached(): void {
		users.forget();
		clients.forget();
		credentials.forget();
	}

	const count = db.prepare<[], { n: number }>('SELECT (SELECT COUNT(*) FROM clients) + (SELECT COUNT(*) FROM users) AS n');

	return {
		now: () => new Date(clock.nowMs()),
		today: clock.today,
		advanceClock: clock.advance,

		getClient: clients.get,
		listClients: clients.list,
		upsertClient: clients.upsert,
		authenticateClient: clients.authenticate,

		getUser: users.get,
		getUserByLogin: users.getByLogin,
		listUsers: users.list,
		upsertUser: transactions.wrap(users.upsert),
		authenticateUser: users.authenticate,
		addVerification: users.addVerification,

		issueCode: credentials.issueCode,
		exchangeCode: credentials.exchangeCode,
		refresh: credentials.refresh,
		lookupAccessToken: credentials.lookupAccessToken,

		log: logBuffer.log,
		recentLog: logBuffer.recent,

		clear() {
			logBuffer.discardWaiting();
			forgetCached();
			db.exec(DELETE_ALL_ROWS);
			clock.reset();
		},
		isEmpty: () => (count.get()?.n ?? 0) === 0,
		transaction: (fn) => transactions.wrap(fn)(),
		sharedTransaction: transactions.shared,
		close() {
			transactions.commitWaiting();
			logBuffer.flush();
			purger.close();
			db.close();
		}
	};
}
