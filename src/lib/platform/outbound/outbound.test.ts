import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { send, type OutboundRequest } from './outbound';
import { holdSecret } from './held-secret';
import { testConfig } from '../test-config';
import { CHECKPOINT_PATH, checkpoint } from '../test-checkpoint';

/** Loopback may be called only because the operator said so; other hosts stay refused. */
const config = testConfig({ EXPLORER_ALLOWED_HOSTS: '127.0.0.1', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });

interface Seen {
	method: string;
	url: string;
	rawHeaders: string[];
	body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A local server on an ephemeral port; `seen` records each request as it arrived. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
	const seen: Seen[] = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString()));
		req.on('end', () => {
			seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body });
			handler(req, res);
		});
	});
	const connections: Socket[] = [];
	server.on('connection', (socket) => {
		connections.push(socket);
		server.once('close', () => socket.destroy());
	});
	servers.push(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { origin, seen, server, connections };
}

const get = (url: string, headers: OutboundRequest['headers'] = []): OutboundRequest => ({ method: 'GET', url, headers, body: null });
const options = { config, step: 'me' as const, label: 'test' };

describe('send', () => {
	it('records a 200 JSON exchange: request as sent, response status, headers and body', async () => {
		const { origin, seen } = await serve((_req, res) => {
			res.writeHead(200, 'OK', { 'Content-Type': 'application/json' });
			res.end('{"sbid_number":"AB12CD3","verifications":[]}');
		});
		const exchange = await send(get(`${origin}/api/v3/me.json?access_token=t`, [{ name: 'User-Agent', value: 'ua/1' }]), options);
		expect(exchange.failure).toBeNull();
		expect(exchange).toMatchObject({ step: 'me', label: 'test', masked: [] });
		expect(exchange.request).toEqual({
			method: 'GET',
			url: `${origin}/api/v3/me.json?access_token=t`,
			headers: [
				{ name: 'Host', value: origin.slice('http://'.length) },
				{ name: 'User-Agent', value: 'ua/1' },
				{ name: 'Connection', value: 'keep-alive' }
			],
			body: null
		});
		expect(exchange.response).toMatchObject({ status: 200, statusText: 'OK', truncated: false, body: '{"sbid_number":"AB12CD3","verifications":[]}' });
		expect(exchange.response!.headers).toContainEqual({ name: 'Content-Type', value: 'application/json' });
		expect(seen[0]!.url).toBe('/api/v3/me.json?access_token=t');
	});

	it('the recorded headers are exactly the headers the server received, in order', async () => {
		const { origin, seen } = await serve((_req, res) => res.end('ok'));
		const exchange = await send(
			{ method: 'POST', url: `${origin}/oauth/token`, headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }], body: 'a=é' },
			options
		);
		expect(seen[0]!.rawHeaders).toEqual(exchange.request.headers.flatMap((h) => [h.name, h.value]));
		expect(exchange.request.headers).toContainEqual({ name: 'Content-Length', value: '4' });
		expect(seen[0]!.body).toBe('a=é');
	});

	it('a POST without a body says Content-Length: 0', async () => {
		const { origin, seen } = await serve((_req, res) => res.end());
		await send({ method: 'POST', url: `${origin}/oauth/token?code=x`, headers: [], body: null }, options);
		expect(seen[0]!.rawHeaders).toEqual(['Host', origin.slice(7), 'Content-Length', '0', 'Connection', 'keep-alive']);
	});

	it('sends no User-Agent when none is given: the server sees none', async () => {
		const { origin, seen } = await serve((req, res) => res.writeHead(req.headers['user-agent'] ? 200 : 403).end());
		const exchange = await send(get(`${origin}/api/v3/me.json`), options);
		expect(exchange.response!.status).toBe(403);
		expect(seen[0]!.rawHeaders.map((h) => h.toLowerCase())).not.toContain('user-agent');
	});

	it('can send no Host header at all', async () => {
		const { origin } = await serve((_req, res) => res.end());
		const exchange = await send({ ...get(`${origin}/api/v3/me.json`), omitHost: true }, options);
		expect(exchange.request.headers.map((h) => h.name)).not.toContain('Host');
		// Node's server answers a Host-less HTTP/1.1 request with 400 itself.
		expect(exchange.response!.status).toBe(400);
	});

	it('records a 500 with its body', async () => {
		const { origin } = await serve((_req, res) => res.writeHead(500, 'Internal Server Error').end('{"error":"boom"}'));
		const exchange = await send(get(origin), options);
		expect(exchange.failure).toBeNull();
		expect(exchange.response).toMatchObject({ status: 500, statusText: 'Internal Server Error', body: '{"error":"boom"}' });
	});

	it('records an HTML body as text', async () => {
		const html = '<!doctype html><title>Gateway</title><script>alert(1)</script>';
		const { origin } = await serve((_req, res) => res.writeHead(502, { 'Content-Type': 'text/html' }).end(html));
		const exchange = await send(get(origin), options);
		expect(exchange.response).toMatchObject({ status: 502, body: html });
	});

	it('does not follow a redirect: the 302 is the recorded response, the Location never requested', async () => {
		const { origin, seen } = await serve((_req, res) => res.writeHead(302, { Location: '/elsewhere' }).end());
		const exchange = await send(get(`${origin}/oauth/token`), options);
		expect(exchange.response!.status).toBe(302);
		expect(exchange.response!.headers).toContainEqual({ name: 'Location', value: '/elsewhere' });
		await checkpoint(Number(new URL(origin).port));
		expect(seen.map((s) => s.url)).toEqual(['/oauth/token', CHECKPOINT_PATH]);
	});

	it('gives up on a server that never answers within the bound, as a timeout', async () => {
		const { origin } = await serve(() => undefined);
		const started = Date.now();
		const exchange = await send(get(origin), { ...options, timeoutMs: 300 });
		expect(Date.now() - started).toBeLessThan(1500);
		expect(exchange.response).toBeNull();
		expect(exchange.failure).toEqual({ kind: 'timeout', timeoutMs: 300, message: expect.stringContaining('0.3 s') });
	});

	it('the deadline covers DNS: a resolver that never answers is a timeout', async () => {
		const slowDns = testConfig({ EXPLORER_ALLOWED_HOSTS: 'slow.test' });
		const exchange = await send(get('http://slow.test/'), { ...options, config: slowDns, timeoutMs: 200, resolve: () => new Promise(() => undefined) });
		expect(exchange.failure?.kind).toBe('timeout');
		expect(exchange.durationMs).toBeLessThan(1000);
	});

	it('the deadline covers the body too: headers then silence is a timeout with the partial response', async () => {
		const { origin } = await serve((_req, res) => {
			res.writeHead(200, { 'Content-Length': '100' });
			res.write('{"partial":');
		});
		const exchange = await send(get(origin), { ...options, timeoutMs: 300 });
		expect(exchange.failure?.kind).toBe('timeout');
		expect(exchange.response).toMatchObject({ status: 200, body: '{"partial":' });
	});

	it('a server that closes mid-body leaves a truncated body and says so', async () => {
		const { origin } = await serve((req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
			res.write('{"access_token":"abc", "tok', () => req.socket.destroy());
		});
		const exchange = await send(get(origin), options);
		expect(exchange.response).toMatchObject({ status: 200, body: '{"access_token":"abc", "tok', truncated: false });
		expect(exchange.failure).toEqual({ kind: 'unreachable', message: expect.stringContaining('Content-Length said 100 bytes') });
	});

	it('cuts a body past the cap and marks it truncated', async () => {
		const { origin } = await serve((_req, res) => res.end('x'.repeat(5000)));
		const exchange = await send(get(origin), { ...options, maxBodyBytes: 1024 });
		expect(exchange.response).toMatchObject({ status: 200, truncated: true });
		expect(exchange.response!.body).toHaveLength(1024);
		expect(exchange.failure?.kind).toBe('too-large');
	});

	it('says when a body is not UTF-8 text, and not when a cut split a character at its end', async () => {
		const { origin } = await serve((req, res) => res.end(req.url === '/latin1' ? Buffer.from('caf\xe9', 'latin1') : 'é'.repeat(600)));
		const latin1 = await send(get(`${origin}/latin1`), options);
		expect(latin1.response).toMatchObject({ body: 'caf\ufffd', notUtf8: true });
		const cut = await send(get(`${origin}/utf8`), { ...options, maxBodyBytes: 1023 });
		expect(cut.response).toMatchObject({ truncated: true });
		expect(cut.response!.notUtf8).toBeUndefined();
		const whole = await send(get(`${origin}/utf8`), options);
		expect(whole.response!.notUtf8).toBeUndefined();
	});

	it('refuses a host the operator has not allowed, and never contacts it', async () => {
		const { origin, seen } = await serve((_req, res) => res.end());
		const localhostUrl = origin.replace('127.0.0.1', 'localhost');
		const exchange = await send(get(localhostUrl), options);
		expect(exchange.response).toBeNull();
		expect(exchange.failure).toEqual({ kind: 'refused', message: expect.stringContaining('is not an allowed target') });
		expect(exchange.request.url).toBe(`${localhostUrl}/`);
		expect(seen).toEqual([]);
	});

	it('refuses a loopback address unless the operator turned private targets on, without contacting it', async () => {
		const { origin, seen } = await serve((_req, res) => res.end());
		const strict = testConfig({ EXPLORER_ALLOWED_HOSTS: '127.0.0.1' });
		const exchange = await send(get(origin), { ...options, config: strict });
		expect(exchange.failure).toEqual({ kind: 'refused', message: expect.stringContaining('a loopback address') });
		expect(seen).toEqual([]);
	});

	it('refuses a request carrying a secret it holds for another host, before any DNS question or connection', async () => {
		const { origin, connections, seen } = await serve((_req, res) => res.end());
		const held = holdSecret('the sandbox secret', 'http://localhost:3002');
		let asked = 0;
		const resolve = async () => (asked++, [{ address: '127.0.0.1', family: 4 }]);
		const request = { method: 'POST' as const, url: `${origin}/oauth/token?client_id=demo-client&client_secret=the+sandbox+secret`, headers: [], body: null };
		const exchange = await send(request, { ...options, holds: [held], resolve });
		expect(exchange.response).toBeNull();
		expect(exchange.failure).toEqual({ kind: 'refused', message: expect.stringContaining('holds for http://localhost:3002') });
		expect(exchange.failure!.message).not.toContain('the sandbox secret');
		expect([asked, connections.length, seen.length]).toEqual([0, 0, 0]);
	});

	it('sends a held secret to the host it was given for', async () => {
		const { origin, seen } = await serve((_req, res) => res.end());
		const request = { method: 'POST' as const, url: `${origin}/oauth/token?client_secret=its-own`, headers: [], body: null };
		const exchange = await send(request, { ...options, holds: [holdSecret('its-own', origin)] });
		expect(exchange.failure).toBeNull();
		expect(seen[0]!.url).toBe('/oauth/token?client_secret=its-own');
	});

	it('connects to the checked address, not to what a second DNS answer says', async () => {
		const { origin, seen } = await serve((_req, res) => res.end('pinned'));
		const port = new URL(origin).port;
		const rebinding = testConfig({ EXPLORER_ALLOWED_HOSTS: 'rebind.test', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		let answers = 0;
		const resolve = async () => [{ address: answers++ === 0 ? '127.0.0.1' : '192.0.2.1', family: 4 }];
		const exchange = await send(get(`http://rebind.test:${port}/`), { ...options, config: rebinding, resolve });
		expect(exchange.response?.body).toBe('pinned');
		expect(answers).toBe(1);
		expect(seen[0]!.rawHeaders.slice(0, 2)).toEqual(['Host', `rebind.test:${port}`]);
	});

	it('the sandbox origin is called by name without any allowlist', async () => {
		const { origin } = await serve((_req, res) => res.end('sandbox'));
		const port = new URL(origin).port;
		const sandboxConfig = testConfig({ ACCOUNTS_PORT: port });
		const exchange = await send(get(`http://localhost:${port}/api/v3/me.json`), { ...options, config: sandboxConfig });
		expect(exchange.response?.body).toBe('sandbox');
	});

	it('a port with nothing listening is unreachable, with a clear message', async () => {
		const { origin, server } = await serve((_req, res) => res.end());
		await new Promise((r) => server.close(r));
		const exchange = await send(get(origin), options);
		expect(exchange.failure).toEqual({ kind: 'unreachable', message: expect.stringContaining('refused the connection') });
	});

	it('an invalid header value is refused as data, not thrown', async () => {
		const { origin, seen } = await serve((_req, res) => res.end());
		const exchange = await send(get(origin, [{ name: 'X-Bad', value: 'a\r\nInjected: 1' }]), options);
		expect(exchange.failure?.kind).toBe('refused');
		expect(seen).toEqual([]);
	});
});

