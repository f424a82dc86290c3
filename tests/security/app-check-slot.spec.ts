/**
 * Issue 26, point 4: one app check held the server's only slot for minutes. A start URL that accepts the
 * connection and never answers kept the check running about 165 s after its page was closed, and every other
 * check got 409 meanwhile. Now the run stops when its page goes away, and a refusal says when the slot frees.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { EXPLORER } from './support/ports';

const ROUTE = `${EXPLORER}/live/demo-client/app-check`;

const post = (startUrl: string, signal?: AbortSignal) =>
	fetch(ROUTE, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start_url: startUrl }), ...(signal ? { signal } : {}) });

/**
 * Whether the slot is free, without starting a run: the slot is claimed before the start URL is checked, so a
 * refused start URL answers 409 while a check runs and 400 once it is free.
 */
async function slotFree(): Promise<boolean> {
	const answer = await post('http://10.1.2.3/login');
	await answer.body?.cancel();
	return answer.status === 400;
}

test('a check whose page went away frees the slot at once, even on an app that never answers', async () => {
	test.setTimeout(90_000);
	const sockets = new Set<Socket>();
	const silent = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
	const startUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/login`;
	try {
		await expect.poll(slotFree, { timeout: 30_000 }).toBe(true);
		const page = new AbortController();
		const running = await post(startUrl, page.signal);
		expect(running.status).toBe(200);
		const reader = running.body!.getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toContain('"type":"started"');
		// The check's browser is waiting on the app that never answers.
		await expect.poll(() => sockets.size, { timeout: 20_000 }).toBeGreaterThan(0);

		const other = await post(startUrl);
		expect(other.status).toBe(409);
		expect(Number(other.headers.get('retry-after'))).toBeGreaterThan(0);
		expect((await other.json()).message).toMatch(/it ends by \S+ at the latest \(in \d+ s\); try again then\./);

		// The page is closed.
		page.abort();
		const closed = Date.now();
		await expect.poll(slotFree, { timeout: 15_000, intervals: [250] }).toBe(true);
		expect(Date.now() - closed).toBeLessThan(15_000);
	} finally {
		for (const socket of sockets) socket.destroy();
		silent.close();
	}
});
