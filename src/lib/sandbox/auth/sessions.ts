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
	const sessions = new Map<string, AuthSession<Flow>>();

	function touch(session: AuthSession<Flow>): AuthSession<Flow> {
		session.expiresAt = now() + options.idleTtlMs;
		// Re-inserting keeps the Map in least-recently-used order, so eviction drops the stalest.
		sessions.delete(session.id);
		sessions.set(session.id, session);
		return session;
	}

	function evictBeyondLimit(): void {
		for (const id of sessions.keys()) {
			if (sessions.size <= options.maxSessions) break;
			sessions.delete(id);
		}
	}

	function sweepExpired(): void {
		const t = now();
		for (const [id, session] of sessions) if (session.expiresAt <= t) sessions.delete(id);
	}

	return {
		get(id) {
			if (id === undefined) return undefined;
			const session = sessions.get(id);
			if (!session) return undefined;
			if (session.expiresAt <= now()) {
				sessions.delete(id);
				return undefined;
			}
			return touch(session);
		},
		create() {
			sweepExpired();
			const session = touch({ id: randomCredential(), csrfToken: randomCredential(), userId: null, flows: new Map(), expiresAt: 0 });
			evictBeyondLimit();
			return session;
		},
		rotate(session) {
			sessions.delete(session.id);
			return touch({ ...session, id: randomCredential(), csrfToken: randomCredential() });
		},
		addFlow(session, flowId, flow) {
			session.flows.set(flowId, flow);
			for (const id of session.flows.keys()) {
				if (session.flows.size <= options.maxFlowsPerSession) break;
				session.flows.delete(id);
			}
		},
		size: () => sessions.size
	};
}
