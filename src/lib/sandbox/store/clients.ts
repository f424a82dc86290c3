/**
 * The sandbox's clients (relying parties), served from memory: this process is the database's only writer, and
 * the token endpoint reads the client on every request. A write makes a new, frozen object (`SandboxClient` is
 * read-only), so whatever is derived from a client object, such as its secret's digest, stays true for it.
 * Client ids are unique across workspaces (requests find their workspace by the client id), so a client is found
 * by id alone, with its workspace; each workspace's view checks that the client is its own.
 */
import type Database from 'better-sqlite3';
import { timingSafeEqual } from 'node:crypto';
import { frozenCache } from './frozen-cache';
import { digest, randomCredential } from './random';
import { ClientIdTakenError, type ClientAuthentication, type SandboxClient, type VerificationKey } from './types';

interface ClientRow {
	client_id: string;
	workspace: string;
	client_secret: string;
	name: string;
	redirect_uris: string;
	countries: string;
	verification_key: VerificationKey;
}

/** A cached client and the workspace it belongs to. */
export interface ClientEntry {
	readonly workspace: string;
	readonly client: SandboxClient;
}

function clientFromRow(row: ClientRow): SandboxClient {
	return {
		client_id: row.client_id,
		client_secret: row.client_secret,
		name: row.name,
		redirect_uris: JSON.parse(row.redirect_uris) as string[],
		countries: JSON.parse(row.countries) as string[],
		verification_key: row.verification_key
	};
}

export interface Clients {
	/** The client with this id, in whichever workspace. */
	find(clientId: string): ClientEntry | undefined;
	list(workspace: string): SandboxClient[];
	count(workspace: string): number;
	/** Throws `ClientIdTakenError` when another workspace has the id. */
	upsert(workspace: string, client: SandboxClient): SandboxClient;
	/** Checks the secret of the workspace's client; a client of another workspace is unknown. */
	authenticate(workspace: string, clientId: string, clientSecret: string): ClientAuthentication;
	/** Drops every cached client (after a rollback or a clear). */
	forget(): void;
}

export function openClients(db: Database.Database): Clients {
	const sql = {
		get: db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE client_id = ?'),
		list: db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE workspace = ? ORDER BY client_id'),
		count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM clients WHERE workspace = ?'),
		// Replaces only a client of the same workspace: another workspace's client with this id changes no row.
		upsert: db.prepare(
			`INSERT INTO clients (client_id, workspace, client_secret, name, redirect_uris, countries, verification_key)
			 VALUES (@client_id, @workspace, @client_secret, @name, @redirect_uris, @countries, @verification_key)
			 ON CONFLICT (client_id) DO UPDATE SET client_secret = excluded.client_secret, name = excluded.name,
			 redirect_uris = excluded.redirect_uris, countries = excluded.countries, verification_key = excluded.verification_key
			 WHERE clients.workspace = excluded.workspace`
		)
	};

	const cached = frozenCache((clientId: string): ClientEntry | undefined => {
		const row = sql.get.get(clientId);
		return row && { workspace: row.workspace, client: clientFromRow(row) };
	});
	const find = cached.get;
	const inWorkspace = (workspace: string, clientId: string) => {
		const entry = find(clientId);
		return entry?.workspace === workspace ? entry.client : undefined;
	};

	/** Digests of cached clients' secrets, made once per client object (a changed client is a new object). */
	const secretDigests = new WeakMap<SandboxClient, Buffer>();
	function secretDigestOf(client: SandboxClient): Buffer {
		let known = secretDigests.get(client);
		if (!known) secretDigests.set(client, (known = digest(client.client_secret)));
		return known;
	}

	return {
		find,
		list: (workspace) => sql.list.all(workspace).map(clientFromRow),
		count: (workspace) => sql.count.get(workspace)?.n ?? 0,
		upsert(workspace, client) {
			const written = sql.upsert.run({
				...client,
				workspace,
				redirect_uris: JSON.stringify(client.redirect_uris),
				countries: JSON.stringify(client.countries)
			});
			if (written.changes === 0) throw new ClientIdTakenError(client.client_id);
			cached.delete(client.client_id);
			return inWorkspace(workspace, client.client_id)!;
		},
		authenticate(workspace, clientId, clientSecret) {
			const client = inWorkspace(workspace, clientId);
			// Compare even for an unknown client, so timing does not tell which client ids exist.
			const expected = client ? secretDigestOf(client) : digest(randomCredential());
			const secretMatches = timingSafeEqual(digest(clientSecret), expected);
			if (!client) return { ok: false, cause: 'unknown-client' };
			return secretMatches ? { ok: true, client } : { ok: false, cause: 'wrong-secret' };
		},
		forget: () => cached.clear()
	};
}
