/**
 * SIGKILL during a load of exchanges and saves. A separate explorer (its own ports and data directory) gets
 * clients, users, codes, tokens and saved runs; then a burst of concurrent exchanges, walks, imports and
 * registrations is cut by SIGKILL. After a restart on the same data directory nothing that was confirmed (answered
 * 200) is lost: runs (walked and imported), clients, users, tokens; and no code can be exchanged twice: every code
 * that was exchanged is now invalid_grant, and each code was exchanged exactly once across before and after, even
 * one whose answer the kill cut after the sandbox had issued its tokens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ExplorerSession, sandboxCode } from '../security/support/explorer';
import { EXTRA_EXPLORER_PORTS } from '../security/support/ports';
import { readSandboxDatabase, spawnExplorer, type SpawnedExplorer } from '../security/support/servers';

const PORT = EXTRA_EXPLORER_PORTS.kill;
const EXPLORER = `http://localhost:${PORT}`;
const ACCOUNTS = `http://localhost:${PORT + 2}`;
const REDIRECT_URI = `${EXPLORER}/callback`;
/** The demo client's link: starting a walk with it gives the walk its run id. */
const LINK = `http://localhost:${PORT + 1}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&country=uk`;

interface Client {
	id: string;
	secret: string;
}

type Outcome = { status: number; body: Record<string, unknown> } | { status: 'no answer'; body?: undefined };

async function post(url: string, body: unknown): Promise<Outcome> {
	try {
		const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	} catch {
		return { status: 'no answer' };
	}
}

async function exchange(code: string, client: Client): Promise<Outcome> {
	const query = new URLSearchParams({
		grant_type: 'authorization_code',
		code,
		redirect_uri: REDIRECT_URI,
		client_id: client.id,
		client_secret: client.secret
	});
	try {
		const response = await fetch(`${ACCOUNTS}/oauth/token?${query}`, { method: 'POST' });
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	} catch {
		return { status: 'no answer' };
	}
}

