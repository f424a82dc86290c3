/**
 * The interface's three error tables (section 7), once, as data. The sandbox answers with these rows and the
 * explorer annotates exchanges with them; the reference page renders them. Each row has a permanent `id`, used as
 * the anchor on the reference page (`/reference#<id>`).
 *
 * A row lists its causes separately so the explorer can say which one applies and how to fix it.
 */
import { CODE_VALIDITY } from './limits';

export interface ErrorCause {
	/** Stable id, unique within its row. */
	id: string;
	/** What happened, as the interface words it (or close to it). */
	text: string;
	/** How a client application fixes it. */
	fix: string;
}

export interface AuthorisationErrorRow {
	table: '7.1';
	id: string;
	/** The message meaning from 7.1; the sandbox displays it to the user. */
	message: string;
	causes: ErrorCause[];
}

export interface TokenErrorRow {
	table: '7.2';
	id: string;
	status: 400 | 401;
	/** The `error` field of the JSON body. */
	error: 'invalid_grant' | 'invalid_request' | 'unsupported_grant_type' | 'invalid_client';
	condition: string;
	causes: ErrorCause[];
}

export interface MeErrorRow {
	table: '7.3';
	id: string;
	status: 400 | 401 | 403 | 404;
	/** What the interface says of the body. */
	body: 'none' | 'may be a JSON object with `message`';
	condition: string;
	causes: ErrorCause[];
}

export type ErrorRow = AuthorisationErrorRow | TokenErrorRow | MeErrorRow;

export const AUTHORISATION_ERRORS = [
	{
		table: '7.1',
		id: 'auth-invalid-redirect-uri',
		message: 'The redirect URI included is not valid.',
		causes: [
			{
				id: 'not-registered',
				text: 'The redirect URI is not registered for this client, or does not match a registered one on scheme, authority and path.',
				fix: 'Use a redirect URI registered for the client. Only the part before `?` is compared: scheme, host, port and path must be identical (no trailing slash difference, same http/https).'
			},
			{
				id: 'missing',
				text: 'The `redirect_uri` parameter is missing or is not an absolute URI.',
				fix: 'Add `redirect_uri`, the full registered URI, encoded as a URI component (encodeURIComponent).'
			}
		]
	},
	{
		table: '7.1',
		id: 'auth-invalid-client',
		message:
			'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
		causes: [
			{
				id: 'unknown-client',
				text: 'The `client_id` is not known to the service.',
				fix: 'Copy the client ID exactly as issued at registration; check you are pointing at the right deployment.'
			},
			{
				id: 'missing',
				text: 'The `client_id` parameter is missing.',
				fix: 'Add `client_id` to the authorisation link. Never add the client secret.'
			}
		]
	},
	{
		table: '7.1',
		id: 'auth-unsupported-response-type',
		message: 'The authorization server does not support this response type.',
		causes: [
			{
				id: 'not-code',
				text: '`response_type` is missing or is not `code`.',
				fix: 'Send `response_type=code`: the Authorization Code grant is the only one supported.'
			}
		]
	}
] as const satisfies readonly AuthorisationErrorRow[];

