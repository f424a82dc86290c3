/**
 * The sandbox's state in SQLite (better-sqlite3, WAL): `openStore` composes the parts into the `SandboxStore` the
 * rest of the sandbox uses. Each part is one concern, in a module of its own:
 *
 * - schema.ts: the tables and pragmas, and the refusal of a database made by an earlier version;
 * - workspaces.ts: the workspaces, their keys, clocks (clock.ts) and last use;
 * - clients.ts and users.ts: clients, users and their verifications, served from memory (frozen-cache.ts);
 * - credentials.ts: grant codes and tokens; purge.ts: purging the expired ones and giving their space back;
 * - outcomes.ts: the clients' one-shot outcome rules, the pending ones served from memory;
 * - transactions.ts: transactions that forget the caches on rollback, and group commit;
 * - passwords.ts and random.ts: scrypt hashes, randomness and constant-time comparison;
 * - the request log's buffer lives with the request log (`../log/`).
 *
 * Every world's method lives on a workspace's view (`SandboxWorkspace`), which sees only its own rows; the store
 * itself is the default workspace's view, plus the lookups that find a request's workspace.
 *
 * This process is the database's only writer, which is what lets the caches serve reads from memory.
 */
import type Database from 'better-sqlite3';
import { openLogBuffer, type LogBuffer } from '../log';
import { openClients, type Clients } from './clients';
import { openCredentials, type Credentials } from './credentials';
import { openOutcomes, type Outcomes } from './outcome-rules';
import { openPurger } from './purge';
import { DELETE_WORKSPACE_ROWS, openDatabase } from './schema';
import { openTransactions, type Transactions } from './transactions';
import { DEFAULT_WORKSPACE_ID, type FoundClient, type SandboxStore, type SandboxWorkspace } from './types';
import { openUsers, type Users } from './users';
import { info, openWorkspaceTable, type WorkspaceRecord, type WorkspaceTable } from './workspaces';

export type * from './types';
export { ClientIdTakenError, DEFAULT_WORKSPACE_ID } from './types';
export { hashPassword } from './passwords';
export { constantTimeEqual, randomCredential } from './random';

interface Parts {
	db: Database.Database;
	table: WorkspaceTable;
	clients: Clients;
	users: Users;
	credentials: Credentials;
	outcomes: Outcomes;
	transactions: Transactions;
	logBuffer: LogBuffer;
	forgetCached(): void;
}

/** The view of one workspace: every method sees and changes only its rows. */
function workspaceView(record: WorkspaceRecord, parts: Parts): SandboxWorkspace {
	const { db, table, clients, users, credentials, outcomes, transactions, logBuffer } = parts;
	const { id, clock } = record;
	const scope = { id, clock };
	const deleteRows = DELETE_WORKSPACE_ROWS.map((statement) => db.prepare<{ workspace: string }>(statement));
	const clearRows = transactions.wrap(() => {
		for (const statement of deleteRows) statement.run({ workspace: id });
	});

	function getClient(clientId: string) {
		const entry = clients.find(clientId);
		return entry?.workspace === id ? entry.client : undefined;
	}
	function getUser(userId: number) {
		const entry = users.find(userId);
		return entry?.workspace === id ? entry.user : undefined;
	}

	const view: SandboxWorkspace = {
		id,
		info: () => info(record),
		touch: () => table.touch(record),

		now: () => new Date(clock.nowMs()),
		today: clock.today,
		advanceClock: clock.advance,
		setClock: clock.set,
		resetClock() {
			clock.reset();
			return new Date(clock.nowMs());
		},

		getClient,
		findClient(clientId) {
			const client = getClient(clientId);
			return client && { client, workspace: view };
		},
		listClients: () => clients.list(id),
		upsertClient: (client) => clients.upsert(id, client),
		authenticateClient: (clientId, clientSecret) => clients.authenticate(id, clientId, clientSecret),

		getUser,
		getUserByLogin: (login) => users.getByLogin(id, login),
		listUsers: () => users.list(id),
		upsertUser: transactions.wrap((input) => users.upsert(id, input)),
		authenticateUser: (login, password) => users.authenticate(id, login, password),
		addVerification(userId, supergroup, expiresOn) {
			if (!getUser(userId)) throw new Error(`no user with id ${userId} in workspace ${id}`);
			return users.addVerification(userId, supergroup, expiresOn);
		},

		issueCode(binding) {
			// Only this workspace's client and user: a code never binds another world's.
			if (!getClient(binding.clientId) || !getUser(binding.userId)) throw new Error(`the client or user is not of workspace ${id}`);
			return credentials.issueCode(scope, binding);
		},
		exchangeCode: (code, clientId, redirectUri) => credentials.exchangeCode(scope, code, clientId, redirectUri),
		refresh: (refreshToken, clientId) => credentials.refresh(scope, refreshToken, clientId),
		lookupAccessToken(token) {
			const found = credentials.lookupAccessToken(token);
			return found.workspace === id ? found.lookup : { kind: 'unknown' };
		},

		setOutcome(clientId, outcome) {
			if (!getClient(clientId)) throw new Error(`no client ${clientId} in workspace ${id}`);
			outcomes.set(view, clientId, outcome);
		},
		clearOutcomes: (clientId, outcome) => outcomes.clear(id, clientId, outcome),
		outcomeRules: (clientId) => outcomes.list(id, clientId),
		pendingOutcome: (clientId, stage) => outcomes.peek(id, clientId, stage),
		takeOutcome: (clientId, stage, request) => outcomes.take(view, clientId, stage, request),

		// A request that found this workspace may end after it was removed: its entry then goes nowhere.
		log(input) {
			if (table.get(id) === record) logBuffer.log(id, input);
		},
		recentLog: (limit) => logBuffer.recent(id, limit),
		subscribeLog: (listener) => logBuffer.subscribe(id, listener),

		clear() {
			logBuffer.discardWaiting(id);
			parts.forgetCached();
			clearRows();
			clock.reset();
		},
		isEmpty: () => clients.count(id) + users.count(id) === 0,
		transaction: (fn) => transactions.wrap(fn)(),
		sharedTransaction: transactions.shared
	};
	return view;
}

