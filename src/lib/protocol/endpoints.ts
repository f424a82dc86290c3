/**
 * Where each step of a sign-in is requested, as path patterns: the interface's authorisation link, token endpoint
 * and me.json, and the sandbox's own sign-in pages. One reading for the flow engine (which step a request is), the
 * correlation of a sign-in's requests and the sandbox's log.
 */
export const ENDPOINT_PATHS = {
	/** The authorisation link, `/sso/{supergroup}`. */
	link: /\/sso\/[^/]+$/,
	token: /\/oauth\/token\/?$/,
	me: /\/api\/v3\/me\.json$/,
	/** The sandbox's sign-in pages (login, verification, consent) and their forms; group 1 is the sign-in flow's id. */
	signInPage: /^\/flow\/([A-Za-z0-9_-]{1,64})(?:\/[a-z]+)?$/
} as const;

/** Whether a request to `path` is a step of a sign-in (a link, a sign-in page, the token endpoint, me.json). */
export const isSignInStepPath = (path: string): boolean => Object.values(ENDPOINT_PATHS).some((pattern) => pattern.test(path));
