import { describe, expect, it } from 'vitest';
import { SessionsFull, VisitorSessionsFull, createSessionStore, newSessionId } from './session';
import { SESSION_COOKIE, sessionCookieOptions, type CookieJar, type SessionCookieOptions } from './cookie';

function clock(start = 1_000_000) {
	let t = start;
	return { now: () => t, advance: (ms: number) => (t += ms) };
}

function jar(initial: Record<string, string> = {}) {
	const values = new Map(Object.entries(initial));
	const set: [string, string, SessionCookieOptions][] = [];
	const cookies: CookieJar = {
		get: (name) => values.get(name),
		set: (name, value, options) => {
			values.set(name, value);
			set.push([name, value, options]);
		}
	};
	return { cookies, set };
}

describe('session ids', () => {
	it('are 32 random bytes in base64url, never repeated', () => {
		const ids = new Set(Array.from({ length: 1000 }, newSessionId));
		expect(ids.size).toBe(1000);
		for (const id of ids) {
			expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(Buffer.from(id, 'base64url')).toHaveLength(32);
		}
	});
});

describe('createSessionStore', () => {
	it('creates a session’s data once, on first use, even for concurrent callers', async () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const id = store.create('192.0.2.1');
		let made = 0;
		const init = async () => ({ n: ++made });
		const [a, b] = await Promise.all([store.data(id, init), store.data(id, init)]);
		expect(a).toBe(b);
		expect(made).toBe(1);
		expect(store.get(id)).toBe(a);
	});

	it('a failed init is retried by the next call', async () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const id = store.create('192.0.2.1');
		await expect(store.data(id, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
		expect(await store.data(id, () => 'ok')).toBe('ok');
	});

	it('forgets a session unused for the TTL; each use extends it', async () => {
		const time = clock();
		const store = createSessionStore({ ttlMs: 1000, now: time.now });
		const kept = store.create('192.0.2.1');
		await store.data(kept, () => 'kept');
		const dropped = store.create('192.0.2.1');
		await store.data(dropped, () => 'dropped');
		time.advance(800);
		expect(store.get(kept)).toBe('kept');
		time.advance(800);
		expect(store.get(dropped)).toBeUndefined();
		expect(store.get(kept)).toBe('kept');
		expect(store.size).toBe(1);
	});

	it('keeps at most maxSessions, dropping the least recently used', async () => {
		const store = createSessionStore({ ttlMs: 60_000, maxSessions: 2 });
		const first = store.create('192.0.2.1');
		const second = store.create('192.0.2.1');
		await store.data(first, () => 'first'); // first is now the most recently used
		store.create('192.0.2.1');
		expect(store.size).toBe(2);
		expect(store.get(first)).toBe('first');
		expect(await store.data(second, () => 'fresh')).toBe('fresh');
	});

	it('destroy forgets the session and its data', async () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const id = store.create('192.0.2.1');
		await store.data(id, () => ({ clientSecret: 'x' }));
		store.destroy(id);
		expect(store.get(id)).toBeUndefined();
	});
});

describe('ensure', () => {
	it('without a cookie: creates a session and sets the cookie HttpOnly, SameSite=Lax, Path=/', () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const { cookies, set } = jar();
		const id = store.ensure(cookies, '192.0.2.1', 'http://localhost:3000');
		expect(set).toEqual([[SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure: false }]]);
		expect(store.size).toBe(1);
	});

	it('with a live session’s cookie: returns it and sets nothing', () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const id = store.create('192.0.2.1');
		const { cookies, set } = jar({ [SESSION_COOKIE]: id });
		expect(store.ensure(cookies, '192.0.2.1', 'http://localhost:3000')).toBe(id);
		expect(set).toEqual([]);
	});

	it('never adopts an id it did not issue (or that expired): a new one replaces it', () => {
		const store = createSessionStore({ ttlMs: 1000 });
		const { cookies, set } = jar({ [SESSION_COOKIE]: 'attacker-chosen' });
		const id = store.ensure(cookies, '192.0.2.1', 'http://localhost:3000');
		expect(id).not.toBe('attacker-chosen');
		expect(set[0]![1]).toBe(id);
	});
});

