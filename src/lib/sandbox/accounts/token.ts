/**
 * `POST {accounts_url}/oauth/token` (4.2, 7.2). The checks run in the order of sandbox choice
 * 'token-check-order'; each is a small named function, and the first failure answers. Parameters the interface
 * does not use (`state`, `scope`) are never looked at (sandbox choice 'unused-parameters').
 *
 * Before any check, the request is attributed (log/attribute.ts): its log entry goes to the workspace of the
 * client, code or refresh token it names, refused or not. For the decision, the client_id finds the workspace; the
 * code or refresh token is then looked up in that workspace only, so one of another workspace is refused as
 * unknown (invalid_grant), like one never issued.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
	AUTHORIZATION_CODE,
	CODE_VALIDITY,
	GRANT_PARAMETERS,
	OUTCOME_RULE_HEADER,
	TOKEN_ERRORS,
	isGrantType,
	type GrantParameter,
	type GrantType,
	type TokenErrorId,
	type TokenParameter,
	type TokenResponse
} from '../../protocol';
import { attribute, namesAsSent } from '../log';
import type { CodeExchange, FoundClient, IssuedTokens, RefreshResult, SandboxStore } from '../store';
import { MAX_BODY_BYTES, mediaType, parseParams, readBody, sendJson, type Params } from './http';
import { requestNames } from '../../http/correlation';
import { decodeFormComponentStrictly } from '../../http/form';
import { base64DecodeUtf8 } from '../../http/encoding';

export interface TokenInput {
	params: Params;
	/** The raw Authorization header, if any. */
	authorization: string | undefined;
}

export type TokenOutcome =
	| { status: 200; body: TokenResponse; headers: Record<string, string> }
	| { status: number; body: { error: string; error_description: string }; headers: Record<string, string> };

type Failure = Extract<TokenOutcome, { body: { error: string } }>;
type Step<T> = { ok: true; value: T } | { ok: false; failure: Failure };

/** The token endpoint's answers must not be cached, errors included (RFC 6749 5.1). */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
const REALM = 'realm="SSO sandbox token endpoint"';

/** A parameter by a name the protocol declares (protocol/parameters.ts): a name it does not have does not compile. */
function param(params: Params, name: TokenParameter | GrantParameter): string | undefined {
	return params.get(name);
}

function failure(rowId: TokenErrorId, description: string, headers: Record<string, string> = {}): Failure {
	const row = TOKEN_ERRORS.find((r) => r.id === rowId)!;
	return { status: row.status, body: { error: row.error, error_description: description }, headers: { ...NO_STORE, ...headers } };
}

/** invalid_request outside the four rows' status: wrong method (405) and oversized body (413). */
function invalidRequest(status: number, description: string, headers: Record<string, string> = {}): Failure {
	return { status, body: { error: 'invalid_request', error_description: description }, headers: { ...NO_STORE, ...headers } };
}

/** 1. `grant_type`: authorization_code, or refresh_token (sandbox choice 'refresh-grant'). */
function checkGrantType(params: Params): Step<GrantType> {
	const value = param(params, 'grant_type');
	if (value !== undefined && isGrantType(value)) return { ok: true, value };
	return {
		ok: false,
		failure: failure(
			'token-unsupported-grant-type',
			value === undefined
				? '`grant_type` is missing; send grant_type=authorization_code.'
				: `grant_type \`${value}\` is not supported; send grant_type=authorization_code (or refresh_token to refresh).`
		)
	};
}

type Credentials = { clientId: string | undefined; clientSecret: string | undefined; viaHeader: 'basic' | 'bearer' | null };

/** Many clients do not form-encode before base64 (RFC 6749 2.3.1 asks them to): what does not decode is taken as sent. */
function decodeCredentialPart(raw: string): string {
	return decodeFormComponentStrictly(raw) ?? raw;
}

/** Client credentials from the Authorization header (sandbox choice 'authorization-header-formats'). */
function headerCredentials(header: string): Step<{ clientId: string; clientSecret: string; scheme: 'basic' | 'bearer' }> {
	const invalid = (description: string, scheme: string) =>
		({ ok: false, failure: failure('token-invalid-client', description, { 'WWW-Authenticate': `${scheme} ${REALM}` }) }) as const;
	const match = /^(\S+)[ \t]+(\S+)[ \t]*$/.exec(header);
	const scheme = match?.[1]!.toLowerCase();
	if (!match || (scheme !== 'basic' && scheme !== 'bearer')) {
		return invalid('The Authorization header must be `Basic base64(client_id:client_secret)` (or the same payload after `Bearer`).', 'Basic');
	}
	const challenge = scheme === 'basic' ? 'Basic' : 'Bearer';
	const payload = match[2]!;
	// Strictly: a random secret sent alone after `Bearer` decodes leniently to bytes holding a colon about one time in
	// eleven, and was then read as an unknown client ID; base64 of UTF-8 text with a colon is what a payload is.
	const decoded = base64DecodeUtf8(payload) ?? '';
	const colon = decoded.indexOf(':');
	if (colon < 1) {
		return invalid(`The Authorization header's ${challenge} credentials must be base64(client_id:client_secret).`, challenge);
	}
	return {
		ok: true,
		value: { clientId: decodeCredentialPart(decoded.slice(0, colon)), clientSecret: decodeCredentialPart(decoded.slice(colon + 1)), scheme }
	};
}

