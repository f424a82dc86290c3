/**
 * Making a workspace, one operation for every door (the control API's `POST /sandbox/workspaces`, the explorer's
 * one-click workspace): who asks decides which limits hold, and a full sandbox still makes room for newcomers.
 *
 * - A visitor (public mode's anonymous caller) is a network (visitor.ts), with ONE allowance whichever door it uses:
 *   `creationsPerAddressPerHour` in any sliding hour; past it, that visitor alone is answered 429.
 * - The operator (the administrator, and the explorer's own internal work such as scenario runs) spends no
 *   visitor's allowance, and its workspaces are never removed to make room.
 * - The sandbox holds at most `WORKSPACE_LIMITS.workspaces`, of which visitors may fill all but `OPERATOR_ROOM`.
 *   When their share is full, the visitors' workspace idle longest is removed to make room, but only once no request
 *   has used it for `EVICTABLE_AFTER_IDLE_MS`: a workspace someone is using now is never removed. If every one was
 *   used that recently, the answer is 503 with when to retry.
 *
 * The explorer's internal work reaches the control API over HTTP like anyone (from this machine's address, which
 * visitors behind a proxy share), so it proves itself with `internalCredential`, a random value of this process sent
 * in the X-Sandbox-Internal-Work header and masked wherever an exchange is shown.
 */
import { setRecent } from '$lib/recent';
import { createWorkspace } from './fixtures';
import { constantTimeEqual, randomCredential, type CreatedWorkspace, type SandboxStore, type WorkspaceFixtures } from './store';
import { visitorOf } from '../http/visitor';
import { WORKSPACE_LIMITS, type WorkspacePolicy } from './workspaces';

/** Who asks for a workspace: a visitor from an address, or the operator (administrator or internal work). */
export type Creator = { kind: 'visitor'; address: string | undefined } | { kind: 'operator' };

export type Admission = ({ ok: true } & CreatedWorkspace) | { ok: false; status: 429 | 503; message: string; retryAfterSeconds: number };

/** Workspaces kept for the operator's own work (scenario runs each hold one for seconds) when visitors fill the rest. */
export const OPERATOR_ROOM = 50;
/** A visitor's workspace unused this long may be removed to make room (sooner than idle expiry, never while in use). */
export const EVICTABLE_AFTER_IDLE_MS = 30 * 60_000;

const HOUR_MS = 3600_000;
/** Visitors remembered by the allowance; the least recently seen is forgotten first. */
const REMEMBERED_VISITORS = 10_000;

/** At most `perHour` creations per visitor in any hour (a sliding window), checked before and spent after making one. */
function hourlyAllowance(perHour: number, now: () => number) {
	const recent = new Map<string, number[]>();
	const within = (visitor: string) => (recent.get(visitor) ?? []).filter((t) => t > now() - HOUR_MS);
	return {
		/** Seconds until the visitor may create again; 0 when it may now. */
		wait(visitor: string): number {
			const times = within(visitor);
			return times.length < perHour ? 0 : Math.max(1, Math.ceil((times[0]! + HOUR_MS - now()) / 1000));
		},
		spend(visitor: string): void {
			setRecent(recent, visitor, [...within(visitor), now()], REMEMBERED_VISITORS);
		}
	};
}

export type WorkspaceAdmission = ReturnType<typeof workspaceAdmission>;

export function workspaceAdmission(store: SandboxStore, policy: WorkspacePolicy, explorerOrigin: string, now: () => number = Date.now) {
	const allowance = hourlyAllowance(policy.creationsPerAddressPerHour, now);
	const internalCredential = randomCredential();
	// With a shorter idle expiry, a workspace idle that long is gone anyway.
	const evictableAfterMs = Math.min(EVICTABLE_AFTER_IDLE_MS, policy.idleHours * HOUR_MS);

	/** Removes visitors' workspaces idle longest until fewer than `limit` remain; else the seconds until one may go. */
	function makeRoom(limit: number): number {
		while (store.workspaceCount() >= limit) {
			const idlest = store
				.listWorkspaces()
				.filter((w) => w.anonymous)
				.reduce<{ id: string; lastUsedMs: number } | null>((a, w) => (a === null || w.lastUsedMs < a.lastUsedMs ? w : a), null);
			const idleFor = idlest ? now() - idlest.lastUsedMs : 0;
			if (!idlest || idleFor < evictableAfterMs) return Math.max(1, Math.ceil((evictableAfterMs - idleFor) / 1000));
			store.deleteWorkspace(idlest.id);
		}
		return 0;
	}

	function full(retryAfterSeconds: number): Admission {
		const minutes = Math.round(evictableAfterMs / 60_000);
		return {
			ok: false,
			status: 503,
			retryAfterSeconds,
			message: `The sandbox holds as many workspaces as it can, and every one was used in the last ${minutes} minutes. Try again in ${retryAfterSeconds} s, when the one idle longest can make room, or keep using a workspace you have.`
		};
	}

	return {
		internalCredential,
		/** Whether a request's X-Sandbox-Internal-Work header proves it is this process's own internal work. */
		isInternal: (given: string | string[] | undefined) => typeof given === 'string' && constantTimeEqual(internalCredential, given),
		/** A new workspace for `creator`, or why not (429: this visitor's allowance is spent; 503: every workspace is in use). */
		create(creator: Creator, options: { fixtures: WorkspaceFixtures; name?: string }): Admission {
			if (creator.kind === 'operator') {
				const wait = makeRoom(WORKSPACE_LIMITS.workspaces);
				return wait > 0 ? full(wait) : { ok: true, ...createWorkspace(store, options, explorerOrigin) };
			}
			const visitor = visitorOf(creator.address);
			const retryAfterSeconds = allowance.wait(visitor);
			if (retryAfterSeconds > 0) {
				return {
					ok: false,
					status: 429,
					retryAfterSeconds,
					message: `Your network (${visitor}) has created ${policy.creationsPerAddressPerHour} workspaces in the last hour, the most public mode allows. Try again in ${retryAfterSeconds} s, or keep using a workspace you have.`
				};
			}
			const wait = makeRoom(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
			if (wait > 0) return full(wait);
			allowance.spend(visitor);
			return { ok: true, ...createWorkspace(store, { ...options, anonymous: true }, explorerOrigin) };
		}
	};
}