describe('at the cap (issue 16: a flood must not push out a person’s session)', () => {
	/** A session a browser is using: created, then its cookie brought back by a later request. */
	function sessionInUse(store: ReturnType<typeof createSessionStore>, visitor: string | null = '192.0.2.1'): string {
		const id = store.ensure(jar().cookies, visitor, 'http://localhost:3000');
		expect(store.find(jar({ [SESSION_COOKIE]: id }).cookies)).toBe(id);
		return id;
	}

	it('new sessions replace only ones nobody came back to: a session in use survives a flood', async () => {
		const store = createSessionStore({ ttlMs: 60_000, maxSessions: 10 });
		const person = sessionInUse(store);
		await store.data(person, () => ({ clientSecret: 'kept' }));
		for (let i = 0; i < 1000; i++) store.ensure(jar().cookies, '198.51.100.9', 'http://localhost:3000');
		expect(store.size).toBe(10);
		expect(store.get(person)).toEqual({ clientSecret: 'kept' });
	});

	it('when every session is in use, refuses a new one (SessionsFull) and keeps them all', () => {
		const store = createSessionStore({ ttlMs: 60_000, maxSessions: 3 });
		const people = [sessionInUse(store), sessionInUse(store), sessionInUse(store)];
		expect(() => store.ensure(jar().cookies, '198.51.100.9', 'http://localhost:3000')).toThrow(SessionsFull);
		for (const id of people) expect(store.find(jar({ [SESSION_COOKIE]: id }).cookies)).toBe(id);
	});

	it('a session in use that went idle for the TTL makes room again', () => {
		const time = clock();
		const store = createSessionStore({ ttlMs: 1000, maxSessions: 1, now: time.now });
		sessionInUse(store);
		time.advance(1001);
		expect(() => store.create('192.0.2.1')).not.toThrow();
	});

	it('one visitor gets no more sessions in use than its share (VisitorSessionsFull); others still do, and expiry frees it', () => {
		const time = clock();
		const store = createSessionStore({ ttlMs: 1000, maxSessions: 10, maxPerVisitor: 2, now: time.now });
		const held = [sessionInUse(store, '203.0.113.5'), sessionInUse(store, '203.0.113.5')];
		time.advance(400);
		let refusal: unknown;
		try {
			store.ensure(jar().cookies, '203.0.113.5', 'http://localhost:3000');
		} catch (thrown) {
			refusal = thrown;
		}
		expect(refusal).toBeInstanceOf(VisitorSessionsFull);
		// Told how long until the least recently used of them expires (its TTL from its last use, 400 ms ago).
		expect((refusal as VisitorSessionsFull).retryAfterMs).toBe(600);
		expect((refusal as VisitorSessionsFull).message).toContain('try again in 1 minute, when the least recently used of them expires');
		expect(() => sessionInUse(store, '192.0.2.1')).not.toThrow();
		for (const id of held) expect(store.find(jar({ [SESSION_COOKIE]: id }).cookies)).toBe(id);
		// A session given up (destroyed) or unused for the TTL no longer counts.
		store.destroy(held[0]!);
		expect(() => sessionInUse(store, '203.0.113.5')).not.toThrow();
		time.advance(1001);
		expect(() => sessionInUse(store, '203.0.113.5')).not.toThrow();
		expect(() => sessionInUse(store, '203.0.113.5')).not.toThrow();
		// This machine's sessions (visitor null) are not counted.
		for (let i = 0; i < 3; i++) expect(() => sessionInUse(store, null)).not.toThrow();
		// Who made a session is known for as long as it lives (saved runs count against it).
		expect(store.visitorOf(sessionInUse(store, '192.0.2.77'))).toBe('192.0.2.77');
		expect(store.visitorOf(held[1]!)).toBeUndefined(); // expired with the TTL
		expect(store.visitorOf(sessionInUse(store, null))).toBeNull();
		expect(store.visitorOf('unknown-id')).toBeUndefined();
	});

	it('sessions made without cookies count no more than the visitor\'s share: its new ones replace its own oldest', () => {
		const store = createSessionStore({ ttlMs: 60_000, maxSessions: 6, maxPerVisitor: 2 });
		const made = Array.from({ length: 6 }, () => store.ensure(jar().cookies, '203.0.113.5', 'http://localhost:3000'));
		// Brought back all at once, only the newest two are still known; they are its share in use.
		expect(made.map((id) => store.find(jar({ [SESSION_COOKIE]: id }).cookies))).toEqual([undefined, undefined, undefined, undefined, made[4], made[5]]);
		// Another visitor still gets a session in use.
		const other = sessionInUse(store, '192.0.2.1');
		expect(store.find(jar({ [SESSION_COOKIE]: other }).cookies)).toBe(other);
		expect(store.size).toBe(3);
	});

	it("a cookieless flood from one address never pushes out another person's new session, before its cookie comes back", async () => {
		const store = createSessionStore({ ttlMs: 60_000, maxSessions: 50, maxPerVisitor: 10 });
		// A person starts a walk (their first write): a session whose cookie comes back only with the sign-in's redirect.
		const person = store.ensure(jar().cookies, '192.0.2.10', 'http://localhost:3000');
		await store.data(person, () => ({ walk: 'awaiting its callback' }));
		for (let i = 0; i < 1000; i++) store.ensure(jar().cookies, '203.0.113.68', 'http://localhost:3000');
		expect(store.size).toBe(11);
		expect(store.find(jar({ [SESSION_COOKIE]: person }).cookies)).toBe(person);
		expect(store.get(person)).toEqual({ walk: 'awaiting its callback' });
		// The flooder's newest session works.
		const newest = store.ensure(jar().cookies, '203.0.113.68', 'http://localhost:3000');
		expect(store.find(jar({ [SESSION_COOKIE]: newest }).cookies)).toBe(newest);
	});

	it('find never creates a session', () => {
		const store = createSessionStore({ ttlMs: 1000 });
		expect(store.find(jar().cookies)).toBeUndefined();
		expect(store.find(jar({ [SESSION_COOKIE]: 'unknown' }).cookies)).toBeUndefined();
		expect(store.size).toBe(0);
	});
});

describe('sessionCookieOptions', () => {
	it('is Secure exactly when the explorer is served over https', () => {
		expect(sessionCookieOptions('https://explorer.example.com').secure).toBe(true);
		expect(sessionCookieOptions('http://localhost:3000').secure).toBe(false);
	});
});