export const TOKEN_ERRORS = [
	{
		table: '7.2',
		id: 'token-invalid-grant',
		status: 400,
		error: 'invalid_grant',
		condition:
			'Code invalid, already used, expired, revoked, issued to a different client ID, or `redirect_uri` does not match exactly (including custom query parameters).',
		causes: [
			{
				id: 'unknown-code',
				text: 'The code is not one the service issued (mistyped, truncated, or from another deployment).',
				fix: 'Pass the `code` query parameter from the redirect unchanged (decode it once, exactly as received).'
			},
			{
				id: 'used',
				text: 'The code was already exchanged. A code is single use.',
				fix: 'Exchange each code once and keep the token; do not retry a successful exchange or let a page reload repeat it.'
			},
			{
				id: 'expired',
				text: `The code is more than ${CODE_VALIDITY} old.`,
				fix: 'Exchange the code as soon as the redirect arrives; if it is too late, send the user through the authorisation link again.'
			},
			{
				id: 'other-client',
				text: 'The code was issued to a different client ID.',
				fix: 'Exchange the code with the same client ID (and its secret) that was in the authorisation link.'
			},
			{
				id: 'redirect-mismatch',
				text: '`redirect_uri` differs from the one in the authorisation link, including its extra query parameters.',
				fix: 'Send exactly the `redirect_uri` of the authorisation link, extra query parameters and all, not the URL the browser landed on (which also carries `code`).'
			},
			{
				id: 'revoked',
				text: 'The code was revoked.',
				fix: 'Send the user through the authorisation link again.'
			}
		]
	},
	{
		table: '7.2',
		id: 'token-invalid-request',
		status: 400,
		error: 'invalid_request',
		condition:
			'A required parameter is missing; the description names it. A missing `code` occurs when the user declined authorisation.',
		causes: [
			{
				id: 'missing-code',
				text: '`code` is missing. This is what happens when a client tries to exchange after the user cancelled: the redirect carried no code.',
				fix: 'Check for `code` on the redirect before exchanging. No `code` means the user cancelled: not an error, show your sign-in option again.'
			},
			{
				id: 'missing-parameter',
				text: 'A required parameter (named in `error_description`) is missing.',
				fix: 'Send all of `grant_type`, `code`, `redirect_uri`, `client_id` and `client_secret`.'
			}
		]
	},
	{
		table: '7.2',
		id: 'token-unsupported-grant-type',
		status: 400,
		error: 'unsupported_grant_type',
		condition: '`grant_type` absent or not `authorization_code`.',
		causes: [
			{
				id: 'wrong-grant-type',
				text: '`grant_type` is missing or is not `authorization_code`.',
				fix: 'Send `grant_type=authorization_code`.'
			}
		]
	},
	{
		table: '7.2',
		id: 'token-invalid-client',
		status: 401,
		error: 'invalid_client',
		condition: 'Client ID or secret invalid, unknown, or absent.',
		causes: [
			{
				id: 'wrong-secret',
				text: 'The client secret does not match the client ID.',
				fix: 'Use the secret issued with this client ID; check for whitespace or a secret from another environment.'
			},
			{
				id: 'unknown-client',
				text: 'The client ID is unknown.',
				fix: 'Use the client ID issued at registration, the same one as in the authorisation link.'
			},
			{
				id: 'missing-credentials',
				text: 'No client ID or no client secret was sent.',
				fix: 'Send `client_id` and `client_secret` (query string, form body, or an Authorization header).'
			}
		]
	}
] as const satisfies readonly TokenErrorRow[];

export const ME_ERRORS = [
	{
		table: '7.3',
		id: 'me-bad-request',
		status: 400,
		body: 'none',
		condition: 'Malformed request, for example required headers such as `Host` missing.',
		causes: [
			{
				id: 'missing-host',
				text: 'The request had no `Host` header.',
				fix: 'Use an HTTP client that sends `Host` (every standard client does; check hand-built requests and proxies).'
			}
		]
	},
	{
		table: '7.3',
		id: 'me-unauthorized',
		status: 401,
		body: 'may be a JSON object with `message`',
		condition:
			'Access token missing, malformed or invalid, or a grant code supplied instead of a token.',
		causes: [
			{
				id: 'missing-token',
				text: 'No access token was sent.',
				fix: 'Send `Authorization: Bearer <access_token>` or the `access_token` query parameter.'
			},
			{
				id: 'grant-code',
				text: 'A grant code was sent instead of an access token.',
				fix: 'Exchange the code at `/oauth/token` first and send the `access_token` from its response.'
			},
			{
				id: 'invalid-token',
				text: 'The token is malformed, unknown, revoked or expired.',
				fix: 'Send the `access_token` exactly as received; if it has expired (after `expires_in` seconds) send the user through the flow again.'
			}
		]
	},
	{
		table: '7.3',
		id: 'me-forbidden',
		status: 403,
		body: 'none',
		condition: 'May occur when no `User-Agent` header is sent.',
		causes: [
			{
				id: 'missing-user-agent',
				text: 'The request had no `User-Agent` header.',
				fix: 'Set a `User-Agent` header naming your application, for example `User-Agent: my-app/1.0`.'
			}
		]
	},
	{
		table: '7.3',
		id: 'me-not-found',
		status: 404,
		body: 'may be a JSON object with `message`',
		condition: 'The token was granted earlier for a user who has since asked for account deletion.',
		causes: [
			{
				id: 'deletion-requested',
				text: 'The user asked for their account to be deleted after the token was granted.',
				fix: 'Treat the user as unknown: delete what you stored about them and do not retry.'
			}
		]
	}
] as const satisfies readonly MeErrorRow[];

