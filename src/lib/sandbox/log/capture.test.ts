import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { MASK } from '../../http/exchange';
import { correlationDigest, loggedServer, useWorkspace, type LoggedExchange } from './index';
import { openStore, type SandboxStore } from '../store';
import { exchangeRef } from './test-entries';

let store: SandboxStore;
let server: Server;

/** A server whose every request is logged, answering with `handler`; returns its origin. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
	store = openStore(':memory:');
	server = loggedServer(store, 'accounts', handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The log's entries, oldest first, once the server has seen `count` requests close. */
async function entries(count: number): Promise<LoggedExchange[]> {
	for (let i = 0; i < 100; i++) {
		const logged = store.recentLog(50);
		if (logged.length >= count) return logged.map((e) => e.entry as LoggedExchange).reverse();
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`the log holds ${store.recentLog(50).length} entries, not ${count}`);
}

const readAll = (req: IncomingMessage) =>
	new Promise<string>((resolve) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (body += chunk));
		req.on('end', () => resolve(body));
	});

describe('request log', () => {
	afterEach(async () => {
		await new Promise((resolve) => server.close(resolve));
		store.close();
	});
	it('records the request as it arrived and the response as it was sent, secrets masked', async () => {
		const origin = await serve(async (req, res) => {
			await readAll(req);
			res.setHeader('Cache-Control', 'no-store');
			res.writeHead(201, 'Made', { 'Content-Type': 'application/json', 'X-Extra': 'yes' });
			res.end('{"access_token":"tok-abcdefghijklmnop","ok":true}');
		});
		await fetch(`${origin}/oauth/token?client_id=c1`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'test/1' },
			body: 'grant_type=authorization_code&client_secret=very-secret-value'
		});
		const [entry] = await entries(1);
		expect(entry!.host).toBe('accounts');
		expect(entry!.request.method).toBe('POST');
		expect(entry!.request.url).toBe(`${origin}/oauth/token?client_id=c1`);
		expect(entry!.request.headers).toContainEqual({ name: 'user-agent', value: 'test/1' });
		expect(entry!.request.body).toContain('grant_type=authorization_code');
		expect(entry!.request.body).not.toContain('very-secret-value');
		expect(entry!.response).toMatchObject({ status: 201, statusText: 'Made', truncated: false });
		const headers = Object.fromEntries(entry!.response!.headers.map((h) => [h.name, h.value]));
		expect(headers).toMatchObject({ 'cache-control': 'no-store', 'content-type': 'application/json', 'x-extra': 'yes' });
		expect(entry!.response!.body).toContain('"ok":true');
		expect(entry!.response!.body).not.toContain('tok-abcdefghijklmnop');
		expect(entry!.durationMs).toBeGreaterThanOrEqual(0);
	});

	it('records a body written in pieces, strings and bytes, and headers given as a flat array', async () => {
		const origin = await serve((req, res) => {
			req.resume();
			res.writeHead(200, ['Content-Type', 'text/plain', 'X-Pieces', '3']);
			res.write('one ');
			res.write(Buffer.from('two '));
			res.end('three');
		});
		await (await fetch(origin)).text();
		const [entry] = await entries(1);
		expect(entry!.response!.body).toBe('one two three');
		expect(entry!.response!.headers).toContainEqual({ name: 'x-pieces', value: '3' });
	});

	it('keeps the first 8 KB of a large body and says the response was cut', async () => {
		const origin = await serve(async (req, res) => {
			await readAll(req);
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.end('r'.repeat(20_000));
		});
		await (await fetch(origin, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'q'.repeat(20_000) })).text();
		const [entry] = await entries(1);
		expect(entry!.request.body).toBe('q'.repeat(8192));
		expect(entry!.response!.body).toBe('r'.repeat(8192));
		expect(entry!.response!.truncated).toBe(true);
	});

	it('records a request whose client left before any answer, with no response', async () => {
		let arrived!: () => void;
		const seen = new Promise<void>((resolve) => (arrived = resolve));
		const origin = await serve(() => arrived()); // never answers
		const { port } = new URL(origin);
		const socket = connect(Number(port), '127.0.0.1');
		socket.write('GET /slow HTTP/1.1\r\nHost: sandbox.test\r\n\r\n');
		await seen;
		socket.destroy();
		const [entry] = await entries(1);
		expect(entry!.request.url).toBe('http://sandbox.test/slow');
		expect(entry!.response).toBeNull();
	});

	it('leaves out health checks, assets and reads of the log, but not other methods on them', async () => {
		const origin = await serve((req, res) => {
			req.resume();
			res.end('ok');
		});
		for (const path of ['/health', '/assets/auth.css', '/sandbox/log?limit=5', '/sandbox/state']) await (await fetch(`${origin}${path}`)).text();
		await (await fetch(`${origin}/health`, { method: 'POST' })).text();
		const logged = await entries(1);
		expect(logged.map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual(['POST /health']);
	});

	it('logs many requests on kept-alive connections, each once, in order', async () => {
		const origin = await serve((req, res) => {
			req.resume();
			res.end(req.url);
		});
		for (let i = 0; i < 20; i++) await (await fetch(`${origin}/n/${i}`)).text();
		const logged = await entries(20);
		expect(logged.map((e) => e.response?.body)).toEqual(Array.from({ length: 20 }, (_, i) => `/n/${i}`));
	});
});

