/**
 * The authorisation rules (4.1, 4.1.1, 7.1), once: the HTML page on the authorisation host and the control API's
 * `POST /sandbox/authorize` both call these. Errors are data; neither caller ever redirects on an error.
 */
import {
	SUPERGROUP_VALUES,
	authorisationMessage,
	checkCountry,
	isSupergroup,
	registeredPart,
	type AuthorisationErrorId,
	type CauseIdOf,
	type RowCause,
	type Supergroup
} from '../protocol';
import type { FoundClient, SandboxClient, SandboxUser, SandboxWorkspace } from './store';
import { isActiveIn } from './verifications';
import { decodeFormComponentStrictly } from '../http/form';

/** A checked request, with the workspace its client belongs to: the flow's users, codes and clock are that workspace's. */
export type AuthorizationRequest = { supergroup: Supergroup; client: SandboxClient; workspace: SandboxWorkspace; redirectUri: string; country: string };

/**
 * Where a request's client_id is looked up: the store's `findClientAnywhere` for the authorisation page (the
 * client_id finds the workspace), a workspace itself for the control API (only its own clients).
 */
export interface ClientScope {
	findClient(clientId: string): FoundClient | undefined;
}

export type AuthorizationError =
	/** A 7.1 row: `message` is the row's message, `detail` says exactly what was wrong in this request. */
	| ({ kind: 'row'; message: string; detail: string } & RowCause<AuthorisationErrorId>)
	/** Behaviour the interface leaves open; see protocol/choices.ts. */
	| { kind: 'choice'; choiceId: 'unknown-supergroup' | 'country-outside-plan'; message: string };

export type AuthorizationCheck =
	| { ok: true; request: AuthorizationRequest }
	| { ok: false; error: AuthorizationError };

type Param = { kind: 'missing' } | { kind: 'repeated'; count: number } | { kind: 'value'; value: string };

/** A parameter sent once. Empty counts as missing (RFC 6749 3.1); sent more than once is ambiguous. */
function param(query: URLSearchParams, name: string): Param {
	const values = query.getAll(name).filter((v) => v !== '');
	if (values.length === 0) return { kind: 'missing' };
	if (values.length > 1) return { kind: 'repeated', count: values.length };
	return { kind: 'value', value: values[0]! };
}

function rowError<R extends AuthorisationErrorId>(rowId: R, causeId: CauseIdOf<R>, detail: string): { ok: false; error: AuthorizationError } {
	// The signature pairs the row with its own cause; TypeScript cannot follow that pairing through the generic.
	const error = { kind: 'row', rowId, causeId, message: authorisationMessage(rowId), detail } as AuthorizationError;
	return { ok: false, error };
}

function repeatedDetail(name: string, count: number): string {
	return `The link carries \`${name}\` ${count} times; send it once.`;
}

function checkRedirectUri(client: SandboxClient, p: Param): { ok: true; redirectUri: string } | { ok: false; error: AuthorizationError } {
	if (p.kind === 'missing') return rowError('auth-invalid-redirect-uri', 'missing', 'The link has no `redirect_uri`.');
	if (p.kind === 'repeated') return rowError('auth-invalid-redirect-uri', 'missing', repeatedDetail('redirect_uri', p.count));
	if (!URL.canParse(p.value)) {
		return rowError('auth-invalid-redirect-uri', 'missing', `\`${p.value}\` is not an absolute URI (it needs a scheme, such as https://).`);
	}
	const given = registeredPart(p.value);
	if (!client.redirect_uris.some((r) => registeredPart(r) === given)) {
		return rowError(
			'auth-invalid-redirect-uri',
			'not-registered',
			`\`${given}\` is not registered for ${client.name}. Registered: ${client.redirect_uris.join(', ')}. Scheme, authority and path must match exactly.`
		);
	}
	return { ok: true, redirectUri: p.value };
}

/** Sandbox choice 'country-outside-plan': compared case-insensitively against the client's plan. */
function checkPlanCountry(client: SandboxClient, p: Param): { ok: true; country: string } | { ok: false; error: AuthorizationError } {
	const plan = `${client.name}'s plan covers: ${client.countries.join(', ')}.`;
	const outside = (message: string) => ({ ok: false as const, error: { kind: 'choice' as const, choiceId: 'country-outside-plan' as const, message } });
	if (p.kind === 'missing') return outside(`The link has no \`country\`. ${plan}`);
	if (p.kind === 'repeated') return outside(`${repeatedDetail('country', p.count)} ${plan}`);
	const country = p.value.toLowerCase();
	if (client.countries.some((c) => c.toLowerCase() === country)) return { ok: true, country };
	const format = checkCountry(country);
	const hint = !format.ok && format.reason === 'gb-not-uk' ? ' The United Kingdom is `uk`, not `gb`.' : '';
	return outside(`Country \`${p.value}\` is not in the client's plan: ${plan}${hint}`);
}