export const ERROR_TABLES = [
	{ section: '7.1', title: 'Authorisation page (displayed to the user)', rows: AUTHORISATION_ERRORS },
	{ section: '7.2', title: 'Token endpoint (JSON body with `error` and `error_description`)', rows: TOKEN_ERRORS },
	{ section: '7.3', title: 'User-information endpoint', rows: ME_ERRORS }
] as const;

export type AuthorisationErrorId = (typeof AUTHORISATION_ERRORS)[number]['id'];
export type TokenErrorId = (typeof TOKEN_ERRORS)[number]['id'];
export type MeErrorId = (typeof ME_ERRORS)[number]['id'];
export type ErrorRowId = AuthorisationErrorId | TokenErrorId | MeErrorId;

type TableRow = (typeof AUTHORISATION_ERRORS)[number] | (typeof TOKEN_ERRORS)[number] | (typeof ME_ERRORS)[number];

/** The cause ids of one row: a cause id is only unique within its row (`missing` is in two). */
export type CauseIdOf<R extends ErrorRowId> = Extract<TableRow, { id: R }>['causes'][number]['id'];

/** Every cause id of the three tables. */
export type CauseId = CauseIdOf<ErrorRowId>;

/** A row and one of its own causes, for each row of `R`: a cause of another row does not compile. */
export type RowCause<R extends ErrorRowId = ErrorRowId> = { [Id in R]: { rowId: Id; causeId: CauseIdOf<Id> } }[R];

/** Some causes of one row, checked against the table: `CausesOf<'token-invalid-client', 'wrong-secret'>`. */
export type CausesOf<R extends ErrorRowId, C extends CauseIdOf<R>> = C;

const ALL_ROWS: readonly ErrorRow[] = [...AUTHORISATION_ERRORS, ...TOKEN_ERRORS, ...ME_ERRORS];

export function errorRow(id: ErrorRowId): ErrorRow {
	const row = ALL_ROWS.find((r) => r.id === id);
	if (!row) throw new Error(`unknown error row ${id}`);
	return row;
}

/** One cause of a row, as the table words it. */
export function errorCause<R extends ErrorRowId>(rowId: R, causeId: CauseIdOf<R>): ErrorCause {
	const cause = errorRow(rowId).causes.find((c) => c.id === causeId);
	if (!cause) throw new Error(`no cause ${causeId} in ${rowId}`);
	return cause;
}

/** The message a 7.1 row displays to the user. */
export function authorisationMessage(rowId: AuthorisationErrorId): string {
	const row = AUTHORISATION_ERRORS.find((r) => r.id === rowId);
	if (!row) throw new Error(`unknown 7.1 row ${rowId}`);
	return row.message;
}

/** The 7.2 row for an `error` value, if the value is one of the table's. */
export function tokenErrorRowFor(error: string): (typeof TOKEN_ERRORS)[number] | undefined {
	return TOKEN_ERRORS.find((r) => r.error === error);
}

/** The 7.3 row for a status, if the status is one of the table's. */
export function meErrorRowFor(status: number): (typeof ME_ERRORS)[number] | undefined {
	return ME_ERRORS.find((r) => r.status === status);
}

export function allErrorRows(): readonly ErrorRow[] {
	return ALL_ROWS;
}
