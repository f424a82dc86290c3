// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Locals {
			/** Opaque id of the explorer's server-side session (the cookie's value). */
			sessionId: string;
		}
	}
}

export {};
