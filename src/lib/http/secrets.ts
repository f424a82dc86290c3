/**
 * Which parameters (query, form, JSON field) and headers of the interface carry a secret, and how each place that
 * shows an exchange shows them. The sandbox's request log (`log`), the explorer's view of a walk (`view`) and a
 * saved or exported run (`run`) each read it; none keeps a list of its own.
 */

export const SECRET_PARAMETERS = ['client_secret', 'password', 'access_token', 'refresh_token', 'code'] as const;
export type SecretParameter = (typeof SECRET_PARAMETERS)[number];

/** hidden: replaced whole. tail: replaced but for its last `TAIL_LENGTH` characters. kept: shown (and noted). */
export type Showing = 'hidden' | 'tail' | 'kept';

/**
 * `log`: codes and tokens keep a tail, so entries can be matched up. `view`: the person walking sees the grant
 * code and a tail of each token, to tell two apart. `run`: a saved run may be exported, so tokens are hidden
 * whole; grant codes are kept, being single use and short-lived, because a diagnosis needs them.
 */
export type Audience = 'log' | 'view' | 'run';

const SHOWING: Readonly<Record<SecretParameter, Readonly<Record<Audience, Showing>>>> = {
	client_secret: { log: 'hidden', view: 'hidden', run: 'hidden' },
	password: { log: 'hidden', view: 'hidden', run: 'hidden' },
	access_token: { log: 'tail', view: 'tail', run: 'hidden' },
	refresh_token: { log: 'tail', view: 'tail', run: 'hidden' },
	code: { log: 'tail', view: 'kept', run: 'kept' }
};

/** How many last characters a `tail` keeps. */
export const TAIL_LENGTH = 4;

export function isSecretParameter(name: string): name is SecretParameter {
	return Object.hasOwn(SHOWING, name);
}

/** How `audience` shows the value of the parameter or JSON field `name` (exact, case-sensitive, as the interface names it). */
export function showing(name: string, audience: Audience): Showing {
	return isSecretParameter(name) ? SHOWING[name][audience] : 'kept';
}

/**
 * Headers that carry credentials, by what they hold: `authorization` (a scheme and credentials, also
 * Proxy-Authorization), `cookie` (`a=1; b=2`), `set-cookie` (`name=value; attributes`), `token` (the whole value is
 * a credential: the sandbox's admin token, a workspace's key).
 */
export type SecretHeader = 'authorization' | 'cookie' | 'set-cookie' | 'token';

/** The header a sandbox administrator's token may travel in (besides `Authorization: Bearer`). */
export const ADMIN_CREDENTIAL_HEADER = 'x-sandbox-admin-token';

/** The header that carries a sandbox workspace's key (control API calls). */
export const WORKSPACE_KEY_HEADER = 'x-sandbox-workspace-key';

const SECRET_HEADERS: Readonly<Record<string, SecretHeader>> = {
	authorization: 'authorization',
	'proxy-authorization': 'authorization',
	cookie: 'cookie',
	'set-cookie': 'set-cookie',
	[ADMIN_CREDENTIAL_HEADER]: 'token',
	[WORKSPACE_KEY_HEADER]: 'token'
};

/** What kind of credential the header `name` (any case) carries, or undefined for none. */
export function secretHeader(name: string): SecretHeader | undefined {
	const lower = name.toLowerCase();
	return Object.hasOwn(SECRET_HEADERS, lower) ? SECRET_HEADERS[lower] : undefined;
}
