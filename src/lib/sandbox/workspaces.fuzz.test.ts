/**
 * Workspace isolation through every door of the accounts host: the token endpoint (found by client_id), me.json
 * (found by the access token) and the control API (found by the key). Three worlds, the default one and two
 * created ones, each with its clients, a user of its own, codes and tokens; random sequences mix one world's
 * keys, client ids, codes and tokens with another's, and no answer may cross: a code or token is refused as
 * unknown by another world's client, me.json answers with the token's own world's user as that world last set
 * them, a key sees and changes only its world (clients, users, clock), and every
 * request's log entry is in its own world's log and no other. The authorisation page's door is tested in
 * auth/host.test.ts.
 *
 * `npm test` runs a fixed seed and FUZZ_RUNS (200 by default); `npm run fuzz` runs more.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_SETTINGS } from '../fuzzing';
import { startSandbox, type RunningSandbox } from './index';
import type { LoggedExchange } from './log';
import { WRONG_KEY } from './accounts/workspace-access';

const ORIGIN = 'http://localhost:3000';
const CALLBACK = `${ORIGIN}/callback`;
const FUZZ_LOGIN = 'fuzz@example.com';
/** Clocks are set within this window of real time: no code or token is ever old enough to be purged. */
const CLOCK_WINDOW_MS = { before: 2 * 3600_000, after: 20 * 3600_000 };
const CODE_UNKNOWN = 'The code is not one this service issued: pass the `code` from the redirect unchanged (decoded once).';
const REFRESH_UNKNOWN = 'The refresh token is not one this service issued.';

type WorldIndex = 0 | 1 | 2;
interface Client {
	client_id: string;
	client_secret: string;
	verification_key: 'supergroup' | 'group';
}
interface World {
	index: WorldIndex;
	/** Undefined for the default workspace: calls without the header reach it. */
	key: string | undefined;
	clients: Client[];
	sbid: string;
	/** When the fuzz user's student verification expires, as the test last set it. */
	expiresOn: string;
	/** The workspace clock's offset from real time, as the test set it. */
	offsetMs: number;
}
type Credential = { world: WorldIndex; kind: 'code' | 'access' | 'refresh'; value: string };

let sandbox: RunningSandbox;
let worlds: World[];
const credentials: Credential[] = [];
let seq = 0;

/** A control API key choice: a world's (none for the default one), a garbage key, or one world's id with another's secret. */
type KeyChoice = WorldIndex | 'garbage' | 'mixed';

function keyOf(choice: KeyChoice): string | undefined {
	if (typeof choice === 'number') return worlds[choice]!.key;
	if (choice === 'garbage') return 'not-a-key';
	const [id] = worlds[1]!.key!.split('.');
	return `${id}.${worlds[2]!.key!.split('.')[1]}`;
}
const worldOfKey = (choice: KeyChoice): WorldIndex | null => (typeof choice === 'number' ? choice : null);

/** Requests tagged with their number (an unused query parameter), and the world whose log must hold each. */
const expectedLog = new Map<number, WorldIndex>();

async function send(path: string, init: RequestInit & { key?: string }, logTo: WorldIndex | 'unlogged'): Promise<Response> {
	const n = ++seq;
	if (logTo !== 'unlogged') expectedLog.set(n, logTo);
	const headers = new Headers(init.headers);
	if (init.key !== undefined) headers.set('X-Sandbox-Workspace-Key', init.key);
	const separator = path.includes('?') ? '&' : '?';
	const res = await fetch(`${sandbox.accountsUrl}${path}${separator}fz=${n}`, { ...init, headers });
	expect(res.status, `${path}`).toBeLessThan(500);
	return res;
}

function control(method: string, path: string, choice: KeyChoice, body?: unknown, logged = true): Promise<Response> {
	// Unclaimed requests (a key that opens nothing) go to the default workspace's log.
	const logTo = logged ? (worldOfKey(choice) ?? 0) : 'unlogged';
	return send(
		`/sandbox/${path}`,
		{ method, key: keyOf(choice), headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) },
		logTo
	);
}

const worldOfClient = (clientId: string) => worlds.find((w) => w.clients.some((c) => c.client_id === clientId))!.index;
const allClients = () => worlds.flatMap((w) => w.clients);

async function authorize(choice: KeyChoice, client: Client): Promise<void> {
	const res = await control('POST', 'authorize', choice, {
		supergroup: 'student',
		response_type: 'code',
		client_id: client.client_id,
		redirect_uri: CALLBACK,
		country: 'uk',
		login: FUZZ_LOGIN,
		decision: 'authorize'
	});
	const keyWorld = worldOfKey(choice);
	if (keyWorld === null) {
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ error: WRONG_KEY });
	} else if (keyWorld !== worldOfClient(client.client_id)) {
		expect(res.status).toBe(400);
		expect(((await res.json()) as { row: string }).row).toBe('auth-invalid-client');
	} else {
		expect(res.status).toBe(200);
		const code = new URL(((await res.json()) as { location: string }).location).searchParams.get('code')!;
		credentials.push({ world: keyWorld, kind: 'code', value: code });
	}
}

