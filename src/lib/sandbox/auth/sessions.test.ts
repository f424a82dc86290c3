import { describe, expect, it } from 'vitest';
import { createSessionStore } from './sessions';

function storeAt(clock: { t: number }, maxSessions = 10) {
	return createSessionStore<string>({ idleTtlMs: 1000, maxSessions, maxFlowsPerSession: 2, now: () => clock.t });
}

describe('session store', () => {
	it('finds a session by id until it has been idle for the TTL', () => {
		const clock = { t: 0 };
		const store = storeAt(clock);
		const session = store.create();
		clock.t = 900;
		expect(store.get(session.id)).toBe(session);
		clock.t = 1800; // 900 ms after the last use: still alive (sliding expiry)
		expect(store.get(session.id)).toBe(session);
		clock.t = 2800;
		expect(store.get(session.id)).toBeUndefined();
		expect(store.get(undefined)).toBeUndefined();
		expect(store.get('unknown')).toBeUndefined();
	});
	it('rotates to a new id and CSRF token, keeping the state, and forgets the old id', () => {
		const store = storeAt({ t: 0 });
		const session = store.create();
		session.userId = 7;
		store.addFlow(session, 'f', 'request');
		const rotated = store.rotate(session);
		expect(rotated.id).not.toBe(session.id);
		expect(rotated.csrfToken).not.toBe(session.csrfToken);
		expect(rotated.userId).toBe(7);
		expect(rotated.flows.get('f')).toBe('request');
		expect(store.get(session.id)).toBeUndefined();
		expect(store.get(rotated.id)).toBe(rotated);
	});
	it('drops the least recently used session beyond the limit', () => {
		const store = storeAt({ t: 0 }, 2);
		const a = store.create();
		const b = store.create();
		store.get(a.id);
		store.create();
		expect(store.size()).toBe(2);
		expect(store.get(b.id)).toBeUndefined();
		expect(store.get(a.id)).toBe(a);
	});
	it('never lets sessions whose cookie never came back (a flood of cookie-less GETs) push out one whose cookie did', () => {
		const clock = { t: 0 };
		const store = storeAt(clock, 10);
		const victim = store.create();
		expect(store.get(victim.id)).toBe(victim); // the browser followed the redirect with its cookie
		const older = store.create(); // a visitor who never came back
		for (let i = 0; i < 1000; i++) store.create();
		expect(store.size()).toBe(10);
		expect(store.get(victim.id)).toBe(victim);
		expect(store.get(older.id)).toBeUndefined();
		// They still expire when idle.
		clock.t = 5000;
		store.create();
		expect(store.get(victim.id)).toBeUndefined();
		expect(store.size()).toBe(1);
	});
	it('keeps a new session even when every other place is held by sessions whose cookie came back', () => {
		const store = storeAt({ t: 0 }, 3);
		const returned = [store.create(), store.create(), store.create()];
		for (const session of returned) store.get(session.id);
		const newcomer = store.create();
		expect(store.get(newcomer.id)).toBe(newcomer);
		expect(store.get(returned[0]!.id)).toBeUndefined();
		expect(store.size()).toBe(3);
	});
	it('keeps only the newest flows of a session', () => {
		const store = storeAt({ t: 0 });
		const session = store.create();
		store.addFlow(session, '1', 'a');
		store.addFlow(session, '2', 'b');
		store.addFlow(session, '3', 'c');
		expect([...session.flows.keys()]).toEqual(['2', '3']);
	});
});
