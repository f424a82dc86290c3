import type { RequestEvent } from '@sveltejs/kit';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyFixtures, FIXTURE_CLIENTS } from '$lib/sandbox/fixtures';
import { openStore } from '$lib/sandbox/store';
import { workspaceAdmission } from '$lib/sandbox/workspace-admission';
import { DEFAULT_WORKSPACE_POLICY } from '$lib/sandbox/workspaces';
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

const { createSessionWorkspace, joinWorkspace, leaveWorkspace, returnPath, shareUrl, workspaceSwitcher } = await import('./workspace-session');
const { sessionWorkspaceOf } = await import('../../platform/explorer-session');
const { loadWalkPage } = await import('../walk/explorer');
const { panelWorkspace } = await import('./access');

afterAll(() => store.close());

let counter = 0;
function eventFor(sessionId: string, address = '127.0.0.1'): RequestEvent {
	return { locals: { sessionId, session: () => sessionId }, getClientAddress: () => address } as unknown as RequestEvent;
}
function formWithKey(key: string): FormData {
	const form = new FormData();
	form.set('key', key);
	return form;
}

let sessionId: string;
beforeEach(() => {
	sessionId = `session-${++counter}`;
	for (const name of Object.keys(env)) delete env[name];
});

async function made(event: RequestEvent) {
	expect(await createSessionWorkspace(event)).toEqual({ ok: true });
	const view = (await workspaceSwitcher(event))!;
	const key = new URLSearchParams(new URL(view.current!.shareUrl).hash.slice(1)).get('key')!;
	return { id: view.current!.id, key };
}

describe('a session of its own workspace', () => {
	it('makes one with the demo fixtures, which the walk, the panel and the switcher then use', async () => {
		const event = eventFor(sessionId);
		const { id, key } = await made(event);
		const { workspace, member } = await sessionWorkspaceOf(sessionId);
		expect(workspace?.id).toBe(id);
		expect(member).toEqual({ id, key });
		expect(workspace?.listClients().map((c) => c.client_id)).toContain(`${FIXTURE_CLIENTS[0]!.client_id}~${id}`);
		expect((await loadWalkPage(sessionId)).view.client.clientId).toBe(`${FIXTURE_CLIENTS[0]!.client_id}~${id}`);
		expect((await panelWorkspace(event))?.workspace.id).toBe(id);
		expect(store.workspaceForKey(key)?.id).toBe(id);
		// Another session is still in the default workspace.
		expect((await sessionWorkspaceOf('someone-else')).workspace?.id).toBe('default');
	});

	it('is joined with its key only; a wrong key and an unknown workspace get the same answer', async () => {
		const { id, key } = await made(eventFor(sessionId));
		const colleague = eventFor(`${sessionId}-colleague`);
		const wrong = await joinWorkspace(colleague, id, formWithKey(`${id}.wrong`));
		const unknown = await joinWorkspace(colleague, 'nosuchid', formWithKey(key));
		expect(wrong).toEqual({ ok: false, status: 403, message: expect.stringContaining('does not open') });
		expect(unknown).toEqual(wrong);
		expect((await joinWorkspace(colleague, id, formWithKey(''))).ok).toBe(false);
		expect((await sessionWorkspaceOf(`${sessionId}-colleague`)).member).toBeNull();
		expect(await joinWorkspace(colleague, id, formWithKey(key))).toEqual({ ok: true });
		expect((await sessionWorkspaceOf(`${sessionId}-colleague`)).workspace?.id).toBe(id);
	});

	it('is left for the default workspace, and forgotten once the workspace is removed', async () => {
		const event = eventFor(sessionId);
		const { id } = await made(event);
		await leaveWorkspace(event);
		expect((await sessionWorkspaceOf(sessionId)).workspace?.id).toBe('default');
		expect((await loadWalkPage(sessionId)).view.client.clientId).toBe(FIXTURE_CLIENTS[0]!.client_id);

		const again = await made(event);
		expect(again.id).not.toBe(id);
		store.deleteWorkspace(again.id);
		expect(await sessionWorkspaceOf(sessionId)).toMatchObject({ member: null, workspace: { id: 'default' } });
	});

	it('says so when the session\'s workspace was removed, until the session makes, joins or leaves one (issue 26)', async () => {
		env.SANDBOX_PUBLIC = 'on';
		const event = eventFor(sessionId);
		const { id } = await made(event);
		expect((await workspaceSwitcher(event))?.removedNotice).toBeNull();
		store.deleteWorkspace(id);
		const notice = (await workspaceSwitcher(event))?.removedNotice;
		expect(notice).toContain(`Your workspace ${id} no longer exists`);
		expect(notice).toMatch(/nobody has used it for 24 hours, or after 30 minutes when this public sandbox is full/);
		await leaveWorkspace(event);
		expect((await workspaceSwitcher(event))?.removedNotice).toBeNull();
	});

	it('using a workspace in the explorer counts as using it: it is not the idlest', async () => {
		const event = eventFor(sessionId);
		const { id } = await made(event);
		const before = store.workspace(id)!.info().lastUsedMs;
		vi.useFakeTimers({ toFake: ['Date'], now: before + 60_000 });
		try {
			await sessionWorkspaceOf(sessionId);
		} finally {
			vi.useRealTimers();
		}
		expect(store.workspace(id)!.info().lastUsedMs).toBe(before + 60_000);
	});

	it('cannot be made from another machine unless the sandbox is public, where the default workspace is read-only', async () => {
		const remote = eventFor(sessionId, '203.0.113.9');
		expect(await createSessionWorkspace(remote)).toMatchObject({ ok: false, status: 403 });
		expect((await workspaceSwitcher(remote))?.canCreate).toBe(false);

		env.SANDBOX_PUBLIC = 'on';
		expect(await panelWorkspace(remote)).toMatchObject({ readOnly: true, workspace: { id: 'default' } });
		await made(remote);
		expect(await panelWorkspace(remote)).toMatchObject({ readOnly: false });
	});
});

describe('links and forms', () => {
	it('puts the key in the share link fragment, never in its path or query', () => {
		const url = new URL(shareUrl(ORIGIN, 'abc', 'abc.s3cret'));
		expect(url.pathname).toBe('/workspaces/abc');
		expect(url.search).toBe('');
		expect(url.hash).toBe('#key=abc.s3cret');
	});

	it('returns only to the pages that show the switcher', () => {
		const form = (to: string) => {
			const f = new FormData();
			f.set('return_to', to);
			return f;
		};
		expect(returnPath(form('/sandbox'))).toBe('/sandbox');
		expect(returnPath(form('/learn/cancel'))).toBe('/learn/cancel');
		expect(returnPath(form('https://evil.example/'))).toBe('/');
		expect(returnPath(form('//evil.example'))).toBe('/');
		expect(returnPath(null)).toBe('/');
	});
});
