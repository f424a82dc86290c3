/**
 * The sandbox's shipped data: applied to a fresh database and on `POST /sandbox/reset`. Exported as data so the
 * docs/sandbox.md and the explorer's UI can list them.
 */
import type { Supergroup } from '../protocol';
import {
	DEFAULT_WORKSPACE_ID,
	hashPassword,
	type CreatedWorkspace,
	type PasswordHash,
	type SandboxClient,
	type SandboxStore,
	type SandboxWorkspace,
	type NewWorkspace
} from './store';
import { addDays } from '../dates';

export const FIXTURE_PASSWORD = 'password';

export interface FixtureClient extends Omit<SandboxClient, 'redirect_uris'> {
	/** Path on the explorer's origin; the registered redirect URI follows `PORT`. */
	redirect_path: string;
	description: string;
}

export interface FixtureUser {
	login: string;
	sbid_number: string;
	/** Expiry relative to the sandbox's today when the fixtures are applied: -1 is yesterday (expired). */
	verifications: { supergroup: Supergroup; expiresInDays: number }[];
	deletion_requested: boolean;
	description: string;
}

export const FIXTURE_CLIENTS: readonly FixtureClient[] = [
	{
		client_id: 'demo-client',
		client_secret: 'demo-secret-change-me',
		name: 'Demo Shop',
		redirect_path: '/callback',
		countries: ['uk', 'ie', 'fr', 'de', 'us'],
		verification_key: 'supergroup',
		description: 'The explorer\'s default client; me.json elements carry the key `supergroup`.'
	},
	{
		client_id: 'group-key-client',
		client_secret: 'group-secret-change-me',
		name: 'Group Key Shop',
		redirect_path: '/callback',
		countries: ['uk', 'ie', 'fr', 'de', 'us'],
		verification_key: 'group',
		description: 'Like Demo Shop, but me.json elements carry the key `group` (the interface\'s sample form).'
	}
];

/** The demo client's redirect URI on the explorer at `explorerOrigin` (its /callback): where a walk comes back. */
export function demoRedirectUri(explorerOrigin: string): string {
	return new URL(FIXTURE_CLIENTS[0]!.redirect_path, explorerOrigin).href;
}

const YEAR = 365;

export const FIXTURE_USERS: readonly FixtureUser[] = [
	{ login: 'student@example.com', sbid_number: 'STU0001', verifications: [{ supergroup: 'student', expiresInDays: YEAR }], deletion_requested: false, description: 'Verified student.' },
	{ login: 'graduate@example.com', sbid_number: 'GRD0002', verifications: [{ supergroup: 'graduate', expiresInDays: YEAR }], deletion_requested: false, description: 'Verified graduate.' },
	{ login: 'key-worker@example.com', sbid_number: 'KWK0003', verifications: [{ supergroup: 'key-worker', expiresInDays: YEAR }], deletion_requested: false, description: 'Verified key worker.' },
	{ login: 'social@example.com', sbid_number: 'SOC0004', verifications: [{ supergroup: 'social-assistance', expiresInDays: YEAR }], deletion_requested: false, description: 'Verified for social assistance.' },
	{
		login: 'multi@example.com',
		sbid_number: 'MUL0005',
		verifications: [
			{ supergroup: 'graduate', expiresInDays: 90 },
			{ supergroup: 'key-worker', expiresInDays: YEAR },
			{ supergroup: 'social-assistance', expiresInDays: 30 }
		],
		deletion_requested: false,
		description: 'Verified in several supergroups at once (graduate, key-worker, social-assistance).'
	},
	{ login: 'unverified@example.com', sbid_number: 'NON0006', verifications: [], deletion_requested: false, description: 'An account with no verification at all.' },
	{ login: 'expired@example.com', sbid_number: 'EXP0007', verifications: [{ supergroup: 'student', expiresInDays: -1 }], deletion_requested: false, description: 'Student verification that expired yesterday: me.json does not list it.' },
	{ login: 'new@example.com', sbid_number: 'NEW0008', verifications: [], deletion_requested: false, description: 'Must verify on the page: signs in, then goes through the verification step for the requested supergroup.' },
	{ login: 'deleted@example.com', sbid_number: 'DEL0009', verifications: [{ supergroup: 'student', expiresInDays: YEAR }], deletion_requested: true, description: 'Asked for account deletion: can authorise, but me.json answers 404.' }
];

let sharedPasswordHash: PasswordHash | undefined;

/**
 * A fixture client's id in a workspace. Client ids are unique across the sandbox (a request finds its workspace by
 * its client_id), so another workspace's copy of `demo-client` is `demo-client~{workspace id}`: same secret, same
 * redirect URI, same plan. The default workspace keeps the shipped ids.
 */
export function fixtureClientId(clientId: string, workspaceId: string): string {
	return workspaceId === DEFAULT_WORKSPACE_ID ? clientId : `${clientId}~${workspaceId}`;
}

/** Adds the fixtures to the workspace (clients replaced, users updated by login), relative to its today. */
export function applyFixtures(store: SandboxWorkspace, explorerOrigin: string): void {
	// Hashed once per process: resets stay fast, and every fixture user has the same published password anyway.
	sharedPasswordHash ??= hashPassword(FIXTURE_PASSWORD);
	const today = store.today();
	const password = sharedPasswordHash;
	store.transaction(() => {
		for (const { redirect_path, description: _, ...client } of FIXTURE_CLIENTS) {
			store.upsertClient({
				...client,
				client_id: fixtureClientId(client.client_id, store.id),
				redirect_uris: [new URL(redirect_path, explorerOrigin).href]
			});
		}
		for (const user of FIXTURE_USERS) {
			store.upsertUser({
				login: user.login,
				password,
				sbid_number: user.sbid_number,
				deletion_requested: user.deletion_requested,
				verifications: user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: addDays(today, v.expiresInDays) }))
			});
		}
	});
}

/** A new workspace, with the demo fixtures copied in unless `fixtures` is 'empty'; its key is in the answer. */
export function createWorkspace(store: SandboxStore, options: NewWorkspace, explorerOrigin: string): CreatedWorkspace {
	const created = store.createWorkspace(options);
	if (options.fixtures === 'demo') applyFixtures(created.workspace, explorerOrigin);
	return created;
}

/**
 * Back to how the workspace was made: everything created removed, the clock back to real time, and the fixtures
 * again unless it was made empty.
 */
export function resetToFixtures(store: SandboxWorkspace, explorerOrigin: string): void {
	store.transaction(() => {
		store.clear();
		if (store.info().fixtures === 'demo') applyFixtures(store, explorerOrigin);
	});
}
