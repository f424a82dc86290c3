/**
 * SSRF, end to end through `send`: hosts the operator allowed but that are (or resolve to) internal addresses are
 * refused while EXPLORER_ALLOW_PRIVATE_TARGETS is off, and a redirect is never followed. A real listener on
 * loopback proves that a refused request never connects, nor arrives over a connection `send` keeps alive; the same
 * request with private targets on reaches it, so each refusal is the guard's doing and not a dead port.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { send, type OutboundRequest } from './outbound';
import { checkOutboundUrl } from './ssrf';
import { testConfig } from '../test-config';
import { fakeDns } from './test-dns';
import { CHECKPOINT_PATH, checkpoint } from '../test-checkpoint';

/** Names a DNS server could point inside: each resolves (through the injected resolver) to internal addresses. */
const INTERNAL_NAMES: Record<string, string[]> = {
	'loopback.test': ['127.0.0.1'],
	'loopback-high.test': ['127.255.255.254'],
	'loopback6.test': ['::1'],
	'mapped.test': ['::ffff:127.0.0.1'],
	'mapped-hex.test': ['::ffff:7f00:1'],
	'unspecified.test': ['0.0.0.0'],
	'unspecified6.test': ['::'],
	'metadata.test': ['169.254.169.254'],
	'metadata6.test': ['fd00:ec2::254'],
	'private10.test': ['10.0.0.1'],
	'private172.test': ['172.16.5.4'],
	'private192.test': ['192.168.1.1'],
	'cgnat.test': ['100.64.0.1'],
	'linklocal6.test': ['fe80::1'],
	'nat64.test': ['64:ff9b::7f00:1'],
	'compat.test': ['::7f00:1'],
	'sixtofour.test': ['2002:7f00:1::'],
	'benchmark.test': ['198.18.0.1'],
	'teredo.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
	'documentation.test': ['192.0.2.1'],
	'documentation6.test': ['2001:db8::1'],
	// One bad address among good ones is enough to refuse: the connection may pick any of them.
	'mixed.test': ['93.184.216.34', '127.0.0.1'],
	'mixed6.test': ['2606:2800::1', '::1']
};

/** Every loopback spelling the URL parser accepts, each allowed by the operator by its normalised name. */
const LOOPBACK_SPELLINGS = [
	'127.0.0.1',
	'2130706433',
	'0x7f000001',
	'0x7f.0.0.1',
	'0177.0.0.1',
	'127.1',
	'127.0.0.1.',
	'[::1]',
	'[0:0:0:0:0:0:0:1]',
	'[::ffff:127.0.0.1]',
	'[::ffff:7f00:1]'
];

const ALLOWED = [...Object.keys(INTERNAL_NAMES), '127.0.0.1', '[::1]', '[::ffff:7f00:1]', '0.0.0.0', '[::]', '169.254.169.254', '10.0.0.1'];
const strict = testConfig({ EXPLORER_ALLOWED_HOSTS: ALLOWED.join(',') });
const permissive = testConfig({ EXPLORER_ALLOWED_HOSTS: ALLOWED.join(','), EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });

let server: http.Server;
let port = 0;
let connections = 0;
const received: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
	server = http.createServer((req, res) => {
		if (req.url === CHECKPOINT_PATH) return void res.end(); // the test's own, not recorded
		received.push(`${req.method} ${req.headers.host} ${req.url}`);
		if (req.url === '/redirect-out') res.writeHead(302, { Location: `http://localhost:${port}/followed` }).end();
		else if (req.url === '/redirect-metadata') res.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
		else if (req.url === '/redirect-loopback') res.writeHead(307, { Location: `http://[::1]:${port}/followed` }).end();
		else res.end('reached');
	});
	server.on('connection', (socket) => {
		connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	// Dual-stack, so ::1 and ::ffff:127.0.0.1 reach it too.
	await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
	port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => server.close(resolve));
});

const get = (url: string): OutboundRequest => ({ method: 'GET', url, headers: [{ name: 'User-Agent', value: 'ssrf-test' }], body: null });
const POST_TOKEN = (url: string): OutboundRequest => ({ method: 'POST', url, headers: [], body: 'code=x' });

/** How many connections reached the listener since `before`, counted once all sent before now have arrived. */
async function connectionsSince(before: number): Promise<number> {
	await checkpoint(port);
	return connections - before - 1; // the checkpoint's own
}

