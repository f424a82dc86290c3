/**
 * The explorer's server-side sessions: what each person's walk holds, including the client secret, kept in this
 * process and found by an opaque random id in an HttpOnly cookie (cookie.ts). In memory, with a sliding
 * time-to-live and a size cap. A session is made only for a request that needs one (a write), and anonymous traffic
 * cannot push out a person's session: at the cap, a new session replaces only one whose cookie never came back
 * (nobody is using it), and when every session is in use, no new one is made (SessionsFull). Nor can one visitor
 * (an address, http/visitor.ts) hold the store: past MAX_SESSIONS_PER_VISITOR of its sessions in use, it gets no
 * new one (VisitorSessionsFull) until some expire; past as many whose cookie never came back, each new one replaces
 * its own oldest, never another person's.
 */
import { randomBytes } from 'node:crypto';
import { durationWords } from '$lib/protocol/limits';
import { config } from './config';
import { SESSION_COOKIE, sessionCookieOptions, type CookieJar } from './cookie';

export interface SessionStoreOptions {
	/** A session not used for this long is forgotten. */
	ttlMs: number;
	/** At most this many sessions are kept. */
	maxSessions?: number;
	/** At most this many sessions in use per visitor. */
	maxPerVisitor?: number;
	now?: () => number;
}

interface Entry {
	lastUsedAt: number;
	/** Who made it (http/visitor.ts): its sessions in use are counted against MAX_SESSIONS_PER_VISITOR; null: uncounted. */
	visitor: string | null;
	/** Whether a later request brought the session's cookie back: a browser is using it. */
	inUse: boolean;
	value?: unknown;
	/** The data being created by the first `data()` call, shared by any call made meanwhile. */
	pending?: Promise<unknown>;
}

const DEFAULT_MAX_SESSIONS = 10_000;
/**
 * Sessions in use one visitor may hold: far more than the browsers of a team behind one address, far fewer than the
 * store holds, so one visitor that keeps its cookies cannot fill it for everyone.
 */
export const MAX_SESSIONS_PER_VISITOR = 200;

/** Every session is in use and the cap is reached: a new one would have to push out someone's walk. */
export class SessionsFull extends Error {
	constructor(readonly maxSessions: number) {
		super(`The explorer holds its maximum of ${maxSessions} sessions in use; try again once some have expired.`);
	}
}

/** One visitor holds MAX_SESSIONS_PER_VISITOR sessions in use: a new one waits until some expire. */
export class VisitorSessionsFull extends Error {
	/** `retryAfterMs`: until the visitor's least recently used session expires and frees a place. */
	constructor(
		readonly maxPerVisitor: number,
		readonly retryAfterMs: number
	) {
		super(
			`Your address already holds ${maxPerVisitor} explorer sessions in use, the most one address may. Use a browser that keeps the explorer's cookie, or try again in ${durationWords(Math.max(1, Math.ceil(retryAfterMs / 60_000)) * 60)}, when the least recently used of them expires.`
		);
	}
}

/** 32 random bytes, base64url: 256 bits, not guessable, safe in a cookie. */
export function newSessionId(): string {
	return randomBytes(32).toString('base64url');
}