async function exchange(client: Client, credential: Credential): Promise<void> {
	const grant: Record<string, string> =
		credential.kind === 'refresh'
			? { grant_type: 'refresh_token', refresh_token: credential.value }
			: { grant_type: 'authorization_code', code: credential.value, redirect_uri: CALLBACK };
	const clientWorld = worldOfClient(client.client_id);
	const res = await send(
		'/oauth/token',
		{ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...grant, client_id: client.client_id, client_secret: client.client_secret }).toString() },
		clientWorld
	);
	const body = (await res.json()) as Record<string, unknown>;
	if (clientWorld !== credential.world) {
		expect(res.status).toBe(400);
		expect(body).toEqual({
			error: 'invalid_grant',
			error_description: credential.kind === 'refresh' ? REFRESH_UNKNOWN : CODE_UNKNOWN
		});
		return;
	}
	if (res.status === 200) {
		expect(credential.kind).not.toBe('access');
		credentials.push({ world: clientWorld, kind: 'access', value: body.access_token as string });
		credentials.push({ world: clientWorld, kind: 'refresh', value: body.refresh_token as string });
	} else {
		expect(body.error).toBe('invalid_grant'); // used, another client of the same world, or an access token
	}
}

async function me(credential: Credential): Promise<void> {
	const res = await send('/api/v3/me.json', { headers: { Authorization: `Bearer ${credential.value}`, 'User-Agent': 'fuzz' } }, credential.world);
	if (credential.kind !== 'access') {
		expect(res.status).toBe(401);
		return;
	}
	expect(res.status).toBe(200);
	const body = (await res.json()) as { sbid_number: string; verifications: { expires_on: string }[] };
	expect(body.sbid_number).toBe(worlds[credential.world]!.sbid);
	expect(body.verifications.map((v) => v.expires_on)).toEqual([worlds[credential.world]!.expiresOn]);
}

/** Changes the fuzz user's verification through the control API: only the key's world sees it. */
async function updateUser(choice: KeyChoice, expiresOn: string): Promise<void> {
	const res = await control('POST', 'users', choice, { login: FUZZ_LOGIN, password: 'p', verifications: [{ supergroup: 'student', expires_on: expiresOn }] });
	const keyWorld = worldOfKey(choice);
	if (keyWorld === null) {
		expect(res.status).toBe(403);
		return;
	}
	expect(res.status).toBe(200);
	const body = (await res.json()) as { sbid_number: string };
	expect(body.sbid_number).toBe(worlds[keyWorld]!.sbid);
	worlds[keyWorld]!.expiresOn = expiresOn;
}

async function state(choice: KeyChoice): Promise<void> {
	const res = await control('GET', 'state', choice, undefined, false);
	const keyWorld = worldOfKey(choice);
	if (keyWorld === null) {
		expect(res.status).toBe(403);
		return;
	}
	const body = (await res.json()) as { clients: { client_id: string }[]; users: { login: string; sbid_number: string }[] };
	expect(body.clients.map((c) => c.client_id)).toEqual(worlds[keyWorld]!.clients.map((c) => c.client_id));
	expect(body.users.find((u) => u.login === FUZZ_LOGIN)?.sbid_number).toBe(worlds[keyWorld]!.sbid);
}

