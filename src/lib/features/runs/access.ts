/**
 * Who may see what of a saved run. A run belongs to the session that made it (walked, imported, or ran a scenario):
 * its owner id is a digest of the session's id, so the database never holds an id that would open the session.
 * The /runs list shows a person their own runs only; a permalink is a capability to read one run, but a grant
 * code that can still be used stays hidden from anyone but the owner (live-codes.ts).
 */
import { createHash } from 'node:crypto';
import { hideLiveCodes } from '$lib/features/runs/pure/usable-codes';
import { linkParameter } from '$lib/flow/record';
import type { Run } from '$lib/features/runs/pure/run';
import { clientWorkspace } from '../../platform/client-workspace';
import { services } from '../../platform/services';

/** The owner id of a session's runs. */
export function runOwner(sessionId: string): string {
	return createHash('sha256').update(`run-owner:${sessionId}`).digest('base64url');
}

/**
 * Who a session's saves are by: the owner of its runs, and the visitor they count against (run-limits.ts), a digest
 * of the address that made the session, so the database holds no address. The visitor is null for this machine's
 * sessions, which no per-visitor limit counts; a session no longer known (pushed out while its request ran) counts
 * as the visitor `unknown`, never as no one.
 */
export async function runSaver(sessionId: string): Promise<{ owner: string; visitor: string | null }> {
	const visitor = (await services()).sessions.visitorOf(sessionId);
	return {
		owner: runOwner(sessionId),
		visitor: visitor === null ? null : createHash('sha256').update(`run-visitor:${visitor ?? 'unknown'}`).digest('base64url')
	};
}

/** The clock a run's codes expire on: for a run against the sandbox, that of the workspace its client is in (each moves its own), else real time. */
async function codeClock(run: Run): Promise<Date> {
	const workspace = run.target.kind === 'sandbox' ? await clientWorkspace(linkParameter(run, 'client_id')) : null;
	return workspace?.now() ?? new Date();
}

/** The run as `sessionId` may see it: whole for its owner, with its still-usable codes hidden for anyone else. */
export async function runAsSeenBy(run: Run, owner: string | null, sessionId: string | undefined): Promise<Run> {
	return owner !== null && sessionId !== undefined && owner === runOwner(sessionId) ? run : hideLiveCodes(run, await codeClock(run));
}
