/**
 * The sandbox's users and their verifications. Users looked up by id (me.json's path) are served from memory:
 * this process is the database's only writer, and every write goes through `writeUser`, which replaces the cached
 * object instead of changing it. Cached users are frozen, and `SandboxUser` is read-only, so no caller can change
 * what the next one reads. A user belongs to one workspace: logins and sbid numbers are unique within it, ids
 * across the sandbox, and each workspace's view checks that a user found by id is its own.
 */
import type Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { LIMITS, type Supergroup } from '../../protocol';
import { frozenCache } from './frozen-cache';
import { hashPassword, passwordMatches } from './passwords';
import type { SandboxUser, SandboxVerification, UserInput } from './types';

const SBID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomSbidNumber(): string {
	let value = '';
	for (let i = 0; i < LIMITS.sbidLength; i++) value += SBID_ALPHABET[randomInt(SBID_ALPHABET.length)];
	return value;
}

interface UserRow {
	id: number;
	workspace: string;
	login: string;
	password_hash: string;
	sbid_number: string;
	deletion_requested: number;
}

/** A cached user and the workspace they belong to. */
export interface UserEntry {
	readonly workspace: string;
	readonly user: SandboxUser;
}

export interface Users {
	/** The user with this id, in whichever workspace. */
	find(id: number): UserEntry | undefined;
	getByLogin(workspace: string, login: string): SandboxUser | undefined;
	list(workspace: string): SandboxUser[];
	count(workspace: string): number;
	/** Not a transaction of its own: the store runs it in one. */
	upsert(workspace: string, input: UserInput): SandboxUser;
	authenticate(workspace: string, login: string, password: string): SandboxUser | undefined;
	/** The caller has checked that the user is of the workspace it acts for. */
	addVerification(userId: number, supergroup: Supergroup, expiresOn: string): SandboxUser;
	/** Drops every cached user (after a rollback or a clear). */
	forget(): void;
}

export function openUsers(db: Database.Database): Users {
	const sql = {
		get: db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?'),
		getByLogin: db.prepare<[string, string], UserRow>('SELECT * FROM users WHERE workspace = ? AND login = ?'),
		list: db.prepare<[string], UserRow>('SELECT * FROM users WHERE workspace = ? ORDER BY id'),
		count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM users WHERE workspace = ?'),
		sbidTaken: db.prepare<[string, string], { id: number }>('SELECT id FROM users WHERE workspace = ? AND sbid_number = ?'),
		insert: db.prepare<[string, string, string, string, number]>(
			'INSERT INTO users (workspace, login, password_hash, sbid_number, deletion_requested) VALUES (?, ?, ?, ?, ?)'
		),
		update: db.prepare<[string, number, number]>('UPDATE users SET password_hash = ?, deletion_requested = ? WHERE id = ?'),
		verificationsOf: db.prepare<[number], SandboxVerification>(
			'SELECT supergroup, expires_on FROM verifications WHERE user_id = ? ORDER BY supergroup'
		),
		clearVerifications: db.prepare<[number]>('DELETE FROM verifications WHERE user_id = ?'),
		putVerification: db.prepare<[number, string, string]>(
			`INSERT INTO verifications (user_id, supergroup, expires_on) VALUES (?, ?, ?)
			 ON CONFLICT (user_id, supergroup) DO UPDATE SET expires_on = excluded.expires_on`
		)
	};

	function userFromRow(row: UserRow): SandboxUser {
		return {
			id: row.id,
			login: row.login,
			sbid_number: row.sbid_number,
			verifications: sql.verificationsOf.all(row.id),
			deletion_requested: row.deletion_requested === 1
		};
	}

	const cached = frozenCache((id: number): UserEntry | undefined => {
		const row = sql.get.get(id);
		return row && { workspace: row.workspace, user: userFromRow(row) };
	});
	const find = cached.get;

	/**
	 * The one way a user is written: `write` changes their rows and returns their id; the cached object is then
	 * replaced by one read afresh, never changed.
	 */
	function writeUser(write: () => number): SandboxUser | undefined {
		const id = write();
		cached.delete(id);
		return find(id)?.user;
	}

	function uniqueSbidNumber(workspace: string): string {
		for (;;) {
			const candidate = randomSbidNumber();
			if (!sql.sbidTaken.get(workspace, candidate)) return candidate;
		}
	}

	function upsert(workspace: string, input: UserInput): SandboxUser {
		const existing = sql.getByLogin.get(workspace, input.login);
		const given = input.password;
		const passwordHash = given === undefined ? existing?.password_hash : typeof given === 'string' ? hashPassword(given).hash : given.hash;
		if (passwordHash === undefined) throw new Error(`a new user (${input.login}) needs a password`);
		const deletion = input.deletion_requested ? 1 : 0;
		return writeUser(() => {
			let id: number;
			if (existing) {
				id = existing.id;
				sql.update.run(passwordHash, deletion, id);
				sql.clearVerifications.run(id);
			} else {
				const sbid = input.sbid_number ?? uniqueSbidNumber(workspace);
				id = Number(sql.insert.run(workspace, input.login, passwordHash, sbid, deletion).lastInsertRowid);
			}
			for (const v of input.verifications) sql.putVerification.run(id, v.supergroup, v.expires_on);
			return id;
		})!;
	}

	return {
		find,
		getByLogin(workspace, login) {
			const row = sql.getByLogin.get(workspace, login);
			return row && userFromRow(row);
		},
		list: (workspace) => sql.list.all(workspace).map(userFromRow),
		count: (workspace) => sql.count.get(workspace)?.n ?? 0,
		upsert,
		authenticate(workspace, login, password) {
			const row = sql.getByLogin.get(workspace, login);
			const matches = passwordMatches(password, row?.password_hash);
			return row && matches ? userFromRow(row) : undefined;
		},
		addVerification(userId, supergroup, expiresOn) {
			const user = writeUser(() => {
				sql.putVerification.run(userId, supergroup, expiresOn);
				return userId;
			});
			if (!user) throw new Error(`no user with id ${userId}`);
			return user;
		},
		forget: () => cached.clear()
	};
}
