/**
 * The session cookie: an opaque id, unreadable by scripts (HttpOnly), not sent on cross-site subresource requests or
 * posts (SameSite=Lax, while a top-level return from the authorisation page still carries it), and Secure whenever
 * the explorer is served over https.
 */
export const SESSION_COOKIE = 'sfe_session';

export interface SessionCookieOptions {
	path: '/';
	httpOnly: true;
	sameSite: 'lax';
	secure: boolean;
}

export function sessionCookieOptions(publicOrigin: string): SessionCookieOptions {
	return { path: '/', httpOnly: true, sameSite: 'lax', secure: new URL(publicOrigin).protocol === 'https:' };
}

/** The part of SvelteKit's `Cookies` the session needs. */
export interface CookieJar {
	get(name: string): string | undefined;
	set(name: string, value: string, options: SessionCookieOptions): void;
}
