import { describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { openRunStore } from './store';
import { runOwner } from './access';
import { exchange, run } from '$lib/features/runs/pure/test-helpers';
import { apiRoute } from '../../platform/errors';
import { config } from '../../platform/config';
import { MASK } from '$lib/http/exchange';
import { TAIL_LENGTH } from '$lib/http/secrets';

const runs = openRunStore(':memory:');
vi.mock('../../platform/services', () => ({ services: async () => ({ sandbox: null, sessions: null, runs }) }));
const SECRET = 'Sandbox-Client-Secret-1';
/** The sandbox log's entries, newest first, as the workspace answers them. */
const logged = vi.hoisted(() => [] as unknown[]);
vi.mock('../../platform/client-workspace', () => ({
	clientWorkspace: async () => ({ getClient: (id: string) => (id === 'shop' ? { client_secret: SECRET } : undefined), recentLog: () => logged })
}));
vi.mock('../sandbox-admin/access', () => ({ mayReadWorkspaceLog: async () => true }));
const sent = vi.hoisted(() => [] as unknown[]);
vi.mock('../../platform/outbound/outbound', () => ({
	send: async (request: unknown) => {
		sent.push(request);
		throw new Error('nothing is sent in these tests');
	}
}));

const { addEvidence } = await import('./evidence');

const SESSION = 'session-1';

/** A server-side HAR of one token exchange, as a stream that ends only when `finish` is called. */
function heldHar() {
	const entry = {
		startedDateTime: '2026-01-01T10:00:40.000Z',
		time: 20,
		request: {
			method: 'POST',
			url: 'https://accounts.example.com/oauth/token',
			httpVersion: 'HTTP/1.1',
			cookies: [],
			headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
			queryString: [],
			postData: { mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=authorization_code&code=c-1&client_id=shop' },
			headersSize: -1,
			bodySize: -1
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: 'HTTP/1.1',
			cookies: [],
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			content: { size: 0, mimeType: 'application/json', text: '{"error":"invalid_client"}' },
			redirectURL: '',
			headersSize: -1,
			bodySize: -1
		},
		cache: {},
		timings: { send: 0, wait: 20, receive: 0 }
	};
	const text = JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] } });
	let finish = () => {};
	let read = () => {};
	/** Resolves once the reader has taken the first part and asks for more. */
	const reading = new Promise<void>((resolve) => (read = resolve));
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(new TextEncoder().encode(text.slice(0, 40)));
			finish = () => {
				controller.enqueue(new TextEncoder().encode(text.slice(40)));
				controller.close();
			};
		},
		pull() {
			read();
		}
	});
	return { body, reading, finish: () => finish() };
}

function evidenceEvent(id: string, body: ReadableStream<Uint8Array> | string, query = '?kind=har') {
	const url = new URL(`http://localhost/runs/${id}/evidence${query}`);
	const request = new Request(url, { method: 'POST', body, duplex: 'half' } as RequestInit);
	return { params: { id }, locals: { sessionId: SESSION }, url, request } as unknown as RequestEvent & { params: { id: string } };
}