async function me(token: string): Promise<number> {
	const response = await fetch(`${ACCOUNTS}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'kill-test' } });
	await response.text();
	return response.status;
}

function clientBody(client: Client) {
	return { client_id: client.id, client_secret: client.secret, redirect_uris: [REDIRECT_URI], countries: ['uk'] };
}

function userBody(login: string) {
	return { login, password: 'kill-test-password', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] };
}

/** A walk through the explorer's API; each answer that came back 200 is a saved state of the run. */
async function walk(code: string, saved: Map<string, number>, onSave: () => void = () => undefined): Promise<void> {
	const session = new ExplorerSession(EXPLORER);
	try {
		await session.open();
		if ((await session.walk('start', { link: LINK })).status !== 200) return;
		if ((await session.callback(`code=${encodeURIComponent(code)}`)) !== 303) return;
		for (const [action, body] of [
			['exchange', { transport: 'query' }],
			['me', { credential: 'token' }]
		] as const) {
			const answer = await session.walk(action, body);
			if (answer.status !== 200) return;
			const view = answer.body.view!;
			const tokenOrMe = view.exchanges.filter((e) => e.exchange.step === 'token' || e.exchange.step === 'me').length;
			if (view.runId) saved.set(view.runId, Math.max(saved.get(view.runId) ?? 0, tokenOrMe));
			onSave();
		}
	} catch {
		// Cut by the kill: nothing was confirmed past the last 200.
	}
}

const demo: Client = { id: 'demo-client', secret: 'demo-secret-change-me' };

test('SIGKILL mid-burst loses nothing confirmed, and no code is exchanged twice', async () => {
	test.setTimeout(90_000);
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-kill-'));
	let server: SpawnedExplorer = spawnExplorer({ port: PORT, dataDir });
	try {
		await server.ready;

		// Before: registrations, codes, some exchanged (tokens kept), saved runs.
		const clients: Client[] = Array.from({ length: 10 }, (_, i) => ({ id: `kill-client-${i}`, secret: `kill-secret-${i}-${'x'.repeat(i)}` }));
		const confirmedClients = new Set<string>();
		const confirmedUsers = new Set<string>();
		for (const client of clients) {
			expect((await post(`${ACCOUNTS}/sandbox/clients`, clientBody(client))).status).toBe(200);
			confirmedClients.add(client.id);
		}
		for (let i = 0; i < 10; i++) {
			expect((await post(`${ACCOUNTS}/sandbox/users`, userBody(`kill-user-${i}@example.com`))).status).toBe(200);
			confirmedUsers.add(`kill-user-${i}@example.com`);
		}
		const codes: { code: string; client: Client }[] = [];
		for (let i = 0; i < 160; i++) {
			const client = clients[i % clients.length]!;
			codes.push({ code: await sandboxCode(ACCOUNTS, REDIRECT_URI, { clientId: client.id, login: `kill-user-${i % 10}@example.com` }), client });
		}
		const walkCodes = await Promise.all(Array.from({ length: 30 }, () => sandboxCode(ACCOUNTS, REDIRECT_URI)));

		const successes = new Map<string, number>();
		const tokens: string[] = [];
		const record = (code: string, outcome: Outcome) => {
			if (outcome.status === 200) {
				successes.set(code, (successes.get(code) ?? 0) + 1);
				tokens.push(outcome.body.access_token as string);
			}
		};
		for (const { code, client } of codes.slice(0, 40)) {
			const outcome = await exchange(code, client);
			expect(outcome.status).toBe(200);
			record(code, outcome);
		}
		const savedRuns = new Map<string, number>();
		for (const code of walkCodes.slice(0, 5)) await walk(code, savedRuns);
		expect(savedRuns.size).toBe(5);
		const importOf = (name: string) => ({ kind: 'curl', text: `curl -X POST '${ACCOUNTS}/oauth/token?grant_type=authorization_code&code=${name}'` });
		const importedRuns = new Set<string>();
		for (let i = 0; i < 3; i++) {
			const imported = await post(`${EXPLORER}/api/import`, importOf(`before-${i}`));
			expect(imported.status).toBe(200);
			importedRuns.add(imported.body!.id as string);
		}

		// The burst: exchanges (new codes, and replays of used ones), walks, imports and registrations, all at once.
		// The kill comes once both exchanges and saves are under way: 20 answers, 3 runs saved and 2 imported in the burst.
		// Exchanges go out from a few paced workers, so they are still going when the walks save.
		let answered = 0;
		const savesBefore = savedRuns.size;
		const importsBefore = importedRuns.size;
		let kill: () => void = () => undefined;
		const killed = new Promise<void>((resolve) => (kill = resolve));
		const maybeKill = () => {
			if (answered >= 20 && savedRuns.size >= savesBefore + 3 && importedRuns.size >= importsBefore + 2) kill();
		};
		const counted = <T>(promise: Promise<T>) =>
			promise.then((value) => {
				answered++;
				maybeKill();
				return value;
			});
		const inFlight = codes.slice(40);
		const queue = [...inFlight, ...codes.slice(0, 20)];
		const exchanger = async () => {
			for (let next = queue.shift(); next; next = queue.shift()) {
				const { code, client } = next;
				record(code, await counted(exchange(code, client)));
				await new Promise((r) => setTimeout(r, 5));
			}
		};
		const burst: Promise<unknown>[] = [
			...walkCodes.slice(5).map((code) => walk(code, savedRuns, maybeKill)),
			...Array.from({ length: 10 }, (_, i) =>
				counted(post(`${EXPLORER}/api/import`, importOf(`burst-${i}`))).then(
					(o) => {
						if (o.status === 200) importedRuns.add(o.body.id as string);
						maybeKill();
					}
				)
			),
			...Array.from({ length: 3 }, exchanger),
			...Array.from({ length: 20 }, (_, i) => {
				const client: Client = { id: `burst-client-${i}`, secret: `burst-secret-${i}` };
				return counted(post(`${ACCOUNTS}/sandbox/clients`, clientBody(client))).then((o) => o.status === 200 && confirmedClients.add(client.id));
			}),
			...Array.from({ length: 20 }, (_, i) => {
				const login = `burst-user-${i}@example.com`;
				return counted(post(`${ACCOUNTS}/sandbox/users`, userBody(login))).then((o) => o.status === 200 && confirmedUsers.add(login));
			})
		];
		await Promise.race([killed, Promise.all(burst)]);
		server.process.kill('SIGKILL');
		await server.exited;
		await Promise.all(burst);
		// The kill really was mid-burst: requests were answered and runs saved in it, and others were cut.
		expect(answered).toBeGreaterThanOrEqual(20);
		expect(savedRuns.size).toBeGreaterThanOrEqual(savesBefore + 3);
		expect(importedRuns.size).toBeGreaterThanOrEqual(importsBefore + 2);
		const cut = inFlight.filter(({ code }) => !successes.has(code));
		expect(cut.length).toBeGreaterThan(0);
		test.info().annotations.push({ type: 'burst', description: `${successes.size} codes exchanged, ${cut.length} cut or refused, ${savedRuns.size} runs saved, ${importedRuns.size} imports confirmed` });

		// After: the same data directory.
		server = spawnExplorer({ port: PORT, dataDir });
		await server.ready;

		for (const [runId, exchanges] of savedRuns) {
			const response = await fetch(`${EXPLORER}/runs/${runId}/export/har`);
			expect(response.status, `run ${runId}`).toBe(200);
			const har = (await response.json()) as { log: { entries: { request: { url: string } }[] } };
			const kept = har.log.entries.filter((e) => /\/oauth\/token|\/api\/v3\/me\.json/.test(e.request.url)).length;
			expect(kept, `run ${runId} keeps its confirmed exchanges`).toBeGreaterThanOrEqual(exchanges);
		}
		for (const id of importedRuns) expect((await fetch(`${EXPLORER}/runs/${id}`)).status, `imported run ${id}`).toBe(200);
		const state = (await (await fetch(`${ACCOUNTS}/sandbox/state`)).json()) as { clients: { client_id: string }[]; users: { login: string }[] };
		const clientIds = new Set(state.clients.map((c) => c.client_id));
		const logins = new Set(state.users.map((u) => u.login));
		expect([...confirmedClients].filter((id) => !clientIds.has(id))).toEqual([]);
		expect([...confirmedUsers].filter((login) => !logins.has(login))).toEqual([]);
		expect(clientIds.has('demo-client')).toBe(true);

		const tokenStatuses = await Promise.all(tokens.map(me));
		expect(tokenStatuses.filter((s) => s !== 200)).toEqual([]);
		expect(tokens.length).toBeGreaterThanOrEqual(40);

		// Every code that was exchanged once is used up.
		for (const [code, times] of successes) {
			expect(times, 'no code succeeded twice before the kill').toBe(1);
			const client = codes.find((c) => c.code === code)!.client;
			const again = await exchange(code, client);
			expect(again.status).toBe(400);
			expect(again.body?.error).toBe('invalid_grant');
		}
		// A code whose answer was lost succeeds at most once more, however often it is tried at once.
		for (const { code, client } of cut) {
			const attempts = await Promise.all([exchange(code, client), exchange(code, client), exchange(code, client)]);
			expect(attempts.filter((a) => a.status === 200).length, code).toBeLessThanOrEqual(1);
			for (const a of attempts) if (a.status !== 200) expect(a.body?.error).toBe('invalid_grant');
		}
		// Now every code has been exchanged, before the kill or after: each exactly once, so the sandbox holds one
		// access token per code. A code the kill cut after its tokens were committed would show as two. (Read from
		// the database: the interface has no way to list issued tokens.)
		const issued = readSandboxDatabase(
			dataDir,
			(db) =>
				db
					.prepare("SELECT client_id AS client, count(*) AS tokens FROM issued_tokens WHERE kind = 'access' AND client_id LIKE 'kill-client-%' GROUP BY client_id")
					.all() as { client: string; tokens: number }[]
		);
		const codesPerClient = (client: Client) => codes.filter((c) => c.client === client).length;
		expect(Object.fromEntries(issued.map((row) => [row.client, row.tokens]))).toEqual(Object.fromEntries(clients.map((c) => [c.id, codesPerClient(c)])));
		// The walk codes too: a cut walk's code was exchanged by the explorer at most once.
		for (const code of walkCodes) {
			const attempts = await Promise.all([exchange(code, demo), exchange(code, demo)]);
			expect(attempts.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
		}
		expect(server.output()).not.toContain('demo-secret-change-me');
	} finally {
		server.process.kill('SIGKILL');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
});