/**
 * 2. Client authentication, before anything about the code, so a wrong secret never burns a code. The client_id
 * finds the workspace (an unknown one is checked in the default workspace, to fail in the same time).
 */
function authenticateClient(store: SandboxStore, input: TokenInput): Step<AuthenticatedClient> {
	let credentials: Credentials = {
		clientId: param(input.params, 'client_id'),
		clientSecret: param(input.params, 'client_secret'),
		viaHeader: null
	};
	if (input.authorization !== undefined) {
		const fromHeader = headerCredentials(input.authorization);
		if (!fromHeader.ok) return fromHeader;
		const { clientId, clientSecret, scheme } = fromHeader.value;
		if (credentials.clientId !== undefined && credentials.clientId !== clientId) {
			return {
				ok: false,
				failure: failure(
					'token-invalid-client',
					`The client_id parameter (\`${credentials.clientId}\`) differs from the Authorization header's (\`${clientId}\`).`,
					{ 'WWW-Authenticate': `${scheme === 'basic' ? 'Basic' : 'Bearer'} ${REALM}` }
				)
			};
		}
		credentials = { clientId, clientSecret, viaHeader: scheme };
	}
	const challenge: Record<string, string> =
		credentials.viaHeader === null ? {} : { 'WWW-Authenticate': `${credentials.viaHeader === 'basic' ? 'Basic' : 'Bearer'} ${REALM}` };
	const invalid = (description: string) => ({ ok: false, failure: failure('token-invalid-client', description, challenge) }) as const;

	if (credentials.clientId === undefined) {
		return invalid('`client_id` is missing; send client_id and client_secret (parameters or an Authorization: Basic header).');
	}
	if (credentials.clientSecret === undefined) return invalid('`client_secret` is missing; send the secret issued with the client ID.');
	const workspace = store.findClientAnywhere(credentials.clientId)?.workspace ?? store;
	const result = workspace.authenticateClient(credentials.clientId, credentials.clientSecret);
	if (result.ok) return { ok: true, value: { found: { client: result.client, workspace }, challenge } };
	return invalid(result.cause === 'unknown-client' ? `No client has the id \`${credentials.clientId}\`.` : wrongSecret(credentials.clientId));
}

const wrongSecret = (clientId: string) => `The client_secret is not the secret of client \`${clientId}\`.`;

/** An authenticated client, and the challenge a 401 to its request carries (when it authenticated by header). */
interface AuthenticatedClient {
	found: FoundClient;
	challenge: Record<string, string>;
}

/** 3. The grant's own parameters are present; the description names each missing one. */
function checkRequiredParameters(grantType: GrantType, params: Params): Failure | null {
	const missing: readonly string[] = GRANT_PARAMETERS[grantType].filter((name) => !params.has(name));
	if (missing.length === 0) return null;
	const names = missing.map((n) => `\`${n}\``).join(' and ');
	const cancelled = missing.includes('code')
		? ' A redirect without `code` means the user cancelled: there is nothing to exchange.'
		: '';
	return failure('token-invalid-request', `${names} ${missing.length === 1 ? 'is' : 'are'} missing.${cancelled}`);
}

const CODE_FAILURES: Record<Extract<CodeExchange, { ok: false }>['cause'], string> = {
	'unknown-code': 'The code is not one this service issued: pass the `code` from the redirect unchanged (decoded once).',
	used: 'The code was already exchanged; a code is single use.',
	expired: `The code has expired; codes are valid for ${CODE_VALIDITY}. Send the user through the authorisation link again.`,
	'other-client': 'The code was issued to a different client ID.',
	'redirect-mismatch':
		'`redirect_uri` does not match the one in the authorisation link exactly (extra query parameters included).'
};

const REFRESH_FAILURES: Record<Extract<RefreshResult, { ok: false }>['cause'], string> = {
	'unknown-token': 'The refresh token is not one this service issued.',
	used: 'The refresh token was already used; use the refresh token from the latest token response.',
	'other-client': 'The refresh token was issued to a different client ID.'
};

function tokenResponse(tokens: IssuedTokens): TokenOutcome {
	return {
		status: 200,
		body: {
			access_token: tokens.access_token,
			token_type: 'Bearer',
			expires_in: tokens.expires_in,
			refresh_token: tokens.refresh_token,
			created_at: tokens.created_at
		},
		headers: NO_STORE
	};
}

/**
 * 4. The client's token outcome rule, for a code exchange (sandbox choices 'outcome-rules' and 'outcome-keeps-code'):
 * it answers what a code already exchanged, or a wrong secret, gets; the code is not looked at, so it stays usable.
 */
