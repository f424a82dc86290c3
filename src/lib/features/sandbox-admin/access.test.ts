import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIXTURE_CLIENTS, applyFixtures, fixtureClientId } from '$lib/sandbox/fixtures';
import { openStore } from '$lib/sandbox/store';
import { workspaceAdmission } from '$lib/sandbox/workspace-admission';
import { DEFAULT_WORKSPACE_POLICY } from '$lib/sandbox/workspaces';
import { createSessionStore } from '../../platform/session';
import { testConfig } from '../../platform/test-config';

const store = openStore(':memory:');
applyFixtures(store, 'http://localhost:3000');
const sessions = createSessionStore({ ttlMs: 60_000 });
const admission = workspaceAdmission(store, DEFAULT_WORKSPACE_POLICY, 'http://localhost:3000');

vi.mock('../../platform/services', () => ({ services: async () => ({ sandbox: { store, admission }, sessions, runs: null }) }));
/** The environment the configuration is parsed from, as each test sets it. */
const env: Record<string, string> = {};
vi.mock('../../platform/config', async (importOriginal) => ({
	...(await importOriginal<typeof import('../../platform/config')>()),
	config: () => testConfig(env)
}));

const { readableRegistration } = await import('./access');
const { createSessionWorkspace } = await import('./workspace-session');

afterAll(() => store.close());
beforeEach(() => {
	for (const name of Object.keys(env)) delete env[name];
});

let counter = 0;
function eventFor(address: string): RequestEvent {
	const sessionId = `registration-${++counter}`;
	return { locals: { sessionId, session: () => sessionId }, getClientAddress: () => address } as unknown as RequestEvent;
}

describe('readableRegistration', () => {
	it('gives the linter the clients of the workspace the session administers: ids, redirect URIs and countries, no secret', async () => {
		const registration = await readableRegistration(eventFor('127.0.0.1'));
		expect(registration?.workspace).toBe('Default');
		expect(registration?.clients.map((c) => c.clientId)).toEqual(expect.arrayContaining(['demo-client', 'group-key-client']));
		expect(registration?.clients[0]).toEqual({ clientId: expect.any(String), redirectUris: expect.any(Array), countries: expect.any(Array) });
		for (const { client_secret } of FIXTURE_CLIENTS) expect(JSON.stringify(registration)).not.toContain(client_secret);
	});

	it('gives a member their own workspace’s clients only', async () => {
		const event = eventFor('127.0.0.1');
		expect(await createSessionWorkspace(event)).toEqual({ ok: true });
		const registration = await readableRegistration(event);
		const ids = registration?.clients.map((c) => c.clientId) ?? [];
		expect(ids.length).toBeGreaterThan(0);
		expect(ids.every((id) => id.includes('~'))).toBe(true);
		expect(ids).toContain(fixtureClientId('demo-client', ids[0]!.split('~')[1]!));
	});

	it('gives nothing to a session that may not see the sandbox', async () => {
		expect(await readableRegistration(eventFor('203.0.113.7'))).toBeNull();
		env.SANDBOX_CONTROL_API = 'off';
		expect(await readableRegistration(eventFor('127.0.0.1'))).toBeNull();
	});
});
