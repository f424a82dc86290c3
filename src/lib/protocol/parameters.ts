/**
 * The parameter names of the authorisation link (4.1) and of the token endpoint (4.2), declared once, each grant's
 * own parameters apart from the client's credentials (as node-oidc-provider declares each grant's parameters
 * once). The zod schemas satisfy them; the sandbox's token endpoint, the explorer's request builder, the diagnosis,
 * the linter and the scenarios read them from here.
 */

/** The authorisation link's parameters (4.1), all required. */
export const AUTHORISATION_PARAMETERS = ['response_type', 'client_id', 'redirect_uri', 'country'] as const;

export type AuthorisationParameter = (typeof AUTHORISATION_PARAMETERS)[number];

/**
 * The registered part of a redirect URI: everything before `?` (4.1.1), compared as text. The sandbox matches with
 * it and the linter checks a link against a registration with it, so both agree.
 */
export function registeredPart(uri: string): string {
	const q = uri.indexOf('?');
	return q === -1 ? uri : uri.slice(0, q);
}

/** Client authentication: parameters, or the same pair in an Authorization header (sandbox choice 'authorization-header-formats'). */
export const CLIENT_CREDENTIALS = ['client_id', 'client_secret'] as const;

/** The interface's one grant type. */
export const AUTHORIZATION_CODE = 'authorization_code';

/**
 * Each grant type and its own required parameters. `refresh_token` is the sandbox's (sandbox choice
 * 'refresh-grant'); the interface shows only the code exchange.
 */
export const GRANT_PARAMETERS = {
	[AUTHORIZATION_CODE]: ['code', 'redirect_uri'],
	refresh_token: ['refresh_token']
} as const;

export type GrantType = keyof typeof GRANT_PARAMETERS;

/** A grant's own parameter, of any grant. */
export type GrantParameter = (typeof GRANT_PARAMETERS)[GrantType][number];

export function isGrantType(value: string): value is GrantType {
	return Object.hasOwn(GRANT_PARAMETERS, value);
}

/** The parameters of a code exchange (4.2), in the order the explorer sends them. */
export const TOKEN_PARAMETERS = ['grant_type', ...GRANT_PARAMETERS[AUTHORIZATION_CODE], ...CLIENT_CREDENTIALS] as const;

export type TokenParameter = (typeof TOKEN_PARAMETERS)[number];
