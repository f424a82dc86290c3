/**
 * Server-side sessions of the authorisation host, in memory. The browser holds only an opaque random id in a
 * cookie; who is signed in, the CSRF token and the sign-in requests in progress stay here. Sessions expire after a
 * period of inactivity (real time, not the sandbox clock: advancing the sandbox clock must not sign anyone out).
 */
import { randomCredential } from '../store';

export interface AuthSession<Flow> {
	id: string;
	csrfToken: string;
	userId: number | null;
	/** Sign-in requests in progress, by flow id; a browser may run several in different tabs. */
	flows: Map<string, Flow>;
	expiresAt: number;
}

export interface SessionOptions {
	idleTtlMs: number;
	/** Oldest sessions are dropped beyond this, so memory stays bounded whatever a client sends. */
	maxSessions: number;
	maxFlowsPerSession: number;
	now?: () => number;
}

export interface SessionStore<Flow> {
	/** The live session with this id, its expiry pushed back; undefined if unknown or expired. */
	get(id: string | undefined): AuthSession<Flow> | undefined;
	create(): AuthSession<Flow>;
	/** Moves a session to a new id and CSRF token (on sign-in, against session fixation). */
	rotate(session: AuthSession<Flow>): AuthSession<Flow>;
	addFlow(session: AuthSession<Flow>, flowId: string, flow: Flow): void;
	size(): number;
}

export function createSessionStore<Flow>(options: SessionOptions): SessionStore<Flow> {
	const now = options.now ?? Date.now;
	/**
	 * Sessions whose cookie never came back, and those whose cookie did: every cookie-less GET of a link makes one,
	 * so a flood of them must only ever push out others like them, never a person's sign-in in progress. Each map is
	 * in least-recently-used order, and every session's idle time is the same, so the expired are at the front.
	 */
	const fresh = new Map<string, AuthSession<Flow>>();
	const returned = new Map<string, AuthSession<Flow>>();

	function touch(session: AuthSession<Flow>, into: Map<string, AuthSession<Flow>>): AuthSession<Flow> {
		session.expiresAt = now() + options.idleTtlMs;
		fresh.delete(session.id);
		returned.delete(session.id);
		into.set(session.id, session);
		return session;
	}

	/** Drops the expired at the front of each map: each create costs what expired since the last, not a full sweep. */
	function sweepExpired(): void {
		const t = now();
		for (const map of [fresh, returned]) {
			for (const [id, session] of map) {
				if (session.expiresAt > t) break;
				map.delete(id);
			}
		}
	}

	/** Never the session just made (`keep`): with every other place held by returned ones, the oldest of those goes. */
	function evictBeyondLimit(keep: string): void {
		while (fresh.size + returned.size > options.maxSessions) {
			const oldestFresh = fresh.keys().next().value;
			if (oldestFresh !== undefined && oldestFresh !== keep) fresh.delete(oldestFresh);
			else returned.delete(returned.keys().next().value!);
		}
	}

	return {
		get(id) {
			if (id === undefined) return undefined;
			const session = returned.get(id) ?? fresh.get(id);
			if (!session) return undefined;
			if (session.expiresAt <= now()) {
				fresh.delete(id);
				returned.delete(id);
				return undefined;
			}
			return touch(session, returned);
		},
		create() {
			sweepExpired();
			const session = touch({ id: randomCredential(), csrfToken: randomCredential(), userId: null, flows: new Map(), expiresAt: 0 }, fresh);
			evictBeyondLimit(session.id);
			return session;
		},
		rotate(session) {
			fresh.delete(session.id);
			returned.delete(session.id);
			return touch({ ...session, id: randomCredential(), csrfToken: randomCredential() }, returned);
		},
		addFlow(session, flowId, flow) {
			session.flows.set(flowId, flow);
			for (const id of session.flows.keys()) {
				if (session.flows.size <= options.maxFlowsPerSession) break;
				session.flows.delete(id);
			}
		},
		size: () => fresh.size + returned.size
	};
}