describe('send: kept-alive connections', () => {
	it('reuses one connection for consecutive requests to the same checked address', async () => {
		const { origin, connections, seen } = await serve((_req, res) => res.end('ok'));
		for (let i = 0; i < 3; i++) expect((await send(get(`${origin}/api/v3/me.json`), options)).response?.body).toBe('ok');
		expect(seen).toHaveLength(3);
		expect(connections).toHaveLength(1);
	});

	it('pools by the addresses the guard checked: a name that now resolves elsewhere gets a new connection there', async () => {
		const server = http.createServer((req, res) => res.end(req.socket.localAddress));
		servers.push(server);
		await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
		const port = (server.address() as AddressInfo).port;
		const rebinding = testConfig({ EXPLORER_ALLOWED_HOSTS: 'moving.test', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		let address = '127.0.0.1';
		const resolve = async () => [{ address, family: 4 }];
		const call = () => send(get(`http://moving.test:${port}/`), { ...options, config: rebinding, resolve });
		expect((await call()).response?.body).toBe('127.0.0.1');
		address = '127.0.0.2';
		// Node's own pool key (host and port) would hand back the connection to 127.0.0.1.
		expect((await call()).response?.body).toBe('127.0.0.2');
		address = '127.0.0.1';
		expect((await call()).response?.body).toBe('127.0.0.1');
	});

	it('refuses a pooled connection that leads to an address the request\'s own check did not return', async () => {
		// A pool that ignores the checked addresses (the explorer's never does) hands back the first connection.
		const careless = new http.Agent({ keepAlive: true });
		(careless as unknown as { getName(): string }).getName = () => 'one pool for everything';
		const { origin, seen } = await serve((_req, res) => res.end('ok'));
		const port = new URL(origin).port;
		const rebinding = testConfig({ EXPLORER_ALLOWED_HOSTS: 'moving.test', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
		let address = '127.0.0.1';
		const call = () => send(get(`http://moving.test:${port}/`), { ...options, config: rebinding, agent: careless, resolve: async () => [{ address, family: 4 }] });
		expect((await call()).response?.body).toBe('ok');
		address = '127.0.0.2';
		const refused = await call();
		await checkpoint(Number(port)); // a request that did go out has arrived by then
		careless.destroy();
		expect(refused.response).toBeNull();
		expect(refused.failure).toMatchObject({ kind: 'refused', message: expect.stringContaining('a pooled connection led to 127.0.0.1') });
		expect(seen.map((s) => s.url)).toEqual(['/', CHECKPOINT_PATH]);
	});

	it('never pools a connection that ended in a failure: the next request opens a new one', async () => {
		const { origin, connections } = await serve((req, res) => (req.url === '/slow' ? undefined : res.end('x'.repeat(5000))));
		expect((await send(get(`${origin}/slow`), { ...options, timeoutMs: 200 })).failure?.kind).toBe('timeout');
		expect((await send(get(origin), { ...options, maxBodyBytes: 1024 })).failure?.kind).toBe('too-large');
		expect((await send(get(origin), options)).failure).toBeNull();
		expect(connections).toHaveLength(3);
	});

	/** A server that answers the first request of each connection, then drops the connection at its next one. */
	async function oneRequestPerConnection() {
		const target = await serve((req, res) => {
			const socket = req.socket as Socket & { served?: boolean };
			if (socket.served) return socket.destroy();
			socket.served = true;
			res.end('fresh');
		});
		return target;
	}

	it('a GET whose pooled connection was dropped by the target is sent again on a new connection', async () => {
		const { origin, connections, seen } = await oneRequestPerConnection();
		await send(get(origin), options);
		const exchange = await send(get(`${origin}/again`), options);
		expect(exchange.failure).toBeNull();
		expect(exchange.response?.body).toBe('fresh');
		expect(connections).toHaveLength(2);
		expect(seen.map((s) => s.url)).toEqual(['/', '/again', '/again']);
	});

	it('a POST on a dropped pooled connection is not sent again (it may have arrived): the failure is recorded', async () => {
		const { origin, seen } = await oneRequestPerConnection();
		await send(get(origin), options);
		const exchange = await send({ method: 'POST', url: `${origin}/oauth/token`, headers: [], body: 'code=x' }, options);
		expect(exchange.response).toBeNull();
		expect(exchange.failure?.kind).toBe('unreachable');
		expect(exchange.failure?.message).toContain('kept open from an earlier request');
		expect(exchange.failure?.message).toContain('may or may not have reached it');
		expect(seen.map((s) => s.url)).toEqual(['/', '/oauth/token']);
	});
});
