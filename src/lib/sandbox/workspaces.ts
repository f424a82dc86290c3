/**
 * Workspaces' policy, in one place: the header that carries a workspace key, the limits of public mode, the
 * per-address rate limit on creating workspaces, and the timer that removes idle workspaces.
 *
 * A workspace is one sandbox world (clients, users, codes, tokens, clock, request log); the store keeps them
 * (`store/workspaces.ts`), the accounts host's control API creates them and finds a call's workspace by its key
 * (`accounts/workspace-access.ts`).
 */
import { setRecent } from '$lib/recent';
import type { SandboxStore } from './store';

/** The header that carries a workspace key on `/sandbox/...` calls (lower case, as Node names headers). */
export { WORKSPACE_KEY_HEADER } from '../http/secrets';

/** What one workspace may hold. The log's size holds in every mode; the rest in public mode. */
export const WORKSPACE_LIMITS = {
	/** Newest request log entries kept per workspace. */
	logEntries: 500,
	clients: 20,
	users: 200,
	/** Workspaces at once (the default one included), so a crowd of addresses cannot fill the disk. */
	workspaces: 1000
} as const;

export interface WorkspacePolicy {
	/**
	 * Public mode: one sandbox for many integrators. Anyone may create a workspace (rate-limited per address), the
	 * default workspace is read-only through the control API and its log is not shown, and the limits above hold.
	 */
	public: boolean;
	/** A normal workspace no request has used for this long is removed with everything in it. */
	idleHours: number;
	/** Public mode: workspaces one remote address may create per hour. */
	creationsPerAddressPerHour: number;
}

export const DEFAULT_WORKSPACE_POLICY: WorkspacePolicy = { public: false, idleHours: 24, creationsPerAddressPerHour: 20 };

const HOUR_MS = 3600_000;
/** Addresses remembered by the rate limit; the least recently seen is forgotten first. */
const RATE_LIMITED_ADDRESSES = 10_000;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** At most `perHour` creations per address in any hour (a sliding window); `now` is injectable for tests. */
export function creationRateLimit(perHour: number, now: () => number = Date.now) {
	const recent = new Map<string, number[]>();
	return {
		take(address: string): RateDecision {
			const at = now();
			const times = (recent.get(address) ?? []).filter((t) => t > at - HOUR_MS);
			if (times.length >= perHour) {
				recent.set(address, times);
				return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((times[0]! + HOUR_MS - at) / 1000)) };
			}
			times.push(at);
			setRecent(recent, address, times, RATE_LIMITED_ADDRESSES);
			return { ok: true };
		}
	};
}

/**
 * Removes idle workspaces now and then: every tenth of the idle time, at most every ten minutes. Unreferenced, so
 * the timer never keeps the process alive.
 */
export function startWorkspaceExpiry(store: SandboxStore, idleHours: number, now: () => number = Date.now): { stop(): void } {
	const idleMs = idleHours * HOUR_MS;
	const sweep = () => store.expireIdle(now() - idleMs);
	const timer = setInterval(sweep, Math.min(idleMs / 10, 10 * 60_000)).unref();
	return { stop: () => clearInterval(timer) };
}
