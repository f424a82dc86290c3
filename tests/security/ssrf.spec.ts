/**
 * SSRF through the explorer's HTTP API: a custom target the operator has not allowed is refused with a clear 400
 * before any request, however its address is written, and a redirect from an allowed target is recorded, never
 * followed. A listener on every loopback spelling's port proves nothing left the server. (The config allows only
 * 127.0.0.1:HOSTILE_PORT; private targets are on for it, so these are refused for not being allowed.) A separate
 * explorer with private targets off shows the other rule: hosts the operator allowed that are, or resolve to,
 * internal addresses are refused when a request would go out (unit-tested in src/lib/platform/outbound/ssrf.security.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ExplorerSession, customTarget } from './support/explorer';
import { ACCOUNTS_HOST, EXPLORER, EXTRA_EXPLORER_PORTS, HOSTILE_ORIGIN, HOSTILE_PORT, PORT } from './support/ports';
import { spawnExplorer, startTarget, type Target } from './support/servers';

let listener: Target;

test.beforeAll(async () => {
	// Dual-stack: catches 127.0.0.1, ::1 and ::ffff:127.0.0.1 alike.
	listener = await startTarget(0, (_req, res) => res.end('{"leaked":true}'), '::');
});
test.afterAll(async () => listener.close());

/** Loopback, private and metadata addresses in every spelling the URL parser accepts. */
function spellings(port: number): string[] {
	return [
		`http://2130706433:${port}`,
		`http://0x7f000001:${port}`,
		`http://0x7f.0.0.1:${port}`,
		`http://0177.0.0.1:${port}`,
		`http://127.1:${port}`,
		`http://127.0.0.1.:${port}`,
		`http://127.0.0.1:${port}`,
		`http://localhost:${port}`,
		`http://LOCALHOST:${port}`,
		`http://[::1]:${port}`,
		`http://[0:0:0:0:0:0:0:1]:${port}`,
		`http://[::ffff:127.0.0.1]:${port}`,
		`http://[::ffff:7f00:1]:${port}`,
		`http://[::]:${port}`,
		`http://0.0.0.0:${port}`,
		`http://0:${port}`,
		`http://169.254.169.254:${port}`,
		`http://[fd00::1]:${port}`,
		`http://10.0.0.1:${port}`,
		`http://192.168.0.1:${port}`,
		`http://172.16.0.1:${port}`,
		'http://169.254.169.254',
		'http://10.0.0.1'
	];
}

test('loopback, private and metadata targets in every spelling are refused with a 400 naming the rule, and nothing is contacted', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	for (const url of spellings(listener.port)) {
		for (const [authUrl, accountsUrl] of [
			[url, url],
			[HOSTILE_ORIGIN, url],
			[url, HOSTILE_ORIGIN]
		] as const) {
			const answer = await session.walk('client', customTarget(authUrl, accountsUrl));
			expect(answer.status, `${authUrl} / ${accountsUrl}`).toBe(400);
			expect(answer.body.message, url).toContain('is not an allowed target');
			expect(answer.body.message, url).toContain('EXPLORER_ALLOWED_HOSTS');
		}
	}
	// The refused settings left the sandbox as target: the next request goes there, not to the listener.
	const me = await session.walk('me', { credential: 'none' });
	expect(me.status).toBe(200);
	expect(me.body.view!.exchanges.at(-1)!.exchange.request.url).toBe(`${ACCOUNTS_HOST}/api/v3/me.json`);
	await listener.checkpoint();
	expect(listener.connections).toBe(0);
});

test('the sandbox ports are allowed by their exact origin only: another spelling of them is refused', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	for (const url of [`http://127.0.0.1:${PORT + 2}`, `http://[::1]:${PORT + 2}`, `http://2130706433:${PORT + 1}`, `http://localhost:${PORT}`]) {
		const answer = await session.walk('client', customTarget(url, url));
		expect(answer.status, url).toBe(400);
		expect(answer.body.message).toContain('is not an allowed target');
	}
});

test('other schemes and URLs with credentials are refused with what to write instead', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	const cases: [string, RegExp][] = [
		['file:///etc/passwd', /must use http or https, not file/],
		[`gopher://127.0.0.1:${HOSTILE_PORT}/`, /must use http or https, not gopher/],
		['javascript:alert(1)', /must use http or https/],
		[`http://user:pass@127.0.0.1:${HOSTILE_PORT}`, /user name or password/],
		[`http://127.0.0.1:${HOSTILE_PORT}@10.0.0.1`, /user name or password/],
		[`http://127.0.0.1:${HOSTILE_PORT}/?x=1`, /without \? or #/],
		[`http://127.0.0.1:${HOSTILE_PORT}/#@10.0.0.1`, /without \? or #/],
		['not a url', /is not a URL/]
	];
	for (const [url, message] of cases) {
		const answer = await session.walk('client', customTarget(url, HOSTILE_ORIGIN));
		expect(answer.status, url).toBe(400);
		expect(answer.body.message, url).toMatch(message);
	}
});

test('another spelling of the allowed host is the same host: accepted and written as the operator wrote it (control)', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	const answer = await session.walk('client', customTarget(`http://0x7f000001:${HOSTILE_PORT}`, `http://2130706433:${HOSTILE_PORT}/`));
	expect(answer.status).toBe(200);
	expect(answer.body.view!.target).toEqual({ kind: 'custom', authUrl: HOSTILE_ORIGIN, accountsUrl: HOSTILE_ORIGIN });
});

