import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { explainClientErrors, foreignHost, ownHostNames, refuseForeignHosts, refuseSniffing, slowClientOptions } from './listener-guards';

const local = ownHostNames('http://localhost:3000', []);

describe('foreignHost', () => {
	it('accepts the loopback names on the listener’s own port', () => {
		for (const host of ['localhost:3001', '127.0.0.1:3001', '[::1]:3001', 'LOCALHOST:3001', '127.1:3001']) expect(foreignHost(host, 3001, local), host).toBeNull();
	});

	it('refuses any other name, a loopback name on another port, a missing or malformed Host', () => {
		for (const host of ['rebind.evil', 'rebind.evil:3001', '127.0.0.1:3002', 'localhost', 'localhost:3002', 'localhost:3001/x', 'a@localhost:3001', '']) {
			expect(foreignHost(host, 3001, local), host).toMatch(/does not answer to the name|no Host header/);
		}
		expect(foreignHost(undefined, 3001, local)).toBe('The request has no Host header.');
	});

	it('accepts PUBLIC_ORIGIN’s host and the listed names on any port (a proxy may forward them as sent)', () => {
		const shared = ownHostNames('https://explorer.example.com', ['support-box']);
		for (const host of ['explorer.example.com', 'Explorer.Example.com:443', 'support-box:3002']) expect(foreignHost(host, 3002, shared), host).toBeNull();
		expect(foreignHost('example.com', 3002, shared)).not.toBeNull();
		expect(foreignHost('evil.explorer.example.com', 3002, shared)).not.toBeNull();
	});

	it('accepts a loopback PUBLIC_ORIGIN on its own port (a port mapped to the listener’s)', () => {
		const mapped = ownHostNames('http://localhost:8080', []);
		expect(foreignHost('localhost:8080', 3000, mapped)).toBeNull();
		expect(foreignHost('localhost:8081', 3000, mapped)).not.toBeNull();
	});
});

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

function get(port: number, host: string, path = '/') {
	return new Promise<{ status: number; body: string; type: string | undefined; sniffing: string | undefined }>((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
			let body = '';
			res.on('data', (c: Buffer) => (body += c.toString()));
			res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'], sniffing: res.headers['x-content-type-options']?.toString() }));
		});
		req.on('error', reject);
		req.end();
	});
}

async function listen(handler: RequestListener): Promise<number> {
	server = createServer(slowClientOptions({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 }), handler);
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

describe('refuseForeignHosts', () => {
	it('answers 421 before the handler sees a request to a foreign name', async () => {
		let handled = 0;
		const port = await listen(
			refuseForeignHosts(local, (_req, res) => {
				handled++;
				res.end('ok');
			})
		);
		expect(await get(port, 'rebind.evil')).toMatchObject({ status: 421, body: expect.stringContaining('ALLOWED_HOST_NAMES'), sniffing: 'nosniff' });
		expect(handled).toBe(0);
		expect(await get(port, `localhost:${port}`)).toMatchObject({ status: 200, body: 'ok' });
		expect(handled).toBe(1);
	});

	it('still refuses a foreign name right after an own one (it remembers only the own name it last saw)', async () => {
		const port = await listen(refuseForeignHosts(local, (_req, res) => res.end('ok')));
		for (const host of [`localhost:${port}`, 'rebind.evil', `localhost:${port}`, `rebind.evil:${port}`]) {
			expect((await get(port, host)).status, host).toBe(host.startsWith('localhost') ? 200 : 421);
		}
	});
});

describe('refuseSniffing', () => {
	it('says nosniff on every response, however the handler writes its headers, and keeps them', async () => {
		const port = await listen(
			refuseSniffing((req, res) => {
				if (req.url === '/object') res.writeHead(200, { 'Content-Type': 'text/css' }).end('a{}');
				else if (req.url === '/array') res.writeHead(404, ['Content-Type', 'text/html', 'X-Other', '1']).end('<p>');
				else res.end('plain');
			})
		);
		expect(await get(port, `localhost:${port}`, '/object')).toMatchObject({ status: 200, type: 'text/css', sniffing: 'nosniff' });
		expect(await get(port, `localhost:${port}`, '/array')).toMatchObject({ status: 404, type: 'text/html', sniffing: 'nosniff' });
		expect(await get(port, `localhost:${port}`, '/plain')).toMatchObject({ status: 200, body: 'plain', sniffing: 'nosniff' });
	});
});

describe('slowClientOptions', () => {
	it('bounds headers and the whole request, checking often enough to cut close to the bound', () => {
		expect(slowClientOptions({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 })).toEqual({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 });
		expect(slowClientOptions({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 }).connectionsCheckingInterval).toBe(100);
	});
});

describe('explainClientErrors', () => {
	const limits = { headersTimeoutMs: 300, requestTimeoutMs: 600 };
	let server: Server;
	afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

	/** Sends `raw` as it is and answers everything the server wrote back before closing. */
	async function sendRaw(raw: string): Promise<string> {
		// As the explorer's routes do: the answer waits for the whole body.
		server = createServer(slowClientOptions(limits), (req, res) => req.resume().on('end', () => res.end('handled')));
		explainClientErrors(server, limits);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
		let answer = '';
		socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
		socket.write(raw);
		await new Promise((resolve) => socket.on('close', resolve));
		return answer;
	}

	it('a URL and headers over 16 KB: 431 with the reason and what to do', async () => {
		const answer = await sendRaw(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
		expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
		expect(answer).toContain('Content-Type: text/plain');
		expect(answer).toContain('larger than this server reads (16 KB together): shorten the URL');
	});

	it('chunk extensions over Node\'s bound: 413, as Node answers, with the reason', async () => {
		const answer = await sendRaw(`POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\n`);
		expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
		expect(answer).toContain('chunk extensions of the request body are larger than this server reads');
	});

	it('a method HTTP does not define: 400 saying so', async () => {
		const answer = await sendRaw('FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n');
		expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
		expect(answer).toContain('The request method is not one HTTP defines');
	});

	it('a request that never finishes: 408 naming the bounds and the setting that raises them', async () => {
		const answer = await sendRaw('POST /import HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nonly part');
		expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
		expect(answer).toContain('the whole request within 0.6 s');
		expect(answer).toContain('REQUEST_TIMEOUT_MS');
	});

	it('a request it can read goes to the handler as before', async () => {
		const answer = await sendRaw('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
		expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
		expect(answer).toContain('handled');
	});
});
