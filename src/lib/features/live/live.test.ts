import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogListener, LoggedExchange } from '$lib/sandbox/log';
import type { SandboxClient, SandboxWorkspace } from '$lib/sandbox/store';
import { FlowReconstruction } from '$lib/flow/reconstruct/reconstruct';
import { STREAMS_PER_WORKSPACE, liveEventStream } from './live';

vi.mock('../../platform/services', () => ({ services: async () => ({ sandbox: null }) }));

/** A workspace with an empty log that counts its log's subscribers. */
function watchedWorkspace() {
	const listeners = new Set<LogListener>();
	const workspace = {
		id: `w${Math.random()}`,
		recentLog: () => [],
		subscribeLog(listener: LogListener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		}
	} as unknown as SandboxWorkspace;
	return { workspace, listeners };
}

const client = { client_id: 'app', client_secret: 'secret-value', name: 'App' } as SandboxClient;
const always = async () => true;
/** A control API call arriving in the log: no step of a flow. */
const logEntry = {
	entry: { build: (): LoggedExchange => ({ ref: 'x.1', host: 'accounts', sandboxAt: '2030-01-01T00:00:00.000Z', durationMs: 1, request: { method: 'GET', url: 'http://a.test/sandbox/state', headers: [], body: null }, response: null, keys: {} }) }
} as unknown as Parameters<LogListener>[0];

afterEach(() => vi.useRealTimers());

async function firstChunk(response: Response): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
	const reader = response.body!.getReader();
	const { value } = await reader.read();
	return { text: new TextDecoder().decode(value), reader };
}

describe('the live event stream', () => {
	it('is an event stream that subscribes to the log and lets go of it when the browser goes away', async () => {
		const { workspace, listeners } = watchedWorkspace();
		const abort = new AbortController();
		const response = liveEventStream(workspace, client, abort.signal, always);
		expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		expect(response.headers.get('cache-control')).toBe('no-store');
		const { text, reader } = await firstChunk(response);
		expect(text).toBe(': live flows\n\n');
		expect(listeners.size).toBe(1);
		abort.abort();
		expect(listeners.size).toBe(0);
		expect(await reader.read()).toEqual({ done: true, value: undefined });
	});

	it('lets go of the log when the stream is cancelled', async () => {
		const { workspace, listeners } = watchedWorkspace();
		const { reader } = await firstChunk(liveEventStream(workspace, client, new AbortController().signal, always));
		await reader.cancel();
		expect(listeners.size).toBe(0);
	});
});

describe('a live stream outliving access', () => {
	it('ends at the next push once the session may no longer watch (it left the workspace, or it was deleted)', async () => {
		const { workspace, listeners } = watchedWorkspace();
		let access = true;
		const { reader } = await firstChunk(liveEventStream(workspace, client, new AbortController().signal, async () => access));
		access = false;
		for (const listener of listeners) listener(logEntry);
		expect(await reader.read()).toEqual({ done: true, value: undefined });
		expect(listeners.size).toBe(0);
	});

	it('ends at the next heartbeat too, with no request arriving', async () => {
		vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
		const { workspace, listeners } = watchedWorkspace();
		let access = true;
		const { reader } = await firstChunk(liveEventStream(workspace, client, new AbortController().signal, async () => access));
		access = false;
		await vi.advanceTimersByTimeAsync(15_000);
		expect(await reader.read()).toEqual({ done: true, value: undefined });
		expect(listeners.size).toBe(0);
	});

	it('drops a browser that stopped reading instead of queueing without bound', async () => {
		vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
		const { workspace, listeners } = watchedWorkspace();
		liveEventStream(workspace, client, new AbortController().signal, always);
		await vi.advanceTimersByTimeAsync(15_000 * 200);
		expect(listeners.size).toBe(0);
	});
});

describe('streams of one client', () => {
	it('share one reconstruction: each arrival is built once however many streams watch', async () => {
		const { workspace, listeners } = watchedWorkspace();
		const build = vi.fn(logEntry.entry.build);
		const aborts = [new AbortController(), new AbortController(), new AbortController()];
		// Each stream checks its access at every push: once all three have after the arrival, its push is done.
		let arrived = false;
		let checked = 0;
		let pushed = () => {};
		const pushDone = new Promise<void>((resolve) => (pushed = resolve));
		const access = async () => {
			if (arrived && ++checked === aborts.length) pushed();
			return true;
		};
		const readers = await Promise.all(aborts.map(async (abort) => (await firstChunk(liveEventStream(workspace, client, abort.signal, access))).reader));
		expect(listeners.size).toBe(1);
		arrived = true;
		for (const listener of listeners) listener({ entry: { build } } as unknown as Parameters<LogListener>[0]);
		await pushDone;
		expect(build).toHaveBeenCalledTimes(1);
		for (const abort of aborts) abort.abort();
		expect(listeners.size).toBe(0);
		for (const reader of readers) await reader.cancel();
	});
});