/** A pooled connection from an earlier test could carry a request without a new connection: requests are counted too. */
function nothingReachedSince(connectionsBefore: number, requestsBefore: number) {
	return connectionsSince(connectionsBefore).then((opened) => ({ opened, requests: received.length - requestsBefore }));
}

describe('allowed hosts on internal addresses, private targets off', () => {
	it.each(LOOPBACK_SPELLINGS)('refuses http://%s:port/ before connecting', async (host) => {
		const [before, requestsBefore] = [connections, received.length];
		const exchange = await send(get(`http://${host}:${port}/api/v3/me.json`), { config: strict, step: 'me', label: 'ssrf' });
		expect(exchange.response).toBeNull();
		expect(exchange.failure).toEqual({ kind: 'refused', message: expect.stringMatching(/loopback|IPv4-mapped/) });
		expect(exchange.failure!.message).toContain('EXPLORER_ALLOW_PRIVATE_TARGETS=on');
		expect(await nothingReachedSince(before, requestsBefore)).toEqual({ opened: 0, requests: 0 });
	});

	it.each(Object.entries(INTERNAL_NAMES))('refuses %s, which resolves to %j, before connecting', async (name) => {
		const dns = fakeDns(INTERNAL_NAMES);
		const [before, requestsBefore] = [connections, received.length];
		const exchange = await send(POST_TOKEN(`http://${name}:${port}/oauth/token`), {
			config: strict,
			step: 'token',
			label: 'ssrf',
			resolve: dns.resolve
		});
		expect(dns.asked).toEqual([name]);
		expect(exchange.response).toBeNull();
		expect(exchange.failure?.kind).toBe('refused');
		expect(exchange.failure?.message).toMatch(new RegExp(`^${name.replace('.', '\\.')}:${port} resolves to `));
		expect(await nothingReachedSince(before, requestsBefore)).toEqual({ opened: 0, requests: 0 });
	});

	it('with private targets on, the same loopback name does reach the listener (the control for the refusals above)', async () => {
		const before = connections;
		const exchange = await send(get(`http://loopback.test:${port}/`), {
			config: permissive,
			step: 'me',
			label: 'control',
			resolve: fakeDns(INTERNAL_NAMES).resolve
		});
		expect(exchange.response?.body).toBe('reached');
		expect(await connectionsSince(before)).toBe(1);
		expect(received.at(-1)).toBe(`GET loopback.test:${port} /`);
	});

	it('the check answers the same for every spelling, so a later request cannot take another path', async () => {
		for (const host of LOOPBACK_SPELLINGS) {
			expect(await checkOutboundUrl(`http://${host}/`, strict, fakeDns({}).resolve), host).toMatchObject({ ok: false, kind: 'refused' });
			expect(await checkOutboundUrl(`http://${host}/`, permissive, fakeDns({}).resolve), host).toMatchObject({ ok: true });
		}
	});

	it('a host not on the list is refused even with private targets on, and its name is never resolved', async () => {
		const dns = fakeDns({ 'other.test': ['127.0.0.1'] });
		const exchange = await send(get(`http://other.test:${port}/`), { config: permissive, step: 'me', label: 'ssrf', resolve: dns.resolve });
		expect(exchange.failure).toEqual({ kind: 'refused', message: expect.stringContaining('other.test:' + port + ' is not an allowed target') });
		expect(dns.asked).toEqual([]);
	});
});

describe('redirects from an allowed target', () => {
	it.each([
		['/redirect-out', 302, `http://localhost:PORT/followed`],
		['/redirect-metadata', 301, 'http://169.254.169.254/latest/meta-data/'],
		['/redirect-loopback', 307, 'http://[::1]:PORT/followed']
	])('%s: the %i is the recorded answer and its Location is never requested', async (path, status, location) => {
		const start = received.length;
		const before = connections;
		const exchange = await send(get(`http://127.0.0.1:${port}${path}`), { config: permissive, step: 'me', label: 'redirect' });
		expect(exchange.failure).toBeNull();
		expect(exchange.response?.status).toBe(status);
		expect(exchange.response?.headers).toContainEqual({ name: 'Location', value: location.replace('PORT', String(port)) });
		// One connection at most: the request's own, or none when it reused the previous test's kept-alive one.
		expect(await connectionsSince(before)).toBeLessThanOrEqual(1);
		expect(received.slice(start)).toEqual([`GET 127.0.0.1:${port} ${path}`]);
	});
});
