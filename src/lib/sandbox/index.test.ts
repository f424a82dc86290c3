import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MeResponse, TokenResponse } from '../protocol/schemas';
import { FIXTURE_USERS, startSandbox, type RunningSandbox } from './index';

const ORIGIN = 'http://localhost:3000';
const CALLBACK = `${ORIGIN}/callback`;
const SECRET = 'demo-secret-change-me';

let dir: string;
let running: RunningSandbox[] = [];

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
});
afterEach(async () => {
	await Promise.all(running.map((s) => s.close()));
	running = [];
	rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<RunningSandbox> {
	const sandbox = await startSandbox({
		authPort: 0,
		accountsPort: 0,
		hostname: '127.0.0.1',
		explorerOrigin: ORIGIN,
		databasePath: join(dir, 'data', 'sandbox.db'),
		controlApi: true
	});
	running.push(sandbox);
	return sandbox;
}

async function stop(sandbox: RunningSandbox): Promise<void> {
	await sandbox.close();
	running = running.filter((s) => s !== sandbox);
}

const json = { 'content-type': 'application/json' };

async function accessToken(sandbox: RunningSandbox): Promise<string> {
	const authorize = await fetch(`${sandbox.accountsUrl}/sandbox/authorize`, {
		method: 'POST',
		headers: json,
		body: JSON.stringify({ supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: CALLBACK, country: 'uk', login: 'student@example.com', decision: 'authorize' })
	});
	const code = new URL(((await authorize.json()) as { location: string }).location).searchParams.get('code')!;
	const params = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'demo-client', client_secret: SECRET });
	const res = await fetch(`${sandbox.accountsUrl}/oauth/token?${params}`, { method: 'POST' });
	return TokenResponse.parse(await res.json()).access_token;
}

describe('startSandbox', () => {
	it('listens on real ports for port 0 and answers health checks on both hosts', async () => {
		const sandbox = await start();
		expect(sandbox.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sandbox.authUrl).not.toBe(sandbox.accountsUrl);
		expect((await fetch(`${sandbox.accountsUrl}/health`)).status).toBe(200);
		expect((await fetch(`${sandbox.authUrl}/health`)).status).toBe(200);
	});
	it('applies the fixtures to a new database', async () => {
		const sandbox = await start();
		expect(sandbox.store.getClient('demo-client')?.redirect_uris).toEqual([CALLBACK]);
		expect(sandbox.store.listUsers().map((u) => u.login)).toEqual(FIXTURE_USERS.map((u) => u.login));
	});
	it('serves the authorisation page for a valid link', async () => {
		const sandbox = await start();
		const link = new URLSearchParams({ response_type: 'code', client_id: 'demo-client', redirect_uri: CALLBACK, country: 'uk' });
		const res = await fetch(`${sandbox.authUrl}/sso/student?${link}`, { redirect: 'manual' });
		expect(res.status).toBeLessThan(400);
	});
	it('keeps clients, users and tokens across a restart, and does not re-apply fixtures', async () => {
		let sandbox = await start();
		const token = await accessToken(sandbox);
		sandbox.store.upsertUser({ login: 'student@example.com', password: 'changed', verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }] });
		await stop(sandbox);

		sandbox = await start();
		const res = await fetch(`${sandbox.accountsUrl}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'test/1' } });
		expect(res.status).toBe(200);
		expect(MeResponse.parse(await res.json()).verifications).toEqual([{ supergroup: 'student', expires_on: '2099-01-01' }]);
		expect(sandbox.store.authenticateUser('student@example.com', 'changed')).toBeDefined();
	});
});

describe('request log', () => {
	it('records requests to both hosts with secrets, codes, tokens and passwords masked', async () => {
		const sandbox = await start();
		const token = await accessToken(sandbox);
		await fetch(`${sandbox.accountsUrl}/api/v3/me.json?access_token=${token}`, { headers: { 'user-agent': 'test/1' } });
		await fetch(`${sandbox.accountsUrl}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'test/1' } });
		await fetch(`${sandbox.accountsUrl}/sandbox/users`, {
			method: 'POST',
			headers: json,
			body: JSON.stringify({ login: 'x@example.com', password: 'hunter2-password', verifications: [] })
		});
		await fetch(`${sandbox.authUrl}/sso/student?client_id=nope`);

		const res = await fetch(`${sandbox.accountsUrl}/sandbox/log`);
		const { entries } = (await res.json()) as { entries: { host: string; entry: { request: { url: string } } }[] };
		const text = JSON.stringify(entries);
		expect(entries.map((e) => e.host)).toContain('authorisation');
		expect(entries.some((e) => e.entry.request.url.includes('/oauth/token'))).toBe(true);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(token);
		expect(text).not.toContain('hunter2-password');
		const tokenEntry = entries.find((e) => e.entry.request.url.includes('/oauth/token'));
		expect(JSON.stringify(tokenEntry)).toContain('cache-control');
		expect(text).not.toMatch(/code=[A-Za-z0-9_-]{43}/);
	});
	it('does not log the log itself', async () => {
		const sandbox = await start();
		await fetch(`${sandbox.accountsUrl}/sandbox/log`);
		await fetch(`${sandbox.accountsUrl}/health`);
		expect(sandbox.store.recentLog(10)).toEqual([]);
	});
});

