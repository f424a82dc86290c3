/**
 * Issue 16, "safe to share": what a deployment on a support team's network must withstand. A flood of requests
 * without cookies, pages whose name rebinds to this machine, links from other sites, framing, malformed requests
 * flooding the log, and clients that send slowly.
 */
import { expect, test, type Page } from '@playwright/test';
import autocannon from 'autocannon';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNTS_HOST, EXPLORER, EXTRA_EXPLORER_PORTS, HOSTILE_PORT, PORT } from './support/ports';
import { ExplorerSession } from './support/explorer';
import { spawnExplorer, startTarget, type SpawnedExplorer } from './support/servers';

const LISTENERS = [
	{ name: 'explorer', port: PORT },
	{ name: 'authorisation host', port: PORT + 1 },
	{ name: 'accounts host', port: PORT + 2 }
];

/** A request with a Host header of our choosing (fetch will not send one), over a fresh connection. */
function rawRequest(port: number, options: { method?: string; path: string; host: string; headers?: Record<string, string>; body?: string }) {
	return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
		const req = http.request(
			{ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, agent: false, headers: { host: options.host, ...options.headers } },
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

/** How far the sandbox clock is ahead of real time (it follows real time until something moves it). */
async function sandboxClockAheadMs(): Promise<number> {
	const { now } = (await (await fetch(`${ACCOUNTS_HOST}/sandbox/state`)).json()) as { now: string };
	return Date.parse(now) - Date.now();
}

async function withExplorer(port: number, env: Record<string, string>, body: (server: SpawnedExplorer) => Promise<void>) {
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-shared-'));
	const server = spawnExplorer({ port, dataDir, env });
	try {
		await server.ready;
		await body(server);
	} finally {
		server.process.kill('SIGTERM');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
}

test.describe('4. sessions under a flood', () => {
	test('10,100 requests without a cookie leave a person’s session and walk in place', async () => {
		test.setTimeout(120_000);
		const person = new ExplorerSession(EXPLORER);
		const settings = await person.walk('client', {
			target: { kind: 'sandbox' },
			clientId: 'flood-survivor',
			clientSecret: 'flood-survivor-secret',
			redirectUri: `${EXPLORER}/callback`,
			supergroup: 'student',
			country: 'uk',
			responseType: 'code',
			extraLinkParams: []
		});
		expect(settings.status).toBe(200);
		expect((await person.post<{ view: { client: { clientId: string } } }>('/api/walk/view', {})).body.view.client.clientId).toBe('flood-survivor');

		const flood = await new Promise<{ non2xx: number; errors: number }>((resolve, reject) =>
			autocannon({ url: `${EXPLORER}/health`, amount: 10_100, connections: 50 }, (error, result) => (error ? reject(error) : resolve(result)))
		);
		expect(flood).toMatchObject({ non2xx: 0, errors: 0 });

		const after = await person.post<{ view: { client: { clientId: string; secret: { set: boolean } } } }>('/api/walk/view', {});
		expect(after.body.view.client).toMatchObject({ clientId: 'flood-survivor', secret: { set: true } });
	});

	test('reading a page makes no session; the first write does', async () => {
		const visitor = await fetch(`${EXPLORER}/`);
		expect(visitor.status).toBe(200);
		expect(visitor.headers.getSetCookie()).toEqual([]);
		const writer = await fetch(`${EXPLORER}/api/walk/reset`, { method: 'POST', headers: { origin: EXPLORER, 'content-type': 'application/json' }, body: '{}' });
		expect(writer.status).toBe(200);
		expect(writer.headers.getSetCookie().some((c) => c.startsWith('sfe_session='))).toBe(true);
	});
});

test.describe('5. DNS rebinding', () => {
	for (const { name, port } of LISTENERS) {
		test(`the ${name} refuses a request addressed to a foreign name, and answers its own`, async () => {
			const foreign = await rawRequest(port, { path: '/health', host: 'rebind.evil' });
			expect(foreign.status).toBe(421);
			expect(foreign.body).toContain('does not answer to the name "rebind.evil"');
			const withPort = await rawRequest(port, { path: '/health', host: `rebind.evil:${port}` });
			expect(withPort.status).toBe(421);
			for (const own of [`localhost:${port}`, `127.0.0.1:${port}`]) {
				expect((await rawRequest(port, { path: '/health', host: own })).status, own).toBe(200);
			}
		});
	}

	test('a foreign name changes nothing: not the sandbox clock, not a walk, not a sign-in', async () => {
		const ahead = await sandboxClockAheadMs();
		const moved = await rawRequest(PORT + 2, {
			method: 'POST',
			path: '/sandbox/clock',
			host: 'rebind.evil',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ advance_seconds: 86_400 })
		});
		expect(moved.status).toBe(421);
		expect(Math.abs((await sandboxClockAheadMs()) - ahead)).toBeLessThan(10_000);

		const reset = await rawRequest(PORT, { method: 'POST', path: '/api/walk/reset', host: 'rebind.evil', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(reset.status).toBe(421);
		expect(reset.headers['set-cookie']).toBeUndefined();

		const signIn = await rawRequest(PORT + 1, {
			path: '/sso/student?response_type=code&client_id=demo-client&redirect_uri=' + encodeURIComponent(`${EXPLORER}/callback`) + '&country=uk',
			host: 'rebind.evil'
		});
		expect(signIn.status).toBe(421);
		expect(signIn.headers['set-cookie']).toBeUndefined();
		expect(signIn.headers.location).toBeUndefined();
	});

	test('every listener binds loopback by default: another interface of this machine reaches none of them', async () => {
		const external = Object.values(networkInterfaces())
			.flat()
			.find((a) => a && !a.internal && a.family === 'IPv4');
		test.skip(!external, 'this machine has no non-loopback IPv4 interface to try');
		for (const { name, port } of LISTENERS) {
			const outcome = await new Promise<string>((resolve) => {
				const socket: Socket = connect({ host: external!.address, port }, () => {
					socket.destroy();
					resolve('connected');
				});
				socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
				socket.setTimeout(3000, () => {
					socket.destroy();
					resolve('timeout');
				});
			});
			expect(outcome, `${name} on ${external!.address}:${port}`).not.toBe('connected');
		}
	});
});

test.describe('6. a link never changes shared state', () => {
	test('/scenarios?run={id} points at the scenario without running it; a click runs it', async ({ page }) => {
		await fetch(`${ACCOUNTS_HOST}/sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(Math.abs(await sandboxClockAheadMs())).toBeLessThan(10_000);
		const runnerCalls: string[] = [];
		page.on('request', (request) => {
			if (new URL(request.url()).pathname.startsWith('/api/scenarios/')) runnerCalls.push(request.url());
		});
		await page.goto('/scenarios?run=me-token-expired');
		const scenario = page.getByTestId('scenario-me-token-expired');
		const runButton = scenario.getByRole('button', { name: /^Run / });
		await expect(runButton).toBeFocused();
		// Once the page has loaded and gone quiet, a run the link had started would have called the runner.
		await page.waitForLoadState('networkidle');
		expect(runnerCalls, 'calls to the scenario runner after following the link').toEqual([]);
		await expect(page.getByTestId('scenario-step')).toHaveCount(0);
		expect(Math.abs(await sandboxClockAheadMs()), 'the sandbox clock after following the link').toBeLessThan(10_000);

		await runButton.click();
		await expect(scenario.getByTestId('scenario-result')).toHaveAttribute('data-passed', 'true');
		await expect(scenario.getByTestId('scenario-step').filter({ hasText: "The workspace's clock moves forward" })).toHaveCount(1);
		// It moved the clock of its own throwaway workspace, never the shared one.
		expect(Math.abs(await sandboxClockAheadMs()), 'the sandbox clock after the scenario ran').toBeLessThan(10_000);
	});
});

test.describe('7. framing', () => {
	const PAGES = ['/', '/learn/cancel', '/runs', '/scenarios', '/reference', '/sandbox', '/no-such-page'];

	test('every page forbids framing (X-Frame-Options and CSP frame-ancestors) and limits scripts to the explorer', async () => {
		for (const path of PAGES) {
			const response = await fetch(`${EXPLORER}${path}`);
			expect(response.headers.get('x-frame-options'), path).toBe('DENY');
			const csp = response.headers.get('content-security-policy') ?? '';
			expect(csp, path).toContain("frame-ancestors 'none'");
			expect(csp, path).toMatch(/script-src 'self' 'nonce-[^']+'/);
		}
	});

	test('a page on another origin that frames /sandbox shows nothing of it', async ({ page }) => {
		const framer = await startTarget(HOSTILE_PORT, (_req, res) => {
			res.writeHead(200, { 'content-type': 'text/html' });
			res.end(`<!doctype html><title>framer</title><iframe id="victim" src="${EXPLORER}/sandbox" width="800" height="600"></iframe>`);
		});
		try {
			// The frame's own answer arrived, and the framer's load event waits for its frame to load (or be refused).
			const framed = page.waitForResponse(`${EXPLORER}/sandbox`);
			await page.goto(`http://127.0.0.1:${HOSTILE_PORT}/`, { waitUntil: 'load' });
			await framed;
			const frame = page.frames().find((f) => f !== page.mainFrame());
			const framedHeading = frame ? await frame.getByRole('heading', { name: 'Sandbox control panel' }).count().catch(() => 0) : 0;
			expect(framedHeading).toBe(0);
		} finally {
			await framer.close();
		}
	});
});

/** Pages that must work under the CSP: they render and hydrate, with no CSP violation reported. */
async function openWithoutViolations(page: Page, path: string): Promise<string[]> {
	const violations: string[] = [];
	page.on('console', (message) => {
		if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
	});
	await page.goto(path);
	await page.waitForLoadState('networkidle');
	return violations;
}

test('7. the explorer’s pages run under their CSP without violations', async ({ page }) => {
	for (const path of ['/', '/learn/cancel', '/runs', '/scenarios', '/reference', '/sandbox']) {
		expect(await openWithoutViolations(page, path), path).toEqual([]);
	}
});

test.describe('9. malformed requests', () => {
	test('200 requests for /x/%ZZ get a 400 each and leave at most a short line each in the log, no stack trace', async () => {
		test.setTimeout(90_000);
		const port = EXTRA_EXPLORER_PORTS.logFlood;
		await withExplorer(port, {}, async (server) => {
			// Its start-up lines are read: what follows is the flood's.
			await expect.poll(() => server.output()).toMatch(/SSO Flow Explorer[\s\S]*Listening on|Listening on[\s\S]*SSO Flow Explorer/);
			const before = server.output().length;
			const targets = [
				{ port, path: '/x/%ZZ' },
				{ port, path: '/%E0%A4%A' },
				{ port: port + 1, path: '/sso/%ZZ' },
				{ port: port + 2, path: '/x/%ZZ' },
				{ port: port + 2, path: '/api/v3/me.json?%ZZ=1' }
			];
			for (let i = 0; i < 200; i++) {
				for (const target of targets) {
					const answer = await rawRequest(target.port, { path: target.path, host: `localhost:${target.port}` });
					expect(answer.status, `${target.port}${target.path}`).toBeGreaterThanOrEqual(400);
					expect(answer.status, `${target.port}${target.path}`).toBeLessThan(500);
				}
			}
			// Everything it wrote is read once it has exited.
			server.process.kill('SIGTERM');
			await server.exited;
			const written = server.output().slice(before);
			expect(written).not.toContain('    at ');
			expect(written.length, written.slice(0, 2000)).toBeLessThanOrEqual(200 * targets.length * 100);
		});
	});
});

test.describe('10. slow clients', () => {
	const HEADERS_TIMEOUT_MS = 1000;
	const REQUEST_TIMEOUT_MS = 2000;
	/** The bound, plus Node's connection check and a margin for a busy machine. */
	const CUT_WITHIN_MS = REQUEST_TIMEOUT_MS + 2500;

	/** Opens a connection, writes `start`, then one byte of `drip` every 250 ms; resolves with how long until it was closed. */
	function dripUntilClosed(port: number, start: string, drip: string): Promise<number> {
		return new Promise((resolve) => {
			const opened = Date.now();
			const socket = connect({ host: '127.0.0.1', port }, () => socket.write(start));
			let i = 0;
			const timer = setInterval(() => {
				if (!socket.destroyed && socket.writable) socket.write(drip[i++ % drip.length]!);
			}, 250);
			const done = () => {
				clearInterval(timer);
				socket.destroy();
				resolve(Date.now() - opened);
			};
			socket.on('close', done);
			socket.on('end', done);
			socket.on('error', done);
			socket.resume();
			setTimeout(done, 20_000);
		});
	}

	test('headers sent slowly, and bodies sent slowly, are cut off within the configured bounds', async () => {
		test.setTimeout(120_000);
		const port = EXTRA_EXPLORER_PORTS.slowClients;
		const env = { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) };
		await withExplorer(port, env, async () => {
			const cases = [
				{ what: 'explorer, headers', port, start: `GET / HTTP/1.1\r\nHost: localhost:${port}\r\n`, drip: 'X-Slow: a\r\n' },
				{ what: 'explorer, body', port, start: `POST /api/walk/reset HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, drip: ' ' },
				{ what: 'authorisation host, headers', port: port + 1, start: `GET /health HTTP/1.1\r\nHost: localhost:${port + 1}\r\n`, drip: 'X-Slow: a\r\n' },
				{ what: 'accounts host, headers', port: port + 2, start: `GET /health HTTP/1.1\r\nHost: localhost:${port + 2}\r\n`, drip: 'X-Slow: a\r\n' },
				{
					what: 'accounts host, body',
					port: port + 2,
					start: `POST /oauth/token HTTP/1.1\r\nHost: localhost:${port + 2}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n`,
					drip: 'a'
				}
			];
			const held = await Promise.all(cases.map((c) => dripUntilClosed(c.port, c.start, c.drip)));
			for (const [i, c] of cases.entries()) expect(held[i], c.what).toBeLessThan(CUT_WITHIN_MS);
			// A client at a normal pace is unaffected.
			expect((await fetch(`http://localhost:${port}/health`)).status).toBe(200);
		});
	});
});
