import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTCOME_IDS } from '$lib/protocol';
import { applyFixtures, fixtureClientId } from '$lib/sandbox/fixtures';
import { openStore } from '$lib/sandbox/store';
import { workspaceAdmission } from '$lib/sandbox/workspace-admission';
import { DEFAULT_WORKSPACE_POLICY } from '$lib/sandbox/workspaces';
import { ExplorerError } from '../../platform/errors';
import { createSessionStore } from '../../platform/session';
import { testConfig } from '../../platform/test-config';

const ORIGIN = 'http://localhost:3000';
const store = openStore(':memory:');
applyFixtures(store, ORIGIN);
const sessions = createSessionStore({ ttlMs: 60_000 });
const admission = workspaceAdmission(store, DEFAULT_WORKSPACE_POLICY, ORIGIN);

vi.mock('../../platform/services', () => ({ services: async () => ({ sandbox: { store, admission }, sessions, runs: null }) }));
/** The environment the configuration is parsed from, as each test sets it. */
const env: Record<string, string> = {};
vi.mock('../../platform/config', async (importOriginal) => ({
	...(await importOriginal<typeof import('../../platform/config')>()),
	config: () => testConfig(env)
}));

const { changeOutcomeRules, outcomeRulesFor } = await import('./outcome-rules');
const { createSessionWorkspace } = await import('./workspace-session');
const { sessionWorkspaceOf } = await import('../../platform/explorer-session');

afterAll(() => store.close());

let counter = 0;
function eventFor(sessionId: string, address = '127.0.0.1'): RequestEvent {
	return { locals: { sessionId, session: () => sessionId }, getClientAddress: () => address } as unknown as RequestEvent;
}

/** A session with a workspace of its own; answers its event and its copy of the demo client. */
async function member() {
	const event = eventFor(`outcomes-${++counter}`);
	expect(await createSessionWorkspace(event)).toEqual({ ok: true });
	const { workspace } = await sessionWorkspaceOf(event.locals.sessionId);
	return { event, workspace: workspace!, clientId: fixtureClientId('demo-client', workspace!.id) };
}

beforeEach(() => {
	for (const name of Object.keys(env)) delete env[name];
	store.clearOutcomes('demo-client');
});

/** The refusal a call throws, as its status and message; an answer it gives instead fails the test. */
async function refusal(answer: Promise<unknown>): Promise<{ status: number; message: string }> {
	const thrown = await answer.then(
		() => undefined,
		(error: unknown) => error
	);
	if (!(thrown instanceof ExplorerError)) throw new Error(`expected a refusal, got ${String(thrown)}`);
	return { status: thrown.status, message: thrown.message };
}

describe('outcome rules from the explorer', () => {
	it('a member sets, lists and clears rules of their workspace\'s clients', async () => {
		const { event, workspace, clientId } = await member();
		const set = await changeOutcomeRules(event, clientId, { outcome: 'me-404' });
		expect(set).toEqual({ clientId, pending: [{ outcome: 'me-404', stage: 'me', setAt: expect.any(String) }], used: [], readOnly: false });
		await changeOutcomeRules(event, clientId, { outcome: 'token-invalid-grant' });
		workspace.takeOutcome(clientId, 'me', 'GET /api/v3/me.json');
		const listed = await outcomeRulesFor(event, clientId);
		expect(listed.pending.map((r) => r.outcome)).toEqual(['token-invalid-grant']);
		expect(listed.used).toEqual([expect.objectContaining({ outcome: 'me-404', request: 'GET /api/v3/me.json' })]);
		const cleared = await changeOutcomeRules(event, clientId, { clear: true });
		expect(cleared.pending).toEqual([]);
		await changeOutcomeRules(event, clientId, { outcome: 'me-401' });
		await changeOutcomeRules(event, clientId, { clear: 'me-403' });
		expect(workspace.pendingOutcome(clientId, 'me')).toBe('me-401');
		await changeOutcomeRules(event, clientId, { clear: 'me-401' });
		expect(workspace.pendingOutcome(clientId, 'me')).toBeNull();
	});

	it('never reaches another workspace\'s client: answered as unknown, nothing set or shown', async () => {
		const a = await member();
		const b = await member();
		await changeOutcomeRules(b.event, b.clientId, { outcome: 'me-404' });
		for (const answer of [
			await refusal(outcomeRulesFor(a.event, b.clientId)),
			await refusal(changeOutcomeRules(a.event, b.clientId, { outcome: 'me-401' })),
			await refusal(changeOutcomeRules(a.event, b.clientId, { clear: true })),
			// The default workspace's client is not the member's either.
			await refusal(changeOutcomeRules(a.event, 'demo-client', { outcome: 'me-401' }))
		]) {
			expect(answer).toEqual({ status: 404, message: expect.stringContaining('in your sandbox workspace') });
		}
		expect(b.workspace.pendingOutcome(b.clientId, 'me')).toBe('me-404');
		expect(store.pendingOutcome('demo-client', 'me')).toBeNull();
	});

	it('refuses a body that is not {outcome} or {clear}, naming the outcomes', async () => {
		const { event, clientId } = await member();
		for (const body of [{ outcome: 'me-500' }, { clear: false }, {}, { outcome: 'me-401', clear: true }, 'me-401']) {
			const answer = await refusal(changeOutcomeRules(event, clientId, body));
			expect(answer).toEqual({ status: 400, message: expect.stringContaining(OUTCOME_IDS.join(', ')) });
		}
	});

	it('follows the panel\'s access: the default workspace from this machine, not from elsewhere; behind the admin token', async () => {
		const local = eventFor(`outcomes-${++counter}`);
		expect((await changeOutcomeRules(local, 'demo-client', { outcome: 'me-403' })).pending).toEqual([expect.objectContaining({ outcome: 'me-403' })]);
		expect(store.pendingOutcome('demo-client', 'me')).toBe('me-403');

		const remote = eventFor(`outcomes-${++counter}`, '203.0.113.9');
		expect(await refusal(outcomeRulesFor(remote, 'demo-client'))).toEqual({ status: 403, message: expect.stringContaining('this machine only') });
		expect(await refusal(changeOutcomeRules(remote, 'demo-client', { clear: true }))).toMatchObject({ status: 403 });

		env.SANDBOX_ADMIN_TOKEN = 'a-long-enough-admin-token';
		expect(await refusal(changeOutcomeRules(local, 'demo-client', { clear: true }))).toEqual({ status: 403, message: expect.stringContaining('admin token') });
		env.SANDBOX_CONTROL_API = 'off';
		expect(await refusal(outcomeRulesFor(local, 'demo-client'))).toMatchObject({ status: 404 });
		expect(store.pendingOutcome('demo-client', 'me')).toBe('me-403');
	});

	it('shows but never changes the default workspace in public mode', async () => {
		store.setOutcome('demo-client', 'me-404');
		env.SANDBOX_PUBLIC = 'on';
		const visitor = eventFor(`outcomes-${++counter}`, '203.0.113.9');
		const shown = await outcomeRulesFor(visitor, 'demo-client');
		expect(shown.readOnly).toBe(true);
		expect(await refusal(changeOutcomeRules(visitor, 'demo-client', { clear: true }))).toMatchObject({ status: 403 });
		expect(store.pendingOutcome('demo-client', 'me')).toBe('me-404');
	});
});
