/**
 * The workspaces table: which workspaces exist, their keys (stored as digests), clocks and last use. Read once at
 * open and served from memory (this process is the database's only writer); the last use, touched by every
 * request that finds a workspace, is written back in batches (`saveLastUse`), not per request.
 */
import type Database from 'better-sqlite3';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { workspaceClock, type SandboxClock } from './clock';
import { digest, randomCredential } from './random';
import type { NewWorkspace, WorkspaceFixtures, WorkspaceInfo, WorkspaceKind } from './types';

const ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const ID_LENGTH = 10;
/** Between a key's workspace id and its secret: a character base64url never uses. */
const KEY_SEPARATOR = '.';

interface WorkspaceRow {
	id: string;
	kind: WorkspaceKind;
	name: string;
	fixtures: WorkspaceFixtures;
	key_digest: Buffer | null;
	created_ms: number;
	last_used_ms: number;
	clock_offset_ms: number;
	anonymous: 0 | 1;
}

export interface WorkspaceRecord {
	readonly id: string;
	readonly kind: WorkspaceKind;
	readonly name: string;
	readonly fixtures: WorkspaceFixtures;
	readonly createdMs: number;
	lastUsedMs: number;
	readonly anonymous: boolean;
	readonly clock: SandboxClock;
	/** Null for the default workspace, which no key opens. */
	readonly keyDigest: Buffer | null;
}

export interface WorkspaceTable {
	get(id: string): WorkspaceRecord | undefined;
	all(): WorkspaceRecord[];
	create(options: NewWorkspace): { record: WorkspaceRecord; key: string };
	/** The record a key opens, compared in constant time; undefined for a wrong key or an unknown workspace alike. */
	forKey(key: string): WorkspaceRecord | undefined;
	/** Forgets the record and deletes its row (its contents are the store's business). */
	remove(id: string): void;
	touch(record: WorkspaceRecord): void;
	/** Writes the last use of every workspace touched since the previous call. */
	saveLastUse(): void;
}

export function info(record: WorkspaceRecord): WorkspaceInfo {
	return { id: record.id, kind: record.kind, name: record.name, fixtures: record.fixtures, createdMs: record.createdMs, lastUsedMs: record.lastUsedMs, anonymous: record.anonymous };
}

function randomId(): string {
	let id = '';
	for (let i = 0; i < ID_LENGTH; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
	return id;
}

export function openWorkspaceTable(db: Database.Database): WorkspaceTable {
	const sql = {
		all: db.prepare<[], WorkspaceRow>('SELECT * FROM workspaces'),
		insert: db.prepare(
			`INSERT INTO workspaces (id, kind, name, fixtures, key_digest, created_ms, last_used_ms, clock_offset_ms, anonymous)
			 VALUES (@id, 'normal', @name, @fixtures, @key_digest, @created_ms, @created_ms, 0, @anonymous)`
		),
		remove: db.prepare<[string]>('DELETE FROM workspaces WHERE id = ?'),
		setOffset: db.prepare<[number, string]>('UPDATE workspaces SET clock_offset_ms = ? WHERE id = ?'),
		setLastUsed: db.prepare<[number, string]>('UPDATE workspaces SET last_used_ms = ? WHERE id = ?')
	};

	const records = new Map<string, WorkspaceRecord>();
	const touched = new Set<WorkspaceRecord>();

	function recordFromRow(row: WorkspaceRow): WorkspaceRecord {
		return {
			id: row.id,
			kind: row.kind,
			name: row.name,
			fixtures: row.fixtures,
			createdMs: row.created_ms,
			lastUsedMs: row.last_used_ms,
			anonymous: row.anonymous === 1,
			keyDigest: row.key_digest,
			clock: workspaceClock(row.clock_offset_ms, (offset) => sql.setOffset.run(offset, row.id))
		};
	}
	for (const row of sql.all.all()) records.set(row.id, recordFromRow(row));

	/** Compared against when a key names no workspace, so timing does not tell which ids exist. */
	const noWorkspaceDigest = digest(randomCredential());

	return {
		get: (id) => records.get(id),
		all: () => [...records.values()],
		create({ name, fixtures, anonymous = false }) {
			let id = randomId();
			while (records.has(id)) id = randomId();
			const key = `${id}${KEY_SEPARATOR}${randomCredential()}`;
			const row: WorkspaceRow = {
				id,
				kind: 'normal',
				name: name ?? id,
				fixtures,
				key_digest: digest(key),
				created_ms: Date.now(),
				last_used_ms: Date.now(),
				clock_offset_ms: 0,
				anonymous: anonymous ? 1 : 0
			};
			sql.insert.run(row);
			const record = recordFromRow(row);
			records.set(id, record);
			return { record, key };
		},
		forKey(key) {
			const separator = key.indexOf(KEY_SEPARATOR);
			const record = separator > 0 ? records.get(key.slice(0, separator)) : undefined;
			const expected = record?.keyDigest ?? noWorkspaceDigest;
			const matches = timingSafeEqual(digest(key), expected);
			return matches && record?.kind === 'normal' ? record : undefined;
		},
		remove(id) {
			const record = records.get(id);
			if (record) touched.delete(record);
			records.delete(id);
			sql.remove.run(id);
		},
		touch(record) {
			record.lastUsedMs = Date.now();
			touched.add(record);
		},
		saveLastUse() {
			for (const record of touched) sql.setLastUsed.run(record.lastUsedMs, record.id);
			touched.clear();
		}
	};
}
