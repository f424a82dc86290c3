import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import type { OriginCheck } from './origins';
import { startGuardingProxy, type GuardingProxy } from './proxy';

const INTERNAL = 'INTERNAL-METADATA-7f3a';

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let internalHits = 0;
const internal = createServer((_req, res) => {
	internalHits++;
	res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${INTERNAL}</title><p>${INTERNAL}</p>`);
});
let internalUrl = '';
const app = createServer((req, res) => {
	if (req.url === '/login') res.writeHead(302, { location: `${internalUrl}/latest/meta-data` }).end();
	else if (req.url === '/ws-page') res.writeHead(200, { 'content-type': 'text/html' }).end(`<script>new WebSocket('${internalUrl.replace('http', 'ws')}/socket')</script><p>app page</p>`);
	else res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>App</title><p>served for ${req.headers.host}</p>`);
});
let appUrl = '';
/** An app not started: a port nothing listens on (taken, then freed). */
let downUrl = '';
let browser: Browser;
let proxy: GuardingProxy;
const refused: string[] = [];
const unreachable: string[] = [];

beforeAll(async () => {
	internalUrl = await listen(internal);
	appUrl = await listen(app);
	const freed = createServer();
	downUrl = await listen(freed);
	await new Promise((resolve) => freed.close(resolve));
	const appPort = new URL(appUrl).port;
	// The app's origin under its IP, and a name no DNS knows that the guard resolved to the app's address.
	const guard = async (origin: string): Promise<OriginCheck> =>
		origin === appUrl || origin === downUrl ? { ok: true } : origin === `http://app.invalid:${appPort}` ? { ok: true, address: '127.0.0.1' } : { ok: false, message: 'not an allowed target' };
	proxy = await startGuardingProxy(
		guard,
		(origin, message) => refused.push(`${origin}: ${message}`),
		(origin, why) => unreachable.push(`${origin}: ${why}`)
	);
	browser = await launchChromium();
}, 30_000);

afterAll(async () => {
	await browser?.close();
	await proxy?.close();
	internal.close();
	app.close();
});

async function visit(url: string): Promise<{ text: string; title: string }> {
	const context = await browser.newContext({ proxy: { server: proxy.url }, serviceWorkers: 'block' });
	try {
		const page = await context.newPage();
		await page.goto(url).catch(() => null);
		await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => {});
		return { text: await page.locator('body').innerText({ timeout: 2_000 }).catch(() => ''), title: await page.title() };
	} finally {
		await context.close();
	}
}

describe('the app check\'s proxy', () => {
	it('refuses the page an allowed app redirects to, and the browser shows none of it', async () => {
		refused.length = 0;
		const seen = await visit(`${appUrl}/login`);
		expect(`${seen.title} ${seen.text}`).not.toContain(INTERNAL);
		expect(internalHits).toBe(0);
		expect([...new Set(refused)]).toEqual([`${internalUrl}: not an allowed target`]);
	}, 30_000);

	it('says why an allowed app could not be reached: nothing listening is "connection refused"', async () => {
		unreachable.length = 0;
		expect((await visit(`${downUrl}/login`)).text).toBe(`${downUrl} could not be reached (connection refused: nothing listens on that port).`);
		expect([...new Set(unreachable)]).toEqual([`${downUrl}: connection refused: nothing listens on that port`]);
	}, 30_000);

	it('refuses a WebSocket to a host the guard does not allow (a CONNECT tunnel)', async () => {
		refused.length = 0;
		expect((await visit(`${appUrl}/ws-page`)).text).toContain('app page');
		expect(internalHits).toBe(0);
		expect([...new Set(refused)]).toEqual([`https://127.0.0.1:${new URL(internalUrl).port}: not an allowed target`]);
	}, 30_000);

	it('connects to the address the guard checked, not to a second DNS answer', async () => {
		const seen = await visit(`http://app.invalid:${new URL(appUrl).port}/`);
		expect(seen.text).toBe(`served for app.invalid:${new URL(appUrl).port}`);
	}, 30_000);
});
