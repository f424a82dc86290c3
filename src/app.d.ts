// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		/** The one shape of an explorer error (platform/errors.ts): `error` a stable code, `message` what to do. */
		interface Error {
			message: string;
			error?: string;
		}
		interface Locals {
			/** Opaque id of the explorer's server-side session (the cookie's value), when the request has one. */
			sessionId: string | undefined;
			/** The session's id, making the session (and its cookie) if there is none: for routes that write. */
			session(): string;
		}
	}
}

export {};