export function openStore(path: string): SandboxStore {
	const db = openDatabase(path);
	const table = openWorkspaceTable(db);
	const logBuffer = openLogBuffer(db);
	const clients = openClients(db);
	const users = openUsers(db);
	const transactions = openTransactions(db, forgetCached);
	const purger = openPurger(db);
	const outcomes = openOutcomes(db);
	const credentials = openCredentials(db, { clockOf: (id) => table.get(id)?.clock, users, clients, transactions, purger });

	/** Empties the caches: after a rollback (it undid what they learnt inside it) and after a clear. */
	function forgetCached(): void {
		users.forget();
		clients.forget();
		credentials.forget();
		outcomes.forget();
	}

	const views = new Map<string, SandboxWorkspace>();
	const parts: Parts = { db, table, clients, users, credentials, outcomes, transactions, logBuffer, forgetCached };
	function viewOf(id: string): SandboxWorkspace | undefined {
		const known = views.get(id);
		if (known) return known;
		const record = table.get(id);
		if (!record) return undefined;
		const view = workspaceView(record, parts);
		views.set(id, view);
		return view;
	}

	const removeWorkspace = transactions.wrap((view: SandboxWorkspace) => {
		view.clear();
		table.remove(view.id);
		views.delete(view.id);
	});
	function deleteWorkspace(id: string): boolean {
		const view = viewOf(id);
		if (!view || view.info().kind !== 'normal') return false;
		removeWorkspace(view);
		return true;
	}

	const defaultView = viewOf(DEFAULT_WORKSPACE_ID)!;
	return {
		...defaultView,

		workspace: viewOf,
		workspaceForKey(key) {
			const record = table.forKey(key);
			return record && viewOf(record.id);
		},
		createWorkspace(options) {
			const { record, key } = table.create(options);
			return { workspace: viewOf(record.id)!, key };
		},
		deleteWorkspace,
		expireIdle(beforeMs) {
			table.saveLastUse();
			const idle = table.all().filter((record) => record.kind === 'normal' && record.lastUsedMs < beforeMs);
			for (const record of idle) deleteWorkspace(record.id);
			return idle.map((record) => record.id);
		},
		workspaceCount: () => table.all().length,
		listWorkspaces: () => table.all().map(info),

		findClientAnywhere(clientId): FoundClient | undefined {
			const entry = clients.find(clientId);
			const workspace = entry && viewOf(entry.workspace);
			return workspace && { client: entry.client, workspace };
		},
		findAccessToken(token) {
			const found = credentials.lookupAccessToken(token);
			return { lookup: found.lookup, workspace: found.workspace === null ? null : (viewOf(found.workspace) ?? null) };
		},

		close() {
			transactions.commitWaiting();
			logBuffer.flush();
			if (db.open) table.saveLastUse();
			purger.close();
			db.close();
		}
	};
}
