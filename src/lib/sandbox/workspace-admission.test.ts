import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type SandboxStore } from './store';
import { EVICTABLE_AFTER_IDLE_MS, OPERATOR_ROOM, workspaceAdmission, type Creator } from './workspace-admission';
import { WORKSPACE_LIMITS, type WorkspacePolicy } from './workspaces';

const ORIGIN = 'http://localhost:3000';
const PUBLIC: WorkspacePolicy = { public: true, idleHours: 24, creationsPerAddressPerHour: 2 };
const visitor = (address: string): Creator => ({ kind: 'visitor', address });
const OPERATOR: Creator = { kind: 'operator' };
const EMPTY = { fixtures: 'empty' } as const;

let store: SandboxStore;
let offsetMs: number;
const now = () => Date.now() + offsetMs;
beforeEach(() => {
	store = openStore(':memory:');
	offsetMs = 0;
});
afterEach(() => store.close());

/** Fills the store to `count` workspaces (the default one included), made by visitors. */
function fillWithVisitors(count: number): void {
	store.transaction(() => {
		while (store.workspaceCount() < count) store.createWorkspace({ fixtures: 'empty', anonymous: true });
	});
}

describe('one allowance per visitor', () => {
	it('the operator (internal work, the administrator) spends no visitor\'s allowance', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		for (let i = 0; i < 5; i++) expect(admission.create(OPERATOR, EMPTY).ok).toBe(true);
		expect(admission.create(visitor('127.0.0.1'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor('127.0.0.1'), EMPTY).ok).toBe(true);
		const third = admission.create(visitor('127.0.0.1'), EMPTY);
		expect(third).toMatchObject({ ok: false, status: 429 });
		expect(third.ok || third.message).toMatch(/Your network \(127\.0\.0\.1\) has created 2 workspaces in the last hour.*Try again in \d+ s/);
		// Someone else is not answered 429 for it.
		expect(admission.create(visitor('127.0.0.2'), EMPTY).ok).toBe(true);
	});

	it('the allowance is a sliding hour', () => {
		let at = 0;
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, () => at);
		expect(admission.create(visitor('192.0.2.1'), EMPTY).ok).toBe(true);
		at = 1000;
		expect(admission.create(visitor('192.0.2.1'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor('192.0.2.1'), EMPTY)).toMatchObject({ ok: false, retryAfterSeconds: 3599 });
		at = 3600_000;
		expect(admission.create(visitor('192.0.2.1'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor('192.0.2.1'), EMPTY)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
	});

	it('an IPv6 /64 is one visitor', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		expect(admission.create(visitor('2001:db8:0:1::1'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor('2001:db8:0:1::2'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor('2001:db8:0:1:aaaa::3'), EMPTY)).toMatchObject({ ok: false, status: 429 });
		expect(admission.create(visitor('2001:db8:0:2::1'), EMPTY).ok).toBe(true);
	});

	it('a visitor\'s workspaces are anonymous, the operator\'s are not', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		const mine = admission.create(visitor('192.0.2.1'), EMPTY);
		const operators = admission.create(OPERATOR, EMPTY);
		expect(mine.ok && mine.workspace.info().anonymous).toBe(true);
		expect(operators.ok && operators.workspace.info().anonymous).toBe(false);
	});
});

describe('a full sandbox keeps room for new visitors', () => {
	it('removes the visitors\' workspace idle longest, never the operator\'s or the default one', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		const operators = store.createWorkspace({ fixtures: 'empty' }).workspace.id;
		const oldest = store.createWorkspace({ fixtures: 'empty', anonymous: true }).workspace.id;
		fillWithVisitors(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
		offsetMs = EVICTABLE_AFTER_IDLE_MS + 1000;
		// Used just now: not the idlest any more.
		store.workspace(oldest)!.touch();
		const before = new Set(store.listWorkspaces().map((w) => w.id));

		const created = admission.create(visitor('198.51.100.1'), EMPTY);
		expect(created.ok).toBe(true);
		const after = new Set(store.listWorkspaces().map((w) => w.id));
		const removed = [...before].filter((id) => !after.has(id));
		expect(removed).toHaveLength(1);
		expect(removed).not.toContain(oldest);
		expect(removed).not.toContain(operators);
		expect(after.has('default')).toBe(true);
		expect(store.workspaceCount()).toBe(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
	});

	it('never removes a workspace used in the last half hour: 503 with when to retry, then room once one is idle', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		fillWithVisitors(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
		offsetMs = EVICTABLE_AFTER_IDLE_MS - 60_000;
		const refused = admission.create(visitor('198.51.100.1'), EMPTY);
		expect(refused).toMatchObject({ ok: false, status: 503 });
		if (refused.ok) return;
		expect(refused.retryAfterSeconds).toBeGreaterThan(50);
		expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
		expect(refused.message).toMatch(new RegExp(`Try again in ${refused.retryAfterSeconds} s`));
		expect(store.workspaceCount()).toBe(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
		// The refusal spent nothing: once one is idle long enough, the same visitor gets room.
		offsetMs = EVICTABLE_AFTER_IDLE_MS + 1000;
		expect(admission.create(visitor('198.51.100.1'), EMPTY).ok).toBe(true);
	});

	it('visitors filling their share leave room for the operator\'s internal work', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		fillWithVisitors(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
		expect(admission.create(visitor('198.51.100.1'), EMPTY)).toMatchObject({ ok: false, status: 503 });
		for (let i = 0; i < OPERATOR_ROOM; i++) expect(admission.create(OPERATOR, EMPTY).ok).toBe(true);
		expect(admission.create(OPERATOR, EMPTY)).toMatchObject({ ok: false, status: 503 });
	});

	it('a flood from many addresses is answered 429 address by address, and newcomers still get room', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		const flooders = Array.from({ length: 600 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
		for (const address of flooders) for (let i = 0; i < 3; i++) admission.create(visitor(address), EMPTY);
		expect(store.workspaceCount()).toBe(WORKSPACE_LIMITS.workspaces - OPERATOR_ROOM);
		expect(admission.create(visitor(flooders[0]!), EMPTY)).toMatchObject({ ok: false, status: 429 });
		// Half an hour later the flood's workspaces, unused, make room for a newcomer; the flooders are still refused.
		offsetMs = EVICTABLE_AFTER_IDLE_MS + 1000;
		expect(admission.create(visitor('203.0.113.9'), EMPTY).ok).toBe(true);
		expect(admission.create(visitor(flooders[1]!), EMPTY)).toMatchObject({ ok: false, status: 429 });
	});
});

describe('internal work', () => {
	it('is proven by this process\'s own credential, nothing else', () => {
		const admission = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		const other = workspaceAdmission(store, PUBLIC, ORIGIN, now);
		expect(admission.isInternal(admission.internalCredential)).toBe(true);
		expect(admission.isInternal(other.internalCredential)).toBe(false);
		expect(admission.isInternal(undefined)).toBe(false);
		expect(admission.isInternal('')).toBe(false);
		expect(admission.isInternal([admission.internalCredential])).toBe(false);
	});
});
