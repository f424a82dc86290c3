/**
 * Issue 26, points 2 and 3: what a hostile visitor of a public sandbox (SANDBOX_PUBLIC=on) can do with workspaces.
 * Scenario runs must not spend a visitor's allowance; one visitor has one allowance whichever door it uses; a flood
 * from many addresses is answered 429 address by address and leaves room for the operator; the panel holds the
 * control API's limits and answers a client id another workspace holds with a 409, not a 500. Each case starts a
 * public explorer of its own; requests come from loopback addresses of our choosing (127.0.0.0/8 is all this machine).
 */
import { expect, test } from '@playwright/test';
import http from 'node:http';
import { ExplorerSession } from './support/explorer';
import { EXTRA_EXPLORER_PORTS } from './support/ports';
import { explorerPerTest, spawnExplorer } from './support/servers';

const PORT = EXTRA_EXPLORER_PORTS.publicWorkspaces;
const EXPLORER = `http://localhost:${PORT}`;
const ACCOUNTS_PORT = PORT + 2;
const TOKEN = 'public-deployment-admin-token-26';
const PER_HOUR = 3;

const spawned = explorerPerTest('sfe-public-workspaces-');

async function start(): Promise<void> {
	spawned.server = spawnExplorer({
		port: PORT,
		dataDir: spawned.dataDir,
		env: { SANDBOX_PUBLIC: 'on', SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: String(PER_HOUR), SANDBOX_ADMIN_TOKEN: TOKEN }
	});
	await spawned.server.ready;
}

/** A request from `from` (a loopback address), over a fresh connection; what the server answered. */
function requestFrom(from: string, port: number, options: { method: string; path: string; headers?: Record<string, string>; body?: string }) {
	return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
		const req = http.request(
			{ host: '127.0.0.1', port, localAddress: from, agent: false, method: options.method, path: options.path, headers: { host: `localhost:${port}`, ...options.headers } },
			(res) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (body += chunk));
				res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
			}
		);
		req.on('error', reject);
		req.end(options.body);
	});
}

/** `POST /sandbox/workspaces` on the accounts host from `from`. */
function createWorkspace(from: string, headers: Record<string, string> = {}) {
	return requestFrom(from, ACCOUNTS_PORT, { method: 'POST', path: '/sandbox/workspaces', headers: { 'content-type': 'application/json', ...headers }, body: '{"fixtures":"empty"}' });
}

/** The explorer's one-click workspace (`POST /workspaces`, the switcher's form) from `from`. */
function explorerWorkspace(from: string) {
	return requestFrom(from, PORT, {
		method: 'POST',
		path: '/workspaces',
		headers: { origin: EXPLORER, 'content-type': 'application/x-www-form-urlencoded' },
		body: 'return_to=%2F'
	});
}

/** Runs a scenario from the scenarios page's API; whether it passed. */
async function runScenario(session: ExplorerSession, id: string): Promise<unknown> {
	const answer = await session.post(`/api/scenarios/${id}`, {});
	const lines = answer.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; passed?: unknown; reason?: string });
	const result = lines.find((line) => line.type === 'result');
	return result?.passed === true ? true : result?.reason ?? answer.text;
}

test('scenario runs spend no visitor\'s allowance: after many, every visitor\'s scenario and workspace still work', async () => {
	test.setTimeout(120_000);
	await start();
	const session = new ExplorerSession(EXPLORER);
	for (let i = 0; i < PER_HOUR + 3; i++) expect(await runScenario(session, 'success'), `run ${i + 1}`).toBe(true);
	// A visitor on this very machine (where the explorer's runs come from) still has its whole allowance.
	for (let i = 0; i < PER_HOUR; i++) expect((await createWorkspace('127.0.0.1')).status).toBe(201);
	expect((await createWorkspace('127.0.0.1')).status).toBe(429);
	// And, that visitor's allowance spent, scenarios still run.
	expect(await runScenario(new ExplorerSession(EXPLORER), 'success')).toBe(true);
	expect(spawned.server!.output()).not.toMatch(/X-Sandbox-Internal-Work/i);
});

test('one allowance per visitor across the control API and the explorer', async () => {
	await start();
	for (let i = 0; i < PER_HOUR; i++) expect((await createWorkspace('127.0.26.1')).status).toBe(201);
	const explorer = await explorerWorkspace('127.0.26.1');
	expect(explorer.status).toBe(429);
	expect(explorer.body).toMatch(/has created 3 workspaces in the last hour.*Try again in \d+ s/);
	// Another visitor is not refused for it, at either door.
	expect((await explorerWorkspace('127.0.26.2')).status).toBe(303);
	expect((await createWorkspace('127.0.26.2')).status).toBe(201);
});

