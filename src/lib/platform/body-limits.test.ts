import type { RequestEvent } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { bodyLimitFor, DEFAULT_BODY_LIMIT, limitRequestBodies } from './body-limits';
import { MAX_HAR_BYTES } from '$lib/features/runs/pure/har/har-limits';

const MB = 1024 * 1024;

/** A body sent without a declared length, as a chunked upload arrives. */
function chunked(bytes: number): ReadableStream<Uint8Array> {
	let sent = 0;
	return new ReadableStream({
		pull(controller) {
			if (sent >= bytes) return controller.close();
			const size = Math.min(64 * 1024, bytes - sent);
			sent += size;
			controller.enqueue(new Uint8Array(size).fill(0x61));
		}
	});
}

async function hook(path: string, init: RequestInit & { duplex?: 'half' }) {
	const url = new URL(path, 'http://localhost');
	const event = { request: new Request(url, { method: 'POST', duplex: 'half', ...init }), url } as unknown as RequestEvent;
	let reached: Request | null = null;
	const response = await limitRequestBodies({
		event,
		resolve: async (e) => {
			reached = e.request;
			return new Response('route');
		}
	});
	return { response, reached: reached as Request | null };
}

describe('limitRequestBodies', () => {
	it("gives the import and a run's evidence (a server-side HAR) 250 MB, every other route 1 MB", () => {
		expect(bodyLimitFor('/api/import')).toBe(MAX_HAR_BYTES);
		expect(bodyLimitFor('/runs/0b7e-run/evidence')).toBe(MAX_HAR_BYTES);
		expect(bodyLimitFor('/runs/0b7e-run')).toBe(DEFAULT_BODY_LIMIT);
		expect(bodyLimitFor('/api/walk/client')).toBe(DEFAULT_BODY_LIMIT);
		expect(bodyLimitFor('/sandbox')).toBe(DEFAULT_BODY_LIMIT);
	});

	it('refuses a declared length over the limit with a 413 in MB, before the route runs', async () => {
		const { response, reached } = await hook('/api/walk/client', { headers: { 'content-length': String(3 * MB) }, body: chunked(0) });
		expect(reached).toBeNull();
		expect(response.status).toBe(413);
		expect(await response.json()).toEqual({ error: 'too-large', message: 'The request body is 3 MB; this address accepts at most 1 MB.' });
	});

	it('says what to do when a HAR is declared over 250 MB', async () => {
		const { response } = await hook('/api/import?kind=har', { headers: { 'content-length': String(300 * MB) }, body: chunked(0) });
		expect(response.status).toBe(413);
		expect((await response.json()).message).toMatch(/^The file is 300 MB; at most 250 MB can be imported\. Record a shorter HAR/);
	});

	it('reads a chunked body up to the limit: refused past it, handed on whole below it', async () => {
		const over = await hook('/api/lesson', { body: chunked(MB + 1) });
		expect(over.reached).toBeNull();
		expect(over.response.status).toBe(413);
		expect((await over.response.json()).message).toBe('The request body is more than 1 MB; this address accepts at most 1 MB.');

		const under = await hook('/api/lesson', { body: chunked(MB) });
		expect(under.response.status).toBe(200);
		expect((await under.reached!.arrayBuffer()).byteLength).toBe(MB);
	});

	it('leaves the import\'s chunked body to the route, which reads it as it streams', async () => {
		const { response, reached } = await hook('/api/import?kind=har', { body: chunked(2 * MB) });
		expect(response.status).toBe(200);
		expect(reached?.bodyUsed).toBe(false);
	});
});