export function createSessionStore(options: SessionStoreOptions) {
	const { ttlMs, maxSessions = DEFAULT_MAX_SESSIONS, maxPerVisitor = MAX_SESSIONS_PER_VISITOR, now = Date.now } = options;
	// Map order is least recently used first: `touch` moves an entry to the end.
	const entries = new Map<string, Entry>();
	/** Each visitor's sessions in use; a visitor with none has no key. */
	const inUse = new Map<string, number>();
	/**
	 * Each visitor's sessions not in use (no cookie back yet), oldest first; a visitor with none has no key. One
	 * visitor's new session replaces its own oldest past its share, so a cookieless flood from one address recycles
	 * its own sessions instead of pushing out another person's new one (made, its cookie not yet back: a walk's
	 * start, before the sign-in's redirect returns).
	 */
	const notInUse = new Map<string, Set<string>>();

	function leaveNotInUse(id: string, entry: Entry): void {
		if (entry.visitor === null) return;
		const own = notInUse.get(entry.visitor);
		if (own?.delete(id) && own.size === 0) notInUse.delete(entry.visitor);
	}

	function forget(id: string, entry: Entry): void {
		entries.delete(id);
		if (!entry.inUse) return leaveNotInUse(id, entry);
		if (entry.visitor === null) return;
		const left = (inUse.get(entry.visitor) ?? 1) - 1;
		if (left > 0) inUse.set(entry.visitor, left);
		else inUse.delete(entry.visitor);
	}

	/**
	 * A session whose cookie came back is in use, and no flood pushes it out; but not past its visitor's share, or
	 * one address could make sessions without cookies and bring them all back at once. Past it, the session still
	 * works but stays one that a new session may replace.
	 */
	function markInUse(id: string, entry: Entry): void {
		if (entry.inUse) return;
		if (entry.visitor === null) return void (entry.inUse = true);
		const held = inUse.get(entry.visitor) ?? 0;
		if (held >= maxPerVisitor) return;
		leaveNotInUse(id, entry);
		entry.inUse = true;
		inUse.set(entry.visitor, held + 1);
	}

	function evictExpired() {
		const cutoff = now() - ttlMs;
		for (const [id, entry] of entries) {
			if (entry.lastUsedAt > cutoff) break;
			forget(id, entry);
		}
	}

	function touch(id: string): Entry | undefined {
		evictExpired();
		const entry = entries.get(id);
		if (!entry) return undefined;
		entries.delete(id);
		entry.lastUsedAt = now();
		entries.set(id, entry);
		return entry;
	}

	/** Makes room for one more session by forgetting the least recently used one nobody came back to. */
	function makeRoom(): void {
		if (entries.size < maxSessions) return;
		for (const [id, entry] of entries) {
			if (!entry.inUse) {
				forget(id, entry);
				return;
			}
		}
		throw new SessionsFull(maxSessions);
	}

	/** How long until the visitor's least recently used session in use expires: a walk of the store, only on refusal. */
	function untilOneExpires(visitor: string): number {
		for (const entry of entries.values()) if (entry.inUse && entry.visitor === visitor) return Math.max(0, entry.lastUsedAt + ttlMs - now());
		return 0;
	}

	function create(visitor: string | null): string {
		evictExpired();
		if (visitor !== null && (inUse.get(visitor) ?? 0) >= maxPerVisitor) throw new VisitorSessionsFull(maxPerVisitor, untilOneExpires(visitor));
		const own = visitor === null ? undefined : notInUse.get(visitor);
		if (own && own.size >= maxPerVisitor) {
			const oldest = own.values().next().value!;
			forget(oldest, entries.get(oldest)!);
		}
		makeRoom();
		const id = newSessionId();
		entries.set(id, { lastUsedAt: now(), visitor, inUse: false });
		if (visitor !== null) {
			if (own && own.size > 0) own.add(id);
			else notInUse.set(visitor, new Set([id]));
		}
		return id;
	}

	/** The cookie's session, if it names a live one (never adopting an unknown id); it is now in use. */
	function find(cookies: CookieJar): string | undefined {
		const fromCookie = cookies.get(SESSION_COOKIE);
		const entry = fromCookie === undefined ? undefined : touch(fromCookie);
		if (!entry) return undefined;
		markInUse(fromCookie!, entry);
		return fromCookie;
	}

	return {
		create,
		find,

		/** The session's data, if it has any yet. */
		get<T>(id: string): T | undefined {
			return touch(id)?.value as T | undefined;
		},

		/**
		 * The session's data, created by `init` on first use. An id that expired since `ensure` gave it out gets a
		 * fresh session under the same id.
		 */
		async data<T>(id: string, init: () => T | Promise<T>): Promise<T> {
			let entry = touch(id);
			if (!entry) {
				makeRoom();
				// Its maker is no longer known (the session expired since `ensure` gave the id out).
				entry = { lastUsedAt: now(), visitor: 'unknown', inUse: false };
				entries.set(id, entry);
			}
			if ('value' in entry) return entry.value as T;
			const current = entry;
			current.pending ??= Promise.resolve()
				.then(init)
				.then(
					(value) => {
						current.value = value;
						return value;
					},
					(error: unknown) => {
						current.pending = undefined;
						throw error;
					}
				);
			return current.pending as Promise<T>;
		},

		/** Who made the session (null: this machine); undefined for a session not known. It is not touched. */
		visitorOf(id: string): string | null | undefined {
			return entries.get(id)?.visitor;
		},

		destroy(id: string): void {
			const entry = entries.get(id);
			if (entry) forget(id, entry);
		},

		/**
		 * The id of the request's session: the cookie's, when it names a live session; otherwise a new session,
		 * and the cookie set to it, counted as `visitor`'s (null: this machine's, uncounted; client-address.ts). An
		 * unknown id from a cookie is never adopted. Throws SessionsFull and VisitorSessionsFull.
		 */
		ensure(cookies: CookieJar, visitor: string | null, publicOrigin: string = config().publicOrigin): string {
			const found = find(cookies);
			if (found !== undefined) return found;
			const id = create(visitor);
			cookies.set(SESSION_COOKIE, id, sessionCookieOptions(publicOrigin));
			return id;
		},

		get size(): number {
			evictExpired();
			return entries.size;
		}
	};
}

export type SessionStore = ReturnType<typeof createSessionStore>;