test('a redirect from the allowed target to a disallowed or internal host is recorded, not followed', async () => {
	const hostile = await startTarget(HOSTILE_PORT, (req, res) => {
		const to = req.url!.startsWith('/oauth/token') ? `http://127.0.0.1:${listener.port}/steal` : `http://[::1]:${listener.port}/me`;
		res.writeHead(req.url!.startsWith('/oauth/token') ? 307 : 302, { Location: to }).end();
	});
	try {
		const session = await new ExplorerSession(EXPLORER).open();
		expect((await session.walk('client', customTarget(HOSTILE_ORIGIN, HOSTILE_ORIGIN))).status).toBe(200);
		await session.callback('code=redirect-test');
		const exchanged = await session.walk('exchange', { transport: 'query' });
		const token = exchanged.body.view!.exchanges.at(-1)!;
		expect(token.exchange.response?.status).toBe(307);
		expect(token.exchange.response?.headers).toContainEqual({ name: 'Location', value: `http://127.0.0.1:${listener.port}/steal` });
		expect(token.annotation.summary).toMatch(/redirect/i);
		const me = await session.walk('me', { credential: 'none' });
		expect(me.body.view!.exchanges.at(-1)!.exchange.response?.status).toBe(302);
		await hostile.checkpoint();
		await listener.checkpoint();
		expect(hostile.received).toEqual([expect.stringMatching(/^POST \/oauth\/token\?/), 'GET /api/v3/me.json']);
		expect(listener.connections).toBe(0);
	} finally {
		await hostile.close();
	}
});

test('importing a HAR that names internal hosts sends nothing anywhere', async () => {
	const url = `http://127.0.0.1:${listener.port}/oauth/token?grant_type=authorization_code&code=x`;
	const har = {
		log: {
			version: '1.2',
			creator: { name: 'test', version: '1' },
			entries: [
				{
					startedDateTime: '2026-01-01T00:00:00.000Z',
					time: 1,
					request: { method: 'POST', url, httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
					response: {
						status: 302,
						statusText: 'Found',
						httpVersion: 'HTTP/1.1',
						cookies: [],
						headers: [{ name: 'Location', value: `http://[::1]:${listener.port}/` }],
						content: { size: 0, mimeType: 'text/plain' },
						redirectURL: `http://[::1]:${listener.port}/`,
						headersSize: -1,
						bodySize: 0
					},
					cache: {},
					timings: { send: 0, wait: 1, receive: 0 }
				}
			]
		}
	};
	const session = await new ExplorerSession(EXPLORER).open();
	const answer = await session.post<{ id?: string; message?: string }>('/api/import', { kind: 'har', text: JSON.stringify(har) });
	expect(answer.status, answer.text).toBe(200);
	const page = await session.request(`/runs/${answer.body.id}`);
	expect(page.status).toBe(200);
	await page.text();
	await listener.checkpoint();
	expect(listener.connections).toBe(0);
});

test('with private targets off, allowed hosts that are or resolve to internal addresses are refused at the request, and nothing is contacted', async () => {
	// Its own explorer: the operator allowed loopback by name, as an IPv4 and as an IPv6 address, but left
	// EXPLORER_ALLOW_PRIVATE_TARGETS off. `localhost` goes through the real resolver.
	const port = EXTRA_EXPLORER_PORTS.privateTargets;
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-ssrf-'));
	const p = listener.port;
	const server = spawnExplorer({ port, dataDir, env: { EXPLORER_ALLOWED_HOSTS: `localhost:${p},127.0.0.1:${p},[::1]:${p}` } });
	try {
		await server.ready;
		const session = await new ExplorerSession(`http://localhost:${port}`).open();
		// Each an allowed host (2130706433 is 127.0.0.1 written as a number), so the settings are accepted.
		for (const origin of [`http://localhost:${p}`, `http://127.0.0.1:${p}`, `http://[::1]:${p}`, `http://2130706433:${p}`]) {
			expect((await session.walk('client', customTarget(origin, origin))).status, origin).toBe(200);
			await session.callback('code=ssrf-private');
			for (const [action, body] of [
				['exchange', { transport: 'query' }],
				['me', { credential: 'none' }]
			] as const) {
				const failure = (await session.walk(action, body)).body.view!.exchanges.at(-1)!.exchange.failure;
				expect(failure?.kind, origin).toBe('refused');
				expect(failure?.message, origin).toMatch(/resolves to (127\.0\.0\.1|::1)/);
				expect(failure?.message, origin).toContain('EXPLORER_ALLOW_PRIVATE_TARGETS');
			}
		}
		await listener.checkpoint();
		expect(listener.connections).toBe(0);
	} finally {
		server.process.kill('SIGTERM');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
});
