import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { testConfig } from '../testConfig';

const runs: { resolve: () => void }[] = [];
vi.mock('../sandbox-admin', () => ({
	OFF_MESSAGE: 'off',
	sandboxAdminAccess: async () => 'allowed',
	panelWorkspace: async () => ({ workspace: { getClient: (id: string) => (id === 'app' ? { clientId: id } : null) }, readOnly: false })
}));
vi.mock('../explorer', () => ({ sessionWorkspaceOf: async () => ({ workspace: null, member: { key: 'workspace-key' } }) }));
vi.mock('../config', async (importOriginal) => ({ ...(await importOriginal<typeof import('../config')>()), config: () => testConfig() }));
vi.mock('./driver', () => ({
	runAppCheck: () =>
		new Promise((resolve) => runs.push({ resolve: () => resolve({ results: [], info: { startUrl: '', clientId: null, startedAt: '', durationMs: 0 }, known: [] }) }))
}));

const { appCheckStream } = await import('./live');

function post(body: object): RequestEvent {
	const request = new Request('http://localhost:3000/live/app/app-check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { request, locals: { sessionId: 's' } } as unknown as RequestEvent;
}

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
});
