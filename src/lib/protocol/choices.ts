/**
 * Behaviour the interface does not describe, and what the sandbox does. One list, read by the sandbox's docs,
 * the reference page and the explorer's annotations ("not described by the interface; the sandbox does X").
 * Each choice's `id` is used by the code that implements it, so a reader can find the implementation.
 */
export interface SandboxChoice {
	id: string;
	topic: string;
	/** What the sandbox does. */
	sandbox: string;
	/** Why, briefly. */
	why: string;
}

export const SANDBOX_CHOICES = [
	{
		id: 'unknown-supergroup',
		topic: 'Authorisation page: a supergroup outside the four of 2.5',
		sandbox: 'Shows an error page ("unknown supergroup", with the four values) and never redirects.',
		why: 'No 7.1 row fits and the redirect URI has not been checked yet, so redirecting would be an open redirect.'
	},
	{
		id: 'country-outside-plan',
		topic: 'Authorisation page: a country outside the client\'s plan, or a missing or malformed country',
		sandbox: 'Shows an error page naming the country and the client\'s countries, and never redirects. Countries are compared case-insensitively.',
		why: 'The interface says countries depend on the plan but gives no error; showing it is what a user (and a developer) can act on.'
	},
	{
		id: 'authorisation-check-order',
		topic: 'Authorisation page: which error is shown when several apply',
		sandbox: 'Checked in this order: supergroup, `client_id`, `redirect_uri`, `response_type`, `country`. The first failure is shown.',
		why: 'The client must be known before its redirect URIs can be checked, and nothing is trusted before the redirect URI is.'
	},
	{
		id: 'authorisation-error-status',
		topic: 'Authorisation page: the HTTP status of a page that shows an error',
		sandbox: '400, with the row\'s message on the page (and the same for the undescribed errors above); it never redirects.',
		why: 'The interface says only that errors are displayed to the user. A 4xx also tells a script or a proxy that the request was refused.'
	},
	{
		id: 'cancel-redirect',
		topic: 'Cancel: what the redirect carries',
		sandbox: 'The redirect URI with its extra query parameters, any `code` among them removed, and nothing added (no `error` parameter).',
		why: 'The interface says only "without code"; removing a stray `code` keeps a cancel from ever looking like a success.'
	},
	{
		id: 'token-check-order',
		topic: 'Token endpoint: which error wins when several apply',
		sandbox: 'Checked in this order: `grant_type` (unsupported_grant_type), client authentication (invalid_client), missing `code` or `redirect_uri` (invalid_request), then the code itself (invalid_grant). A request that fails an earlier check never consumes the code.',
		why: 'Client authentication comes before anything about the code (RFC 6749 5.2), so a wrong secret cannot burn a code.'
	},
	{
		id: 'token-parameter-transport',
		topic: 'Token endpoint: where parameters may be sent',
		sandbox: 'In the query string (the interface\'s form) or in an `application/x-www-form-urlencoded` body. A parameter in both places takes the query string\'s value. Any other body, JSON included (even `{}` beside a complete query string), is refused with 400 invalid_request before any other check.',
		why: 'The interface describes the query string and no body; OAuth 2 client libraries send a form body (RFC 6749 4.1.3). Refusing other bodies outright, rather than ignoring them, shows an app that sends its parameters as JSON where they went.'
	},
	{
		id: 'authorization-header-formats',
		topic: 'Token endpoint: client credentials in an Authorization header',
		sandbox: 'Accepted as `Basic base64(client_id:client_secret)` (RFC 6749 2.3.1, each part form-urlencoded first) and as `Bearer base64(client_id:client_secret)` (the same payload with the Bearer prefix the interface mentions). A client_id in the parameters that differs from the header\'s is invalid_client. A 401 to a request that used the header carries `WWW-Authenticate`.',
		why: 'The interface names a Bearer prefix but no format; Basic is the OAuth 2 standard, and the Bearer variant is the closest reading of the interface\'s words.'
	},
	{
		id: 'refresh-grant',
		topic: 'Refresh requests',
		sandbox: '`grant_type=refresh_token` with `refresh_token`, `client_id` and `client_secret` returns a new token response (2.3) and retires the old refresh token. Refresh tokens do not expire by time.',
		why: 'The interface says refresh requests go to `/oauth/token` and refresh tokens are issued, but shows neither; this follows RFC 6749 6.'
	},
	{
		id: 'credential-format',
		topic: 'What grant codes and tokens look like',
		sandbox: 'Codes, access tokens and refresh tokens are 43 base64url characters (32 bytes): 192 random bits, plus 64 bits that name the credential\'s row in the sandbox\'s database, hidden with a key so they look as random as the rest. The database keeps only digests of the random part.',
		why: 'The interface calls the access token opaque and does not show the others\' format. Clients must treat all three as opaque strings of any length.'
	},
	{
		id: 'replayed-code',
		topic: 'A code exchanged a second time',
		sandbox: 'The second exchange fails with invalid_grant; the tokens issued by the first exchange stay valid.',
		why: 'The interface says only that reuse fails. Clients must not rely on either behaviour.'
	},
	{
		id: 'unused-parameters',
		topic: '`state` and `scope`',
		sandbox: 'Ignored everywhere, never an error; `state` is not echoed on the redirect.',
		why: 'The interface says they are not used (5.6); many client libraries send them anyway.'
	},
	{
		id: 'me-token-transport',
		topic: 'me.json: token in both the header and the query',
		sandbox: 'The `Authorization` header is used. Any other Authorization scheme than Bearer is a 401.',
		why: 'The header is the form the interface lists first.'
	},
	{
		id: 'me-error-bodies',
		topic: 'me.json: error bodies',
		sandbox: '400 and 403 have no body; 401 and 404 have a JSON body `{"message": "…"}`.',
		why: 'The interface says 401 and 404 "may" have one; the sandbox always sends it so readers are tested against it.'
	},
	{
		id: 'me-check-order',
		topic: 'me.json: which error wins when several apply',
		sandbox: 'Checked in this order: `Host` (400), `User-Agent` (403), token (401), account deletion (404).',
		why: 'Malformed requests are rejected before the token is looked at.'
	},
	{
		id: 'active-verification',
		topic: 'Which verifications me.json lists',
		sandbox: 'Those whose `expires_on` is after today on the sandbox clock (UTC dates). A verification is active until the day before `expires_on`.',
		why: '`expires_on` is the first day the verification is no longer valid (2.4).'
	},
	{
		id: 'simulated-verification',
		topic: 'The verification step on the authorisation page',
		sandbox: 'Simulated: the user picks a kind of proof and submits it, and is verified for the requested supergroup until one year from the sandbox\'s today.',
		why: 'The real verification is outside the interface; the sandbox only needs the outcome.'
	},
	{
		id: 'deleted-account-login',
		topic: 'A user who asked for account deletion',
		sandbox: 'Can still log in and authorise, and the code still exchanges; me.json answers 404 for their tokens.',
		why: 'That is how the 7.3 404 row ("granted earlier for a user who has since asked for account deletion") can be produced on demand.'
	},
	{
		id: 'repeated-parameter',
		topic: 'A parameter given twice (authorisation page, token endpoint)',
		sandbox: 'An error: the page shows it and never redirects; the token endpoint answers invalid_request naming the parameter.',
		why: 'Two values leave the meaning open, and servers that pick different ones are a classic source of security bugs.'
	},
	{
		id: 'failed-exchange-keeps-code',
		topic: 'A code sent with the wrong `redirect_uri` or by another client',
		sandbox: 'The exchange fails with invalid_grant and the code is not consumed: the right request can still exchange it.',
		why: 'Only a successful exchange uses a code up (section 3); a mistaken request should not cost the user a new sign-in.'
	},
	{
		id: 'headless-authorize',
		topic: '`POST /sandbox/authorize` (sandbox control API, not the interface)',
		sandbox: 'Answers `{location}` like the page would; 409 when the user has no active verification in the supergroup (the page would ask them to verify first), 404 for an unknown login.',
		why: 'A headless test cannot do the verification step, so it must be told instead of silently getting a code.'
	},
	{
		id: 'me-malformed-query',
		topic: 'me.json with a malformed query string',
		sandbox: 'A 400 with no body, like a missing `Host` (7.3, "malformed request"). Every me.json response carries `Cache-Control: no-store`.',
		why: 'It is a malformed request; the table\'s 400 row is the closest.'
	},
	{
		id: 'outcome-rules',
		topic: 'Outcomes on demand (sandbox control API `/sandbox/outcomes`, not the interface)',
		sandbox: 'A one-shot rule set on a client answers the first request of that client that reaches its stage, then is marked used (when, on the workspace clock, and which request; the newest 20 are kept). Authorisation: the next Authorise (on the page or `POST /sandbox/authorize`) redirects as a cancel; a user\'s own Cancel leaves the rule set. Token endpoint: the next code exchange that passed `grant_type`, client authentication and the required parameters (refresh requests are not touched). me.json: the next request with a valid access token of the client, after the `Host` and `User-Agent` checks. One pending rule per stage and client; setting another replaces it.',
		why: 'Integrators test how their app handles each outcome without changing their code. A rule is consumed only by a request that authenticated as its client (or carried its token), so nobody else can use it up.'
	},
	{
		id: 'outcome-keeps-code',
		topic: 'Outcomes on demand: what a token rule answers, and the code',
		sandbox: '`token-invalid-grant` answers exactly what a code already exchanged gets, `token-invalid-client` exactly what a wrong client secret gets (with `WWW-Authenticate` when the credentials came in an Authorization header). The code is not looked at and stays usable: the next exchange can still succeed.',
		why: 'The app under test sees the real row; keeping the code lets it retry, as after any failed exchange (choice failed-exchange-keeps-code).'
	},
	{
		id: 'wrong-method',
		topic: 'Other HTTP methods on the endpoints',
		sandbox: '`/oauth/token` answers other methods than POST with 405 and an invalid_request body; `me.json` answers other methods than GET (and HEAD) with 405 and a `message`.',
		why: 'Not in the tables; a clear 405 beats a misleading row.'
	}
] as const satisfies readonly SandboxChoice[];

export type SandboxChoiceId = (typeof SANDBOX_CHOICES)[number]['id'];

export function sandboxChoice(id: SandboxChoiceId): SandboxChoice {
	return SANDBOX_CHOICES.find((c) => c.id === id)!;
}