/** Checks a request to `/sso/{supergroup}`, in the order of sandbox choice 'authorisation-check-order'. */
export function checkAuthorizationRequest(scope: ClientScope, supergroup: string, query: URLSearchParams): AuthorizationCheck {
	if (!isSupergroup(supergroup)) {
		return {
			ok: false,
			error: {
				kind: 'choice',
				choiceId: 'unknown-supergroup',
				message: `\`${supergroup}\` is not a supergroup. The link's path must be /sso/ followed by one of: ${SUPERGROUP_VALUES.join(', ')}.`
			}
		};
	}

	const clientId = param(query, 'client_id');
	if (clientId.kind === 'missing') return rowError('auth-invalid-client', 'missing', 'The link has no `client_id`.');
	if (clientId.kind === 'repeated') return rowError('auth-invalid-client', 'unknown-client', repeatedDetail('client_id', clientId.count));
	const found = scope.findClient(clientId.value);
	if (!found) return rowError('auth-invalid-client', 'unknown-client', `No client has the id \`${clientId.value}\`.`);
	const { client, workspace } = found;
	const rest = checkClientRequest(client, query);
	return rest.ok ? { ok: true, request: { supergroup, client, workspace, redirectUri: rest.redirectUri, country: rest.country } } : rest;
}

/** The checks after the client is known: redirect URI, response type, country. */
function checkClientRequest(
	client: SandboxClient,
	query: URLSearchParams
): { ok: true; redirectUri: string; country: string } | { ok: false; error: AuthorizationError } {
	const redirect = checkRedirectUri(client, param(query, 'redirect_uri'));
	if (!redirect.ok) return redirect;

	const responseType = param(query, 'response_type');
	if (responseType.kind !== 'value' || responseType.value !== 'code') {
		const detail =
			responseType.kind === 'missing'
				? 'The link has no `response_type`; send `response_type=code`.'
				: responseType.kind === 'repeated'
					? repeatedDetail('response_type', responseType.count)
					: `\`response_type=${responseType.value}\` is not supported; send \`response_type=code\`.`;
		return rowError('auth-unsupported-response-type', 'not-code', detail);
	}

	const country = checkPlanCountry(client, param(query, 'country'));
	if (!country.ok) return country;

	return { ok: true, redirectUri: redirect.redirectUri, country: country.country };
}

/** Whether the user has an active verification in the supergroup on the workspace's clock. */
export function hasActiveVerification(workspace: Pick<SandboxWorkspace, 'today'>, user: SandboxUser, supergroup: Supergroup): boolean {
	return isActiveIn(user.verifications, supergroup, workspace.today());
}

function parameterName(pair: string): string {
	const raw = pair.split('=')[0]!;
	return decodeFormComponentStrictly(raw) ?? raw;
}

/**
 * The redirect URI with its extra query parameters kept byte for byte, any `code` among them removed, and the new
 * code (if any) added (4.1.1; sandbox choice 'cancel-redirect').
 */
export function redirectLocation(redirectUri: string, code: string | null): string {
	const hashAt = redirectUri.indexOf('#');
	const withoutFragment = hashAt === -1 ? redirectUri : redirectUri.slice(0, hashAt);
	const fragment = hashAt === -1 ? '' : redirectUri.slice(hashAt);
	const base = registeredPart(withoutFragment);
	const query = withoutFragment.slice(base.length + 1);
	const kept = query.split('&').filter((pair) => pair !== '' && parameterName(pair) !== 'code');
	if (code !== null) kept.push(`code=${encodeURIComponent(code)}`);
	return `${base}${kept.length ? `?${kept.join('&')}` : ''}${fragment}`;
}

/**
 * The redirect after the user's decision. Authorise issues a code in the request's workspace, bound to the client,
 * the user (of that workspace) and the exact redirect URI, unless the client has an `authorise-cancel` outcome rule:
 * that Authorise uses it up and redirects as a cancel (sandbox choice 'outcome-rules'). `via` names the request
 * for the rule's history.
 */
/** The user's Cancel, on any page of the flow (signed in or not): back to the redirect URI without a code. */
export function cancelled(request: AuthorizationRequest): { location: string } {
	return { location: redirectLocation(request.redirectUri, null) };
}

export function decide(request: AuthorizationRequest, userId: number, decision: 'authorize' | 'cancel', via: string): { location: string } {
	if (decision === 'cancel') return cancelled(request);
	if (request.workspace.takeOutcome(request.client.client_id, 'authorise', via) === 'authorise-cancel') {
		return { location: redirectLocation(request.redirectUri, null) };
	}
	const code = request.workspace.issueCode({ clientId: request.client.client_id, userId, redirectUri: request.redirectUri });
	return { location: redirectLocation(request.redirectUri, code) };
}
