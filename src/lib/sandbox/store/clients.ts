/**
 * The sandbox's clients (relying parties), served from memory: this process is the database's only writer, and
 * the token endpoint reads the client on every request. A write makes a new, frozen object (`SandboxClient` is
 * read-only), so whatever is derived from a client object, such as its secret's digest, stays true for it.
 */
import type Database from 'better-sqlite3';
import { timingSafeEqual } from 'node:crypto';
import { frozenCache } from './frozen-cache';
import { digest, randomCredential } from './random';
import type { ClientAuthentication, SandboxClient, VerificationKey } from './types';

interface ClientRow {
	client_id: string;
	client_secret: string;
	name: string;
	redirect_uris: string;
	countries: string;
	verification_key: VerificationKey;
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
	get(clientId: string): SandboxClient | undefined;
	list(): SandboxClient[];
	upsert(client: SandboxClient): SandboxClient;
	authenticate(clientId: string, clientSecret: string): ClientAuthentication;
	/** Drops every cached client (after a rollback or a clear). */
	forget(): void;
}

export function openClients(db: Database.Database): Clients {
	const sql = {
		get: db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE client_id = ?'),
		list: db.prepare<[], ClientRow>('SELECT * FROM clients ORDER BY client_id'),
		upsert: db.prepare(
			`INSERT INTO clients (client_id, client_secret, name, redirect_uris, countries, verification_key)
			 VALUES (@client_id, @client_secret, @name, @redirect_uris, @countries, @verification_key)
			 ON CONFLICT (client_id) DO UPDATE SET client_secret = excluded.client_secret, name = excluded.name,
			 redirect_uris = excluded.redirect_uris, countries = excluded.countries, verification_key = excluded.verification_key`
		)
	};

	const cached = frozenCache((clientId: string) => {
		const row = sql.get.get(clientId);
		return row && clientFromRow(row);
	});
	const get = cached.get;

	/** Digests of cached clients' secrets, made once per client object (a changed client is a new object). */
	const secretDigests = new WeakMap<SandboxClient, Buffer>();
	function secretDigestOf(client: SandboxClient): Buffer {
		let known = secretDigests.get(client);
		if (!known) secretDigests.set(client, (known = digest(client.client_secret)));
		return known;
	}

	return {
		get,
		list: () => sql.list.all().map(clientFromRow),
		upsert(client) {
			sql.upsert.run({
				...client,
				redirect_uris: JSON.stringify(client.redirect_uris),
				countries: JSON.stringify(client.countries)
			});
			cached.delete(client.client_id);
			return get(client.client_id)!;
		},
		authenticate(clientId, clientSecret) {
			const client = get(clientId);
			// Compare even for an unknown client, so timing does not tell which client ids exist.
			const expected = client ? secretDigestOf(client) : digest(randomCredential());
			const secretMatches = timingSafeEqual(digest(clientSecret), expected);
			if (!client) return { ok: false, cause: 'unknown-client' };
			return secretMatches ? { ok: true, client } : { ok: false, cause: 'wrong-secret' };
		},
		forget: () => cached.clear()
	};
}
