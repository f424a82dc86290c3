import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { testConfig } from '../../platform/test-config';

const runs: { resolve: () => void; signal: AbortSignal }[] = [];
const SECRET = 'app-secret+/= 41';
vi.mock('../../platform/client-address', () => ({ clientAddress: () => '127.0.0.1' }));
vi.mock('../sandbox-admin/access', () => ({
	clientScope: async (_event: unknown, id: string) => {
		if (id !== 'app') throw (await import('../../platform/errors')).notFound('No client');
		return { workspace: {}, client: { client_id: id, client_secret: SECRET }, readOnly: false };
	}
}));
vi.mock('../../platform/explorer-session', () => ({ sessionWorkspaceOf: async () => ({ workspace: null, member: { key: 'workspace-key' } }) }));
vi.mock('../../platform/config', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../platform/config')>()), config: () => testConfig() }));
/**
 * A run that ends when the test says, or when its signal aborts (as the driver's does), its one result quoting the
 * client secret as an app's page might (URL-encoded).
 */
vi.mock('./driver', () => ({
	APP_CHECK_TIME_LIMIT_MS: 240_000,
	runAppCheck: (options: { onResult: (result: object) => void; signal: AbortSignal }) =>
		new Promise((resolve) => {
			const stopped = () => resolve({ results: [], info: { startUrl: '', clientId: 'app', startedAt: '', durationMs: 0 }, known: [] });
			options.signal.addEventListener('abort', stopped, { once: true });
			runs.push({
				signal: options.signal,
				resolve: () => {
					const result = { id: 'success', title: 'A normal sign-in', verdict: 'fail', reason: `the page shows client_secret ${encodeURIComponent(SECRET)}`, findings: [], fix: null, clientId: 'app', evidence: null };
					options.onResult(result);
					resolve({ results: [result], info: { startUrl: '', clientId: 'app', startedAt: '', durationMs: 0 }, known: [] });
				}
			});
		})
}));

const live = await import('./live');
const { apiRoute } = await import('../../platform/errors');
/** As the route calls it: a refusal thrown as an explorer error is answered as one. */
const appCheckStream = (event: RequestEvent, clientId: string) => apiRoute((e: RequestEvent) => live.appCheckStream(e, clientId))(event);

function post(body: object, sessionId = 's', signal?: AbortSignal): RequestEvent {
	const request = new Request('http://localhost:3000/live/app/app-check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
	return { request, locals: { sessionId } } as unknown as RequestEvent;
}

const START = { start_url: 'http://localhost:4000/login' };

afterEach(() => {
	for (const run of runs.splice(0)) run.resolve();
});

describe('the live page\'s app check', () => {
	it('runs one check at a time, even for two requests that arrive together', async () => {
		const answers = await Promise.all([appCheckStream(post({ start_url: 'http://localhost:4000/login' }), 'app'), appCheckStream(post({ start_url: 'http://localhost:4000/login' }), 'app')]);
		expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
		expect(runs).toHaveLength(1);
	});

	it('frees the server when a request is refused after the claim, and when a run ends', async () => {
		const refused = await appCheckStream(post({ start_url: 'http://169.254.169.254/' }), 'app');
		expect(refused.status).toBe(400);
		const first = await appCheckStream(post({ start_url: 'http://localhost:4000/login' }), 'app');
		expect(first.status).toBe(200);
		runs.shift()!.resolve();
		await first.text();
		expect((await appCheckStream(post({ start_url: 'http://localhost:4000/login' }), 'app')).status).toBe(200);
	});

	it('hides the client\'s secret in every form in what it streams', async () => {
		const answer = await appCheckStream(post({ start_url: 'http://localhost:4000/login' }), 'app');
		runs.shift()!.resolve();
		const text = await answer.text();
		expect(text).toContain('the page shows client_secret ••••••');
		expect(text).not.toContain(encodeURIComponent(SECRET));
	});

	it('refuses the sandbox under another name than its own (127.0.0.1 for localhost) before any run', async () => {
		const answer = await appCheckStream(post({ start_url: 'http://127.0.0.1:3001/sso/student' }), 'app');
		expect(answer.status).toBe(400);
		expect((await answer.json()).message).toMatch(/^http:\/\/127\.0\.0\.1:3001 is the sandbox itself/);
		expect(runs).toHaveLength(0);
	});

	it('stops the run when the page that started it goes away (the stream cancelled), and frees the slot', async () => {
		const answer = await appCheckStream(post(START), 'app');
		expect(runs[0]!.signal.aborted).toBe(false);
		await answer.body!.cancel();
		expect(runs[0]!.signal.aborted).toBe(true);
		await vi.waitFor(async () => expect((await appCheckStream(post(START), 'app')).status).toBe(200));
	});

	it('stops the run when the request is aborted', async () => {
		const aborting = new AbortController();
		await appCheckStream(post(START, 's', aborting.signal), 'app');
		aborting.abort();
		expect(runs[0]!.signal.aborted).toBe(true);
	});

	it('tells others when the slot frees, keeps it for them after, and the caller who held it cannot take it straight back', async () => {
		const first = await appCheckStream(post(START, 'a'), 'app');
		const other = await appCheckStream(post(START, 'b'), 'app');
		expect(other.status).toBe(409);
		expect(Number(other.headers.get('retry-after'))).toBeGreaterThan(240);
		expect((await other.json()).message).toMatch(/^An app check is already running on this server; it ends by \S+ at the latest \(in 2[45]\d s\); try again then\. The slot is then kept for you for 30 s\.$/);
		runs.shift()!.resolve();
		await first.text();
		const again = await appCheckStream(post(START, 'a'), 'app');
		expect(again.status).toBe(409);
		expect((await again.json()).message).toMatch(/^Others who were waiting for the app check go first/);
		expect((await appCheckStream(post(START, 'b'), 'app')).status).toBe(200);
	});

	it('refuses a body that is not JSON, saying what to send', async () => {
		const request = new Request('http://localhost:3000/live/app/app-check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'start_url=http://localhost:4000' });
		const answer = await appCheckStream({ request, locals: { sessionId: 's' } } as unknown as RequestEvent, 'app');
		expect(answer.status).toBe(400);
		expect((await answer.json()).message).toBe('The request body must be JSON, e.g. {"start_url": "http://localhost:4000/login"}.');
		expect(runs).toHaveLength(0);
	});

	it('refuses a start URL with a user name or password in it, as the CLI does', async () => {
		const answer = await appCheckStream(post({ start_url: 'http://user:pass@localhost:4000/login' }), 'app');
		expect(answer.status).toBe(400);
		expect((await answer.json()).message).toBe('start_url: must not carry a user name or password.');
		expect(runs).toHaveLength(0);
	});
});
