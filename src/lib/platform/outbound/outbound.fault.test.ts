/**
 * Faults below HTTP that a broken target can produce: `send` turns each into a recorded failure with a message,
 * within its deadline, and never throws. (Slow, HTML, 5xx, truncated and redirecting targets are in
 * outbound.test.ts; these are raw sockets misbehaving.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { send } from './outbound';
import { testConfig } from '../test-config';

const config = testConfig({ EXPLORER_ALLOWED_HOSTS: '127.0.0.1', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
const options = { config, step: 'token' as const, label: 'fault', timeoutMs: 1000 };

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
	sockets.splice(0).forEach((s) => s.destroy());
	await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A raw TCP server: `onConnection` writes whatever bytes it likes. */
async function rawServer(onConnection: (socket: net.Socket) => void): Promise<string> {
	const server = net.createServer((socket) => {
		sockets.push(socket);
		socket.on('error', () => undefined);
		onConnection(socket);
	});
	servers.push(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`;
}

const post = (url: string) => ({ method: 'POST' as const, url, headers: [], body: 'grant_type=authorization_code' });

async function sendTimed(url: string) {
	const started = Date.now();
	const exchange = await send(post(url), options);
	return { exchange, took: Date.now() - started };
}

describe('send against a misbehaving socket', () => {
	it('a reply that is not HTTP is a failure that names the host, not an exception', async () => {
		const url = await rawServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
		const { exchange, took } = await sendTimed(url);
		expect(exchange.response).toBeNull();
		expect(exchange.failure?.kind).toBe('unreachable');
		expect(exchange.failure?.message).toContain('127.0.0.1:');
		expect(took).toBeLessThan(1500);
	});

	it('a connection closed at once, before any answer, says the target closed it', async () => {
		const url = await rawServer((socket) => socket.destroy());
		const { exchange } = await sendTimed(url);
		expect(exchange.response).toBeNull();
		expect(exchange.failure).toEqual({ kind: 'unreachable', message: expect.stringMatching(/closed the connection|socket hang up/) });
	});

	it('a status line sent one byte at a time, never finished, is a timeout at the deadline', async () => {
		const url = await rawServer((socket) => {
			const text = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n';
			let i = 0;
			const timer = setInterval(() => (i < text.length ? socket.write(text[i++]!) : undefined), 50);
			socket.on('close', () => clearInterval(timer));
		});
		const { exchange, took } = await sendTimed(url);
		expect(exchange.failure?.kind).toBe('timeout');
		expect(took).toBeGreaterThanOrEqual(950);
		expect(took).toBeLessThan(1600);
	});

	it('a body that trickles on forever is cut at the deadline, keeping what came', async () => {
		const url = await rawServer((socket) => {
			socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
			const timer = setInterval(() => socket.write('1\r\n{\r\n'), 20);
			socket.on('close', () => clearInterval(timer));
		});
		const { exchange, took } = await sendTimed(url);
		expect(exchange.failure?.kind).toBe('timeout');
		expect(exchange.response?.status).toBe(200);
		expect(exchange.response?.body).toMatch(/^\{+$/);
		expect(took).toBeLessThan(1600);
	});

	it('a header block too large for the parser is a failure with a message, not an exception', async () => {
		const url = await rawServer((socket) => {
			socket.write(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n{}`);
		});
		const { exchange } = await sendTimed(url);
		expect(exchange.response).toBeNull();
		expect(exchange.failure?.kind).toBe('unreachable');
		expect(exchange.failure?.message.length).toBeGreaterThan(10);
	});

	it('an invalid chunked encoding mid-body is a failure, with the status kept', async () => {
		const url = await rawServer((socket) => {
			socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nZZ\r\n');
		});
		const { exchange } = await sendTimed(url);
		expect(exchange.response?.status).toBe(200);
		expect(exchange.failure?.kind).toBe('unreachable');
	});
});