describe('addEvidence', () => {
	it('keeps what was saved to the run while its evidence was still arriving', async () => {
		const linkAt = (time: string, id: string) => ({
			...exchange('link', { url: 'https://auth.example.com/sso/student?response_type=code&client_id=shop' }, { status: 200 }, id),
			startedAt: `2026-01-01T10:00:${time}.000Z`
		});
		runs.save(run({ id: 'held', exchanges: [linkAt('00', 'x1')] }), {}, runOwner(SESSION));
		const har = heldHar();
		const adding = addEvidence(evidenceEvent('held', har.body));
		await har.reading;
		// Meanwhile, the walk's next step saves the run again.
		runs.save(run({ id: 'held', exchanges: [linkAt('00', 'x1'), linkAt('30', 'x2')] }), {}, runOwner(SESSION));
		har.finish();
		const response = await adding;
		expect(response.status).toBe(200);
		const stored = runs.get('held')!;
		expect(stored.exchanges.map((e) => e.id)).toEqual(['x1', 'x2', 'har-3']);
	});

	it("refuses to send a saved request to another host with the sandbox client's secret put back, saying why", async () => {
		const unsent = {
			...exchange('token', { method: 'POST', url: 'https://allowed.example.com/oauth/token', body: 'grant_type=authorization_code&code=c-1&client_id=shop&client_secret=••••••' }),
			id: 'curl-1'
		};
		runs.save(run({ id: 'resend', target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' }, exchanges: [unsent] }), {}, runOwner(SESSION));
		// As the route runs it: a refusal is answered with the one error body.
		const response = await apiRoute(addEvidence)(evidenceEvent('resend', JSON.stringify({ kind: 'send', exchangeId: 'curl-1' }), ''));
		expect(response.status).toBe(400);
		expect((await response.json()).message).toContain("goes to https://allowed.example.com, not to the sandbox's accounts host");
		expect(sent).toEqual([]);
	});

	describe("the sandbox's log of an imported run", () => {
		const { authUrl, accountsUrl } = config().sandbox;
		const redirect = 'https://shop.example.com/cb';
		const link = `${authUrl}/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(redirect)}&country=uk`;
		const code = 'Zk3Qw9Lm2Xp7Rt5Vb8Nc4Hd6Jf1Gs0A';
		/** A browser's HAR imported: the link and the arrival at the app's callback, whose server failed. */
		const imported = (id: string, authHost: string) =>
			run({
				id,
				source: 'har',
				target: { kind: 'custom', authUrl: authHost, accountsUrl: '' },
				link: link.replace(authUrl, authHost),
				callback: { url: `${redirect}?code=${code}`, receivedAt: '2026-01-01T10:00:05.000Z' },
				exchanges: [
					{ ...exchange('link', { url: link.replace(authUrl, authHost) }, { status: 200 }, 'har-1'), startedAt: '2026-01-01T10:00:00.000Z' },
					{ ...exchange('arrival', { url: `${redirect}?code=${code}` }, { status: 500, body: 'Internal Server Error' }, 'har-2'), startedAt: '2026-01-01T10:00:05.000Z' }
				]
			});
		/** The app's server's exchange of the code, as the sandbox logged it (the code masked but for its tail). */
		const serverExchange = {
			at: '2026-01-01T10:00:05.300Z',
			entry: {
				ref: 'w.1',
				host: 'accounts',
				sandboxAt: '2026-01-01T10:00:05.280Z',
				durationMs: 20,
				request: {
					method: 'POST',
					url: `${accountsUrl}/oauth/token`,
					headers: [{ name: 'content-type', value: 'application/x-www-form-urlencoded' }],
					body: `grant_type=authorization_code&code=${MASK}${code.slice(-TAIL_LENGTH)}&client_id=shop&client_secret=${MASK}&redirect_uri=${encodeURIComponent(`${redirect}?x=1`)}`
				},
				response: { status: 400, statusText: 'Bad Request', headers: [], body: '{"error":"invalid_grant"}', truncated: false },
				keys: {}
			}
		};
		const addLog = (id: string) => apiRoute(addEvidence)(evidenceEvent(id, JSON.stringify({ kind: 'sandbox-log' }), ''));

		it("joins an imported HAR recorded against this sandbox's hosts: the app's server's exchange, found by the run's client and code", async () => {
			logged.splice(0, logged.length, serverExchange);
			runs.save(imported('har-on-sandbox', authUrl), {}, runOwner(SESSION));
			const response = await addLog('har-on-sandbox');
			expect(response.status).toBe(200);
			expect(await response.json()).toMatchObject({ added: 1 });
			const token = runs.get('har-on-sandbox')!.exchanges.find((e) => e.step === 'token');
			expect(token).toMatchObject({ evidence: { source: 'sandbox-log', matchedBy: 'time' }, response: { status: 400 } });
		});

		it('refuses a run that reached other hosts, naming them and the sandbox\'s', async () => {
			logged.splice(0, logged.length, serverExchange);
			runs.save(imported('har-elsewhere', 'https://auth.example.com'), {}, runOwner(SESSION));
			const response = await addLog('har-elsewhere');
			expect(response.status).toBe(400);
			expect((await response.json()).message).toBe(
				`This run reached https://auth.example.com, not this sandbox's hosts (${authUrl}, ${accountsUrl}), so the sandbox has no log of it.`
			);
			expect(runs.get('har-elsewhere')!.exchanges).toHaveLength(2);
		});
	});
});