describe('request log: the buffer in the store\'s database', () => {
	it('keeps the most recent log entries, newest first', () => {
		const store = openStore(':memory:');
		for (let i = 0; i < 510; i++) store.log({ host: 'accounts', entry: { build: () => exchangeRef(`${i}`) } });
		const recent = store.recentLog(1000);
		expect(recent).toHaveLength(500);
		expect(recent[0]?.entry.ref).toBe('509');
	});
	it('builds only the entries it keeps: a burst beyond the log\'s size costs the newest 500', () => {
		const store = openStore(':memory:');
		const built: number[] = [];
		for (let i = 0; i < 2000; i++) store.log({ host: 'accounts', entry: { build: () => (built.push(i), exchangeRef(`${i}`)) } });
		expect(store.recentLog(1)[0]?.entry.ref).toBe('1999');
		expect(built).toHaveLength(500);
		expect(built[0]).toBe(1500);
	});
	it('keeps the order of entries across several flushes', () => {
		const store = openStore(':memory:');
		for (let i = 0; i < 3; i++) store.log({ host: 'accounts', entry: { build: () => exchangeRef(`${i}`) } });
		expect(store.recentLog(10).map((e) => e.entry.ref)).toEqual(['2', '1', '0']);
		store.log({ host: 'authorisation', entry: { build: () => exchangeRef('3') } });
		expect(store.recentLog(10).map((e) => e.entry.ref)).toEqual(['3', '2', '1', '0']);
	});
	it('writes waiting entries once requests pause, and within 5 s under steady traffic', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-log-'));
		vi.useFakeTimers();
		try {
			const path = join(dir, 'sandbox.db');
			const store = openStore(path);
			const written = () => {
				const reader = new Database(path, { readonly: true });
				const { n } = reader.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number };
				reader.close();
				return n;
			};
			store.log({ host: 'accounts', entry: { build: () => exchangeRef('0') } });
			vi.advanceTimersByTime(150);
			expect(written()).toBe(0);
			vi.advanceTimersByTime(100);
			expect(written()).toBe(1);
			// A request every 50 ms never leaves the sandbox idle; the oldest entry still waits at most 5 s.
			for (let i = 1; i <= 110; i++) {
				store.log({ host: 'accounts', entry: { build: () => exchangeRef(`${i}`) } });
				vi.advanceTimersByTime(50);
			}
			expect(written()).toBeGreaterThan(1);
			expect(written()).toBeLessThan(111);
			store.close();
			expect(written()).toBe(111);
		} finally {
			vi.useRealTimers();
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('request log: one per workspace', () => {
	let running: Server | undefined;
	afterEach(async () => {
		await new Promise((resolve) => (running ? running.close(resolve) : resolve(undefined)));
		running = undefined;
	});

	/** A logged server whose handler files a request under the workspace its `x-ws` header names (if any). */
	async function serveWorkspaces(logUnclaimed: boolean) {
		const store = openStore(':memory:');
		const { workspace, key } = store.createWorkspace({ fixtures: 'empty' });
		running = loggedServer(
			store,
			'accounts',
			(req, res) => {
				if (req.headers['x-ws'] === 'mine') useWorkspace(req, workspace);
				if (req.headers['x-ws'] === 'default') useWorkspace(req, store);
				res.end('ok');
			},
			{ logUnclaimed }
		);
		await new Promise<void>((resolve) => running!.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
		return { store, workspace, key, url };
	}

	async function logged(log: () => { entry: unknown }[], count: number): Promise<LoggedExchange[]> {
		for (let i = 0; i < 100 && log().length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
		return log().map((e) => e.entry as LoggedExchange);
	}

	it('files each request under the workspace that claims it, timed on its clock; unclaimed ones under the default', async () => {
		const { store, workspace, url } = await serveWorkspaces(true);
		workspace.setClock(new Date('2001-01-01T00:00:00Z'));
		await fetch(`${url}/mine`, { headers: { 'x-ws': 'mine' } });
		await fetch(`${url}/default`, { headers: { 'x-ws': 'default' } });
		await fetch(`${url}/nobody`);
		const mine = await logged(() => workspace.recentLog(10), 1);
		expect(mine.map((e) => new URL(e.request.url).pathname)).toEqual(['/mine']);
		expect(mine[0]!.sandboxAt.startsWith('2001-01-01')).toBe(true);
		const others = await logged(() => store.recentLog(10), 2);
		expect(others.map((e) => new URL(e.request.url).pathname).sort()).toEqual(['/default', '/nobody']);
	});

	it('keeps unclaimed requests nowhere when told to (public mode)', async () => {
		const { store, workspace, url } = await serveWorkspaces(false);
		await fetch(`${url}/nobody`);
		await fetch(`${url}/mine`, { headers: { 'x-ws': 'mine' } });
		await logged(() => workspace.recentLog(10), 1);
		expect(store.recentLog(10)).toEqual([]);
	});

	it('masks the workspace key header, and never logs the calls that answer or remove keys', async () => {
		const { workspace, key, url } = await serveWorkspaces(true);
		await fetch(`${url}/sandbox/workspaces`, { method: 'POST', headers: { 'x-ws': 'mine' } });
		await fetch(`${url}/sandbox/workspaces/${workspace.id}`, { method: 'DELETE', headers: { 'x-ws': 'mine', 'X-Sandbox-Workspace-Key': key } });
		await fetch(`${url}/sandbox/state?x=1`, { method: 'POST', headers: { 'x-ws': 'mine', 'X-Sandbox-Workspace-Key': key } });
		const [entry] = await logged(() => workspace.recentLog(10), 1);
		expect(workspace.recentLog(10)).toHaveLength(1);
		expect(entry!.request.headers).toContainEqual({ name: 'X-Sandbox-Workspace-Key', value: MASK });
		expect(JSON.stringify(entry)).not.toContain(key.split('.')[1]);
	});
});

describe('correlation keys and live subscription', () => {
	afterEach(async () => {
		await new Promise((resolve) => server.close(resolve));
		store.close();
	});

	it('joins a redirect, its exchange and a me.json call by digests that reveal no value', async () => {
		const code = 'code-abcdefghijklmnopqrstuvwxyz';
		const token = 'token-abcdefghijklmnopqrstuvwxyz';
		const origin = await serve(async (req, res) => {
			await readAll(req);
			if (req.url!.startsWith('/flow/')) res.writeHead(303, { Location: `http://app.example/cb?code=${code}` }).end();
			else if (req.url!.startsWith('/oauth/token')) res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"access_token":"${token}","refresh_token":"refresh-abcdefghijklmnop"}`);
			else res.writeHead(200).end('{}');
		});
		await fetch(`${origin}/flow/FLOWid123/consent`, { method: 'POST', body: 'decision=authorize', redirect: 'manual' });
		await fetch(`${origin}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa('demo-client:s3cret-value')}` },
			body: `grant_type=authorization_code&code=${code}`
		});
		await fetch(`${origin}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}` } });
		const [consent, exchange, me] = await entries(3);
		expect(consent!.keys.authFlow).toBe(correlationDigest('FLOWid123'));
		expect(consent!.keys.code).toBe(exchange!.keys.code);
		expect(exchange!.keys.clientId).toBe('demo-client');
		expect(exchange!.keys.issued?.[0]).toBe(me!.keys.presented);
		for (const entry of [consent, exchange, me]) {
			expect(JSON.stringify(entry)).not.toContain(code.slice(5));
			expect(JSON.stringify(entry)).not.toContain(token.slice(6));
		}
	});

	it('reads correlation keys of a sign-in\'s own requests only, not of the control API\'s calls', async () => {
		const origin = await serve(async (req, res) => {
			await readAll(req);
			res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
		});
		await fetch(`${origin}/sandbox/outcomes`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=demo-client&outcome=me-404' });
		await fetch(`${origin}/sso/student?client_id=demo-client`);
		const [control, link] = await entries(2);
		expect(control!.keys).toEqual({});
		expect(link!.keys).toEqual({ clientId: 'demo-client' });
	});

	it('tells a subscriber of each entry as it is recorded, building it once, until it unsubscribes', async () => {
		const origin = await serve((req, res) => res.writeHead(204).end());
		const seen: LoggedExchange[] = [];
		const unsubscribe = store.subscribeLog((live) => seen.push(live.entry.build() as LoggedExchange));
		await fetch(`${origin}/one`);
		for (let i = 0; i < 100 && seen.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
		unsubscribe();
		await fetch(`${origin}/two`);
		const written = await entries(2);
		expect(seen.map((e) => new URL(e.request.url).pathname)).toEqual(['/one']);
		expect(written[0]).toEqual(seen[0]);
		expect(written[0]!.ref).not.toBe(written[1]!.ref);
	});
});