function outcomeRule(grantType: GrantType, { found, challenge }: AuthenticatedClient): Failure | null {
	if (grantType !== AUTHORIZATION_CODE) return null;
	const outcome = found.workspace.takeOutcome(found.client.client_id, 'token', 'POST /oauth/token');
	if (outcome === null) return null;
	const marked = { [OUTCOME_RULE_HEADER]: outcome };
	return outcome === 'token-invalid-grant'
		? failure('token-invalid-grant', CODE_FAILURES.used, marked)
		: failure('token-invalid-client', wrongSecret(found.client.client_id), { ...challenge, ...marked });
}

/** 5. The grant itself, in the client's workspace: the code (atomically consumed) or the refresh token. */
function grant(grantType: GrantType, { client, workspace }: FoundClient, params: Params): TokenOutcome {
	if (grantType === 'refresh_token') {
		const result = workspace.refresh(param(params, 'refresh_token')!, client.client_id);
		return result.ok ? tokenResponse(result.tokens) : failure('token-invalid-grant', REFRESH_FAILURES[result.cause]);
	}
	const result = workspace.exchangeCode(param(params, 'code')!, client.client_id, param(params, 'redirect_uri')!);
	return result.ok ? tokenResponse(result.tokens) : failure('token-invalid-grant', CODE_FAILURES[result.cause]);
}

/** The token endpoint's decision for parsed parameters, in the order of sandbox choice 'token-check-order'. */
function tokenDecision(store: SandboxStore, input: TokenInput): TokenOutcome {
	const grantType = checkGrantType(input.params);
	if (!grantType.ok) return grantType.failure;
	const client = authenticateClient(store, input);
	if (!client.ok) return client.failure;
	return checkRequiredParameters(grantType.value, input.params) ?? outcomeRule(grantType.value, client.value) ?? grant(grantType.value, client.value.found, input.params);
}

/** A token request as read: its parameters, or its refusal with the body text read (null when none was). */
type TokenRequest = { ok: true; params: Params } | { ok: false; failure: Failure; body: string | null };

/**
 * A POST's parameters from the query string and a form body (sandbox choices 'wrong-method' and
 * 'token-parameter-transport'): the query string's value wins when a parameter is in both.
 */
async function readTokenRequest(req: IncomingMessage, query: string): Promise<TokenRequest | 'aborted'> {
	const refused = (failure: Failure, body: string | null = null) => ({ ok: false, failure, body }) as const;
	if (req.method !== 'POST') {
		req.resume();
		return refused(invalidRequest(405, `The token endpoint only accepts POST, not ${req.method}.`, { Allow: 'POST' }));
	}
	const fromQuery = parseParams(query, 'query string');
	if (!fromQuery.ok) return refused(failure('token-invalid-request', fromQuery.problem));

	const read = await readBody(req);
	if (!read.ok && read.reason === 'aborted') return 'aborted';
	if (!read.ok) return refused(invalidRequest(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' }));
	if (read.body.length === 0) return { ok: true, params: fromQuery.params };
	const body = read.body.toString('utf8');
	const bad = (description: string) => refused(failure('token-invalid-request', description), body);
	const type = mediaType(req);
	if (type === 'application/json') {
		return bad('JSON bodies are not accepted; send the parameters in the query string or as application/x-www-form-urlencoded.');
	}
	if (type !== 'application/x-www-form-urlencoded') {
		return bad(`A body of type \`${type || 'none'}\` is not accepted; send application/x-www-form-urlencoded or use the query string.`);
	}
	const fromBody = parseParams(body, 'form body');
	if (!fromBody.ok) return bad(fromBody.problem);
	return { ok: true, params: new Map([...fromBody.params, ...fromQuery.params]) };
}

/**
 * 0. Attribution, before anything is answered: by the parameters read (no second parse), or, for a request refused
 * before they were, by what it carried as sent (query, JSON or other body, Authorization header).
 */
function attributeToken(store: SandboxStore, req: IncomingMessage, request: TokenRequest | 'aborted'): void {
	const names =
		request !== 'aborted' && request.ok
			? requestNames('token', (name) => request.params.get(name), req.headers.authorization ?? '')
			: namesAsSent(req, request === 'aborted' ? null : request.body);
	attribute(store, req, names);
}

function send(res: ServerResponse, outcome: TokenOutcome): void {
	sendJson(res, outcome.status, outcome.body, outcome.headers);
}

export async function handleToken(store: SandboxStore, req: IncomingMessage, res: ServerResponse, query: string): Promise<void> {
	const request = await readTokenRequest(req, query);
	attributeToken(store, req, request);
	if (request === 'aborted') return; // nobody left to answer
	if (!request.ok) return send(res, request.failure);
	const input = { params: request.params, authorization: req.headers.authorization };
	send(res, await store.sharedTransaction(() => tokenDecision(store, input)));
}