describe("a client's feed", () => {
	/** The app's server sending one code to the token endpoint again (the log gives the code's digest as its key). */
	const tokenEntry = (n: number) =>
		({
			entry: {
				build: (): LoggedExchange => ({
					ref: `t.${n}`,
					host: 'accounts',
					sandboxAt: new Date(Date.parse('2030-01-01T00:00:00.000Z') + n).toISOString(),
					durationMs: 1,
					request: { method: 'POST', url: 'http://api.test/oauth/token', headers: [], body: 'grant_type=authorization_code&code=••••••abcd&client_id=app' },
					response: { status: 400, statusText: 'Bad Request', headers: [], body: '{"error":"invalid_grant"}', truncated: false },
					keys: { clientId: 'app', code: 'digest-of-the-code' }
				})
			}
		}) as unknown as Parameters<LogListener>[0];

	it('adds each arrival to its flows once, instead of rebuilding its window at every push', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		const added = vi.spyOn(FlowReconstruction.prototype, 'add');
		const { workspace, listeners } = watchedWorkspace();
		const abort = new AbortController();
		const { reader } = await firstChunk(liveEventStream(workspace, client, abort.signal, always));
		for (const batch of [0, 1, 2]) {
			for (let i = 1; i <= 10; i++) for (const listener of listeners) listener(tokenEntry(batch * 10 + i));
			await vi.advanceTimersByTimeAsync(60_000);
		}
		// Three pushes of ten: thirty additions (a rebuild at each push would have made 10 + 20 + 30).
		expect(added).toHaveBeenCalledTimes(30);
		let sent = '';
		while (!sent.includes('"t.30"')) sent += new TextDecoder().decode((await reader.read()).value);
		expect(sent.match(/^event: flow$/gm)).toHaveLength(3);
		abort.abort();
		added.mockRestore();
	});

	it('brings a person\'s requests to the page within a push interval, however long a push took, and rests only after traffic', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		// Every push takes "long": 50 ms between any two readings of the clock it is timed on.
		let clock = 0;
		const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 50));
		const { workspace, listeners } = watchedWorkspace();
		const abort = new AbortController();
		const { reader } = await firstChunk(liveEventStream(workspace, client, abort.signal, always));
		await vi.advanceTimersByTimeAsync(0);
		let sent = '';
		// A person's requests, a few at a time: each push follows the last within a push interval.
		for (const n of [1, 2, 3]) {
			for (const listener of listeners) listener(tokenEntry(n));
			await vi.advanceTimersByTimeAsync(300);
			while (!sent.includes(`"t.${n}"`)) sent += new TextDecoder().decode((await reader.read()).value);
		}
		// Traffic (more than twenty arrivals at once) makes the feed rest, 100 times what the push took, before the next.
		for (let n = 4; n <= 30; n++) for (const listener of listeners) listener(tokenEntry(n));
		await vi.advanceTimersByTimeAsync(300);
		while (!sent.includes('"t.30"')) sent += new TextDecoder().decode((await reader.read()).value);
		for (const listener of listeners) listener(tokenEntry(31));
		await vi.advanceTimersByTimeAsync(300);
		const pending = reader.read();
		const early = await Promise.race([pending.then(() => 'sent'), new Promise((resolve) => setImmediate(() => resolve('resting')))]);
		expect(early).toBe('resting');
		await vi.advanceTimersByTimeAsync(60_000);
		sent += new TextDecoder().decode((await pending).value);
		while (!sent.includes('"t.31"')) sent += new TextDecoder().decode((await reader.read()).value);
		abort.abort();
		now.mockRestore();
	});
});

describe('live views per workspace', () => {
	it('refuses one more than STREAMS_PER_WORKSPACE at once, and takes a new one once one closes', async () => {
		const { workspace } = watchedWorkspace();
		const aborts = Array.from({ length: STREAMS_PER_WORKSPACE }, () => new AbortController());
		for (const abort of aborts) liveEventStream(workspace, client, abort.signal, always);
		expect(() => liveEventStream(workspace, client, new AbortController().signal, always)).toThrow(expect.objectContaining({ status: 429 }));
		aborts[0]!.abort();
		const next = new AbortController();
		expect(liveEventStream(workspace, client, next.signal, always).status).toBe(200);
		for (const abort of [...aborts, next]) abort.abort();
	});

	it('frees its place when the stream could not start', () => {
		const { workspace } = watchedWorkspace();
		const broken = { ...workspace, id: workspace.id, recentLog: () => { throw new Error('the log is unreadable'); } } as unknown as SandboxWorkspace;
		for (let i = 0; i <= STREAMS_PER_WORKSPACE; i++) expect(() => liveEventStream(broken, client, new AbortController().signal, always)).toThrow('the log is unreadable');
		const abort = new AbortController();
		expect(liveEventStream(workspace, client, abort.signal, always).status).toBe(200);
		abort.abort();
	});
});