async function setClock(choice: KeyChoice, offsetMs: number): Promise<void> {
	const res = await control('POST', 'clock', choice, { set: new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z') });
	const keyWorld = worldOfKey(choice);
	if (keyWorld === null) {
		expect(res.status).toBe(403);
	} else {
		expect(res.status).toBe(200);
		worlds[keyWorld]!.offsetMs = offsetMs;
	}
	await expectClocks();
}

/** Every world's clock is where the test last set it, whoever moved a clock since. */
async function expectClocks(): Promise<void> {
	for (const world of worlds) {
		const res = await control('GET', 'workspace', world.index, undefined, false);
		const { now } = (await res.json()) as { now: string };
		expect(Math.abs(Date.parse(now) - (Date.now() + world.offsetMs))).toBeLessThan(5000);
	}
}

async function replaceClient(choice: KeyChoice, client: Client): Promise<void> {
	const res = await control('POST', 'clients', choice, {
		client_id: client.client_id,
		client_secret: client.client_secret,
		redirect_uris: [CALLBACK],
		countries: ['uk', 'ie', 'fr', 'de', 'us'],
		verification_key: client.verification_key
	});
	const keyWorld = worldOfKey(choice);
	expect(res.status).toBe(keyWorld === null ? 403 : keyWorld === worldOfClient(client.client_id) ? 200 : 409);
}

/** Each request of the run is in its own world's log and in no other; no log holds a workspace key. */
async function expectLogs(numbers: number[]): Promise<void> {
	const keys = worlds.flatMap((w) => (w.key ? [w.key.split('.')[1]!] : []));
	let logged: Set<number>[] = [];
	for (let attempt = 0; attempt < 100; attempt++) {
		const texts = await Promise.all(
			worlds.map(async (world) => {
				const res = await fetch(`${sandbox.accountsUrl}/sandbox/log?limit=500`, { headers: world.key ? { 'X-Sandbox-Workspace-Key': world.key } : {} });
				return res.text();
			})
		);
		for (const text of texts) for (const key of keys) expect(text).not.toContain(key);
		logged = texts.map((text) => {
			const { entries } = JSON.parse(text) as { entries: { entry: LoggedExchange }[] };
			return new Set(entries.map((e) => Number(new URL(e.entry.request.url).searchParams.get('fz'))));
		});
		if (numbers.every((n) => logged[expectedLog.get(n)!]!.has(n))) break;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	for (const n of numbers) {
		const home = expectedLog.get(n)!;
		for (const world of worlds) expect(logged[world.index]!.has(n), `request ${n} in the log of world ${world.index}`).toBe(world.index === home);
	}
}

const keyChoice = fc.constantFrom<KeyChoice>(0, 1, 2, 'garbage', 'mixed');
const step = fc.oneof(
	fc.record({ kind: fc.constant('authorize' as const), key: keyChoice, client: fc.nat() }),
	fc.record({ kind: fc.constant('exchange' as const), client: fc.nat(), credential: fc.nat() }),
	fc.record({ kind: fc.constant('me' as const), credential: fc.nat() }),
	fc.record({ kind: fc.constant('state' as const), key: keyChoice }),
	fc.record({ kind: fc.constant('clock' as const), key: keyChoice, offsetMs: fc.integer({ min: -CLOCK_WINDOW_MS.before, max: CLOCK_WINDOW_MS.after }) }),
	fc.record({ kind: fc.constant('client' as const), key: keyChoice, client: fc.nat() }),
	fc.record({ kind: fc.constant('user' as const), key: keyChoice, day: fc.integer({ min: 0, max: 3000 }) })
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

async function run(s: Step): Promise<void> {
	const pick = <T>(items: T[], n: number) => items[n % items.length]!;
	switch (s.kind) {
		case 'authorize':
			return authorize(s.key, pick(allClients(), s.client));
		case 'exchange':
			return exchange(pick(allClients(), s.client), pick(credentials, s.credential));
		case 'me':
			return me(pick(credentials, s.credential));
		case 'state':
			return state(s.key);
		case 'clock':
			return setClock(s.key, s.offsetMs);
		case 'client':
			return replaceClient(s.key, pick(allClients(), s.client));
		case 'user':
			return updateUser(s.key, new Date(Date.UTC(2090, 0, 1) + s.day * 86_400_000).toISOString().slice(0, 10));
	}
}

async function createWorld(index: WorldIndex): Promise<World> {
	let key: string | undefined;
	if (index !== 0) {
		const res = await fetch(`${sandbox.accountsUrl}/sandbox/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		key = ((await res.json()) as { key: string }).key;
	}
	const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { 'X-Sandbox-Workspace-Key': key } : {}) };
	const user = await fetch(`${sandbox.accountsUrl}/sandbox/users`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ login: FUZZ_LOGIN, password: 'p', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] })
	});
	const { sbid_number } = (await user.json()) as { sbid_number: string };
	const workspace = key ? sandbox.store.workspaceForKey(key)! : sandbox.store;
	const clients = workspace.listClients().map(({ client_id, client_secret, verification_key }) => ({ client_id, client_secret, verification_key }));
	return { index, key, clients, sbid: sbid_number, expiresOn: '2099-01-01', offsetMs: 0 };
}

describe('workspaces: no door crosses from one to another', () => {
	beforeAll(async () => {
		sandbox = await startSandbox({ authPort: 0, accountsPort: 0, hostname: '127.0.0.1', explorerOrigin: ORIGIN, databasePath: ':memory:', controlApi: true });
		worlds = [await createWorld(0), await createWorld(1), await createWorld(2)];
		expect(new Set(worlds.map((w) => w.sbid)).size).toBe(3);
		for (const world of worlds) {
			for (const client of world.clients) {
				await authorize(world.index, client);
				await exchange(client, credentials.at(-1)!);
				await authorize(world.index, client);
			}
		}
	});
	afterAll(() => sandbox.close());

	it('mixing the keys, client ids, codes and tokens of three workspaces finds no crossing', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
				const first = seq + 1;
				for (const s of steps) await run(s);
				await expectLogs([...expectedLog.keys()].filter((n) => n >= first));
			}),
			FUZZ_SETTINGS
		);
	}, 120_000);
});
