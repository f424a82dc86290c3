/**
 * An explorer session's own sandbox workspace: made in one click (with the demo fixtures copied in), joined by a
 * colleague through its share link, or left for the default workspace. The walk, the panel and the lesson then use
 * it (platform/explorer-session.ts `sessionWorkspace`). The workspace's key lives in the server-side session; the only page that
 * shows it is its member's own share box.
 *
 * Who may make one follows the control API: in public mode anyone, as a visitor with the one allowance per visitor
 * the control API shares (the sandbox's `admission`, workspace-admission.ts); otherwise whoever may administer the
 * sandbox (sandbox-admin.ts).
 */
import type { RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import { EVICTABLE_AFTER_IDLE_MS } from '$lib/sandbox/workspace-admission';
import { FIXTURE_CLIENTS, fixtureClientId } from '$lib/sandbox/fixtures';
import type { WorkspacePolicy } from '$lib/sandbox/workspaces';
import type { WorkspaceSwitcherView } from '$lib/view/workspaces';
import { config } from '../../platform/config';
import { sessionWorkspaceOf, switchWorkspace } from '../../platform/explorer-session';
import { defaultAdminAccess } from './access';
import { clientAddress } from '../../platform/client-address';
import { services } from '../../platform/services';

export type WorkspaceOutcome = { ok: true } | { ok: false; status: number; message: string };


function policy(): WorkspacePolicy {
	return config().sandboxService.workspaces;
}

/** Why a session's workspace is gone: the rules that remove one, so its member knows it was no accident. */
function removedNotice(id: string): string {
	const { idleHours, public: publicMode } = policy();
	const sooner = publicMode ? `, or after ${EVICTABLE_AFTER_IDLE_MS / 60_000} minutes when this public sandbox is full and needs room for others` : '';
	return `Your workspace ${id} no longer exists: a workspace is removed with everything in it once nobody has used it for ${idleHours} hours${sooner} (or when a member deletes it). You are back in the default workspace.`;
}

/** The share link: the key rides in the fragment, which browsers never send, so it stays out of request logs. */
export function shareUrl(origin: string, id: string, key: string): string {
	return `${origin}/workspaces/${encodeURIComponent(id)}#key=${encodeURIComponent(key)}`;
}

async function mayCreate(event: RequestEvent): Promise<boolean> {
	return policy().public || (await defaultAdminAccess(event)) === 'allowed';
}

export async function workspaceSwitcher(event: RequestEvent): Promise<WorkspaceSwitcherView | null> {
	const { sandbox } = await services();
	if (!sandbox) return null;
	const { workspace, member, removed } = await sessionWorkspaceOf(event.locals.sessionId);
	const current =
		workspace && member
			? {
					id: member.id,
					name: workspace.info().name,
					shareUrl: shareUrl(config().publicOrigin, member.id, member.key),
					demoClientId: fixtureClientId(FIXTURE_CLIENTS[0]!.client_id, member.id)
				}
			: null;
	return { current, canCreate: await mayCreate(event), publicMode: policy().public, removedNotice: removed && removedNotice(removed) };
}

/** Makes a workspace with the demo fixtures for the session, which then uses it. */
export async function createSessionWorkspace(event: RequestEvent): Promise<WorkspaceOutcome> {
	const { sandbox } = await services();
	if (!sandbox) return { ok: false, status: 409, message: 'The sandbox is off (SANDBOX=off): there are no workspaces.' };
	if (!(await mayCreate(event))) {
		return { ok: false, status: 403, message: 'Only whoever administers the sandbox may make workspaces on this server (see the /sandbox page).' };
	}
	// Outside public mode only an administrator gets here: the operator, whose workspaces spend no visitor's allowance.
	const creator = policy().public ? { kind: 'visitor' as const, address: clientAddress(event) } : { kind: 'operator' as const };
	const admitted = sandbox.admission.create(creator, { fixtures: 'demo', name: 'Explorer workspace' });
	if (!admitted.ok) return { ok: false, status: admitted.status, message: admitted.message };
	await switchWorkspace(event.locals.session(), { id: admitted.workspace.id, key: admitted.key });
	return { ok: true };
}

const JoinForm = z.object({ id: z.string().min(1).max(100), key: z.string().min(1, 'Enter the workspace key from the share link.').max(200) });

const NOT_OPENED = 'That key does not open this workspace (or the workspace no longer exists). Ask its member for the share link again.';

/** Joins the workspace whose key the form carries; the same answer for a wrong key and an unknown workspace. */
export async function joinWorkspace(event: RequestEvent, id: string, form: FormData | null): Promise<WorkspaceOutcome> {
	const { sandbox } = await services();
	if (!sandbox) return { ok: false, status: 409, message: 'The sandbox is off (SANDBOX=off): there are no workspaces.' };
	const parsed = JoinForm.safeParse({ id, key: form?.get('key') ?? '' });
	if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0]!.message };
	const workspace = sandbox.store.workspaceForKey(parsed.data.key);
	if (workspace?.id !== parsed.data.id) return { ok: false, status: 403, message: NOT_OPENED };
	await switchWorkspace(event.locals.session(), { id: workspace.id, key: parsed.data.key });
	return { ok: true };
}

/** Back to the default workspace (the workspace itself stays, for its other members). */
export async function leaveWorkspace(event: RequestEvent): Promise<void> {
	await switchWorkspace(event.locals.session(), null);
}

/** Where a workspace form returns to: a page of the explorer's own that shows the switcher, else the walk. */
export function returnPath(form: FormData | null): string {
	const wanted = form?.get('return_to');
	return wanted === '/sandbox' || wanted === '/learn/cancel' ? wanted : '/';
}
