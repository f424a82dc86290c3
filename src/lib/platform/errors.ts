/**
 * The explorer's one error model. A feature throws an `ExplorerError` for a request it must refuse (or returns a
 * result, for an outcome that is not an error); `errorResponse` maps it, once, to the one body shape of every
 * explorer API error, `{error, message}`: `error` a stable code a script may test, `message` what was wrong and
 * what to do. API routes run inside `apiRoute`, pages' loads inside `pageLoad`, and the hooks answer with
 * `errorResponse` directly. The interface's own endpoints (the sandbox's hosts) keep the interface's shapes.
 */
import { error, isHttpError, json, type RequestEvent } from '@sveltejs/kit';

export type ErrorCode =
	| 'bad-request'
	| 'forbidden'
	| 'not-found'
	| 'sandbox-off'
	| 'conflict'
	| 'too-large'
	| 'too-many-requests'
	| 'quota-exceeded'
	| 'unavailable';

export class ExplorerError extends Error {
	override readonly name = 'ExplorerError';
	constructor(
		readonly status: number,
		readonly code: ErrorCode,
		message: string
	) {
		super(message);
	}
}

export const badRequest = (message: string) => new ExplorerError(400, 'bad-request', message);
export const forbidden = (message: string) => new ExplorerError(403, 'forbidden', message);
export const notFound = (message: string) => new ExplorerError(404, 'not-found', message);
/** The built-in sandbox is turned off (SANDBOX=off): one status and code wherever a feature needs it. */
export const sandboxOff = (what: string) => new ExplorerError(404, 'sandbox-off', `The built-in sandbox is turned off on this server (SANDBOX=off): ${what}`);
export const conflict = (message: string) => new ExplorerError(409, 'conflict', message);
export const tooLarge = (message: string) => new ExplorerError(413, 'too-large', message);
export const tooManyRequests = (message: string) => new ExplorerError(429, 'too-many-requests', message);
/**
 * A save past what a person, or the whole server, keeps (features/runs/run-limits.ts). A 409, not a 429: no waiting
 * lifts it, so a client must not retry; deleting runs resolves the conflict (RFC 9110 15.5.10) and the save may be
 * sent again.
 */
export const quotaExceeded = (message: string) => new ExplorerError(409, 'quota-exceeded', message);
export const unavailable = (message: string) => new ExplorerError(503, 'unavailable', message);

/** The code of a status a feature gave without one (a result's `status`, SvelteKit's `error()`). */
const CODES: Record<number, ErrorCode> = { 400: 'bad-request', 403: 'forbidden', 404: 'not-found', 409: 'conflict', 413: 'too-large', 429: 'too-many-requests', 503: 'unavailable' };
export function errorFor(status: number, message: string): ExplorerError {
	return new ExplorerError(status, CODES[status] ?? (status < 500 ? 'bad-request' : 'unavailable'), message);
}

export function errorBody(problem: ExplorerError): { error: ErrorCode; message: string } {
	return { error: problem.code, message: problem.message };
}

/** The one mapper from an error to a response. */
export function errorResponse(problem: ExplorerError, headers?: Record<string, string>): Response {
	return json(errorBody(problem), { status: problem.status, headers });
}

/** The refusal a thrown value stands for: ours, or SvelteKit's `error()` (a 4xx from a shared helper); else none. */
function refusalOf(thrown: unknown): ExplorerError | null {
	if (thrown instanceof ExplorerError) return thrown;
	if (isHttpError(thrown) && thrown.status < 500) return errorFor(thrown.status, thrown.body.message);
	return null;
}

/** An API route's handler, whose refusals are answered with the one body shape; anything else is a fault (5xx). */
export function apiRoute<E extends RequestEvent>(handler: (event: E) => Response | Promise<Response>): (event: E) => Promise<Response> {
	return async (event) => {
		try {
			return await handler(event);
		} catch (thrown) {
			const refusal = refusalOf(thrown);
			if (refusal) return errorResponse(refusal);
			throw thrown;
		}
	};
}

/** A page's load or action, whose refusals show SvelteKit's error page with the same status, code and message. */
export function pageLoad<E extends RequestEvent, T>(load: (event: E) => T | Promise<T>): (event: E) => Promise<T> {
	return async (event) => {
		try {
			return await load(event);
		} catch (thrown) {
			if (thrown instanceof ExplorerError) error(thrown.status, errorBody(thrown));
			throw thrown;
		}
	};
}