test('a flood from many addresses fills only the visitors\' share: the flooders get 429, the operator still gets room', async () => {
	test.setTimeout(180_000);
	await start();
	// 1,000 workspaces at once, the default one and 50 kept for the operator: 949 for visitors, from 317 addresses.
	const addresses = Array.from({ length: 320 }, (_, i) => `127.1.${i >> 7}.${(i & 127) + 1}`);
	const statuses: number[] = [];
	for (let start = 0; start < addresses.length; start += 16) {
		const batch = addresses.slice(start, start + 16);
		const answers = await Promise.all(batch.map(async (address) => {
			const mine: number[] = [];
			for (let i = 0; i < PER_HOUR; i++) mine.push((await createWorkspace(address)).status);
			return mine;
		}));
		statuses.push(...answers.flat());
	}
	expect(statuses.filter((s) => s === 201)).toHaveLength(949);

	// A flooder asking again is refused for its own allowance: 429, saying when to retry.
	const flooder = await createWorkspace(addresses[0]!);
	expect(flooder.status).toBe(429);
	expect(Number(flooder.headers['retry-after'])).toBeGreaterThan(0);
	// A newcomer finds every visitor's workspace in use (all made moments ago): 503 with when to retry, within
	// half an hour (when the one idle longest may make room), not a day.
	const newcomer = await createWorkspace('127.2.0.1');
	expect(newcomer.status).toBe(503);
	const retryAfter = Number(newcomer.headers['retry-after']);
	expect(retryAfter).toBeGreaterThan(0);
	expect(retryAfter).toBeLessThanOrEqual(1800);
	expect(JSON.parse(newcomer.body).error).toMatch(new RegExp(`Try again in ${retryAfter} s`));
	// The operator's work has its room: the administrator, and the explorer's own scenario runs.
	expect((await createWorkspace('127.2.0.2', { authorization: `Bearer ${TOKEN}` })).status).toBe(201);
	expect(await runScenario(new ExplorerSession(EXPLORER), 'success')).toBe(true);
});

test.describe('the panel holds the control API\'s rules in public mode', () => {
	/** A panel form action (same origin) in `session`. */
	function action(session: ExplorerSession, name: string, fields: Record<string, string>) {
		return session.request(`/sandbox?/${name}`, {
			method: 'POST',
			headers: { origin: EXPLORER, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
			body: new URLSearchParams(fields).toString()
		});
	}
	const client = (id: string) => ({ client_id: id, client_secret: 'a-secret-of-mine', redirect_uris: `${EXPLORER}/callback`, countries: 'uk', verification_key: 'supergroup' });

	async function ownWorkspace(): Promise<ExplorerSession> {
		const session = new ExplorerSession(EXPLORER);
		const made = await session.request('/workspaces', { method: 'POST', headers: { origin: EXPLORER, 'content-type': 'application/x-www-form-urlencoded' }, body: 'return_to=%2Fsandbox' });
		expect(made.status).toBe(303);
		return session;
	}

	test('a client id another workspace holds is a 409 with a clear message in the form, never a 500 or a stack trace', async () => {
		await start();
		const session = await ownWorkspace();
		const saved = await action(session, 'saveClient', client('demo-client'));
		const text = await saved.text();
		expect(saved.status).not.toBe(500);
		expect(text).toContain('"status":409');
		expect(text).toMatch(/taken by another workspace/);
		expect(text).not.toContain('a-secret-of-mine');
		expect(spawned.server!.output()).not.toMatch(/ClientIdTakenError|at .*\.js:\d+/);
	});

	test('adds no client past 20 and no user past 200', async () => {
		test.setTimeout(180_000);
		await start();
		const session = await ownWorkspace();
		/** The form's answer when it was refused as a conflict (409), else null. */
		const conflict = async (name: string, fields: Record<string, string>) => {
			const text = await (await action(session, name, fields)).text();
			return text.includes('"status":409') ? text : null;
		};
		// The workspace starts with the demo fixtures' clients and users; the panel adds until the limit stops it.
		let clients: string | null = null;
		for (let i = 0; i < 25 && clients === null; i++) clients = await conflict('saveClient', client(`panel-client-${i}`));
		expect(clients).toMatch(/20 clients, the most public mode allows/);
		let users: string | null = null;
		for (let i = 0; i < 210 && users === null; i++) {
			users = await conflict('saveUser', { login: `u${i}@example.com`, password: 'a-password-1', verification_supergroup: '', verification_expires_on: '' });
		}
		expect(users).toMatch(/200 users, the most public mode allows/);
	});
});
