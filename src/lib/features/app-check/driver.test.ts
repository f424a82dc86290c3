import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { APP_CHECKS } from '$lib/features/app-check/pure/checks';
import { testConfig } from '../../platform/test-config';
import { launchChromium } from './browser';
import { AppCheckRefusedError, runAppCheck, type AppCheckRunOptions } from './driver';

describe('the CLI\'s run', () => {
	it('refuses a start URL that reaches the sandbox it was told of (--auth-url), under any name, before opening anything', async () => {
		const run = runAppCheck({
			startUrl: 'http://127.0.0.1:5001/sso/student',
			click: null,
			authUrl: 'http://localhost:5001',
			accountsUrl: 'http://localhost:5002',
			workspaceKey: null,
			adminToken: null,
			checks: [],
			config: testConfig()
		});
		await expect(run).rejects.toThrow(AppCheckRefusedError);
		await expect(run).rejects.toThrow(/^http:\/\/127\.0\.0\.1:5001 is the sandbox itself \(its authorisation host\), http:\/\/localhost:5001;/);
	});
});

describe('a start URL that accepts the connection and never answers', () => {
	let browser: Browser;
	let hanging: Server;
	const sockets = new Set<Socket>();
	/** Told of each connection the server accepts (and never answers). */
	let onConnection = () => {};
	let startUrl = '';

	beforeAll(async () => {
		browser = await launchChromium();
		hanging = createServer((socket) => {
			sockets.add(socket);
			onConnection();
			socket.on('close', () => sockets.delete(socket));
		});
		await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
		startUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/login`;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		hanging.close();
		await browser.close();
	});
	afterEach(() => vi.unstubAllGlobals());

	/** The sandbox's control API as the check calls it: an empty workspace, an empty log. */
	function run(extra: Partial<AppCheckRunOptions>) {
		vi.stubGlobal('fetch', async (url: string) => {
			const path = new URL(url).pathname;
			return Response.json(path === '/sandbox/state' ? { today: '2026-01-01', clients: [], users: [] } : { entries: [] });
		});
		const options: AppCheckRunOptions = { startUrl, click: null, authUrl: 'http://localhost:5001', accountsUrl: 'http://localhost:5002', workspaceKey: null, adminToken: null, checks: APP_CHECKS, config: testConfig(), ...extra };
		return runAppCheck(options, browser);
	}

	it('holds no longer than the run\'s time limit: the check waiting stops, the checks left are not run', async () => {
		const started = Date.now();
		const outcome = await run({ timeLimitMs: 3_000 });
		expect(Date.now() - started).toBeLessThan(8_000);
		expect(outcome.results).toHaveLength(APP_CHECKS.length);
		for (const result of outcome.results) {
			expect(result).toMatchObject({ verdict: 'not-run', reason: 'The app check stopped at its time limit (3 s) before this check could finish.' });
		}
	}, 30_000);

	it('stops as soon as its caller goes away, while the page waits for the app', async () => {
		const caller = new AbortController();
		let gone = 0;
		onConnection = () => setTimeout(() => ((gone = Date.now()), caller.abort()), 500);
		const outcome = await run({ signal: caller.signal });
		expect(gone).toBeGreaterThan(0);
		expect(Date.now() - gone).toBeLessThan(4_000);
		expect(outcome.results.map((r) => r.reason)).toEqual(APP_CHECKS.map(() => 'The app check was stopped: the page or program that started it went away.'));
	}, 30_000);
});
