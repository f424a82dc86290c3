/**
 * Workspaces' policy, in one place: the header that carries a workspace key, the limits of public mode, and the
 * timer that removes idle workspaces. Who may make one, and how often, is workspace-admission.ts.
 *
 * A workspace is one sandbox world (clients, users, codes, tokens, clock, request log); the store keeps them
 * (`store/workspaces.ts`), the accounts host's control API creates them and finds a call's workspace by its key
 * (`accounts/workspace-access.ts`).
 */
import type { SandboxStore } from './store';

/** The header that carries a workspace key on `/sandbox/...` calls (lower case, as Node names headers). */
export { WORKSPACE_KEY_HEADER } from '../http/secrets';

/** What one workspace may hold. The log's size holds in every mode; the rest in public mode. */
export const WORKSPACE_LIMITS = {
	/** Newest request log entries kept per workspace. */
	logEntries: 500,
	clients: 20,
	users: 200,
	/** Workspaces at once (the default one included), so a crowd of addresses cannot fill the disk (workspace-admission.ts). */
	workspaces: 1000
} as const;

export interface WorkspacePolicy {
	/**
	 * Public mode: one sandbox for many integrators. Anyone may create a workspace (rate-limited per visitor), the
	 * default workspace is read-only through the control API and its log is not shown, and the limits above hold.
	 */
	public: boolean;
	/** A normal workspace no request has used for this long is removed with everything in it. */
	idleHours: number;
	/** Public mode: workspaces one visitor (an IPv4 address, an IPv6 /64) may create per hour, through any door. */
	creationsPerAddressPerHour: number;
}

export const DEFAULT_WORKSPACE_POLICY: WorkspacePolicy = { public: false, idleHours: 24, creationsPerAddressPerHour: 20 };

const HOUR_MS = 3600_000;

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
