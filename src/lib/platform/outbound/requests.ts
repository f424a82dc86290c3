/**
 * The exact requests of steps 3 and 4: `POST {accounts_url}/oauth/token` (4.2) and `GET {accounts_url}/api/v3/me.json`
 * (4.3), in each transport the explorer offers. Only what is given is sent, so a missing piece stays missing.
 */
import { AUTHORIZATION_CODE, CLIENT_CREDENTIALS, TOKEN_PARAMETERS, type TokenParameter } from '$lib/protocol';
import { encodeComponent, encodeQuery } from '$lib/http/encoding';
import type { HttpHeader } from '$lib/http/exchange';
import type { OutboundRequest } from './outbound';

export const USER_AGENT = 'sso-flow-explorer/0.1';

export type TokenTransport = 'query' | 'form' | 'basic' | 'bearer';

export interface TokenRequestInput {
	accountsUrl: string;
	code?: string;
	redirectUri?: string;
	clientId?: string;
	clientSecret?: string;
	/** Defaults to `authorization_code`, the only value the interface supports. */
	grantType?: string;
	/**
	 * query: every parameter in the query string, no body (the interface's form). form: an
	 * x-www-form-urlencoded body. basic / bearer: the client's credentials in an Authorization header, the rest in
	 * the query string.
	 */
	transport: TokenTransport;
	/** Parameter names to leave out, e.g. `['code']` to show the invalid_request row. */
	omit?: TokenParameter[];
	/** What to change of the exchange, as a client with that bug would (the walk's tamper buttons, the scenarios). */
	tamper?: TokenTamper;
}

/**
 * The ways the explorer sends a token exchange other than as the interface describes: one vocabulary for the walk's
 * tamper buttons and the scenario library, each changing one thing of what is sent.
 */
export interface TokenTamper {
	/** redirect_uri with an extra query parameter (`TAMPERED_PARAMETER`): a URI other than the link's. */
	redirectUriExtra?: boolean;
	/** The client's secret with something added: a secret that is not the client's. */
	wrongSecret?: boolean;
	/** Another grant_type than `authorization_code`. */
	grantType?: string;
}

/** The parameter a tampered redirect_uri gains. */
export const TAMPERED_PARAMETER = 'tampered=1';

/** The fields of a token exchange after `tamper`. */
function tampered(input: TokenRequestInput): Pick<TokenRequestInput, 'redirectUri' | 'clientSecret' | 'grantType'> {
	const { tamper = {}, redirectUri, clientSecret, grantType } = input;
	return {
		redirectUri: tamper.redirectUriExtra && redirectUri !== undefined ? `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${TAMPERED_PARAMETER}` : redirectUri,
		clientSecret: tamper.wrongSecret ? `${clientSecret ?? ''}-wrong` : clientSecret,
		grantType: tamper.grantType ?? grantType
	};
}

const endpoint = (accountsUrl: string, path: string) => `${accountsUrl.trim().replace(/\/+$/, '')}${path}`;

const withQuery = (url: string, params: [string, string][]) => (params.length === 0 ? url : `${url}?${encodeQuery(params)}`);

export function buildTokenRequest(input: TokenRequestInput): OutboundRequest {
	const omit = new Set(input.omit ?? []);
	const { redirectUri, clientSecret, grantType } = tampered(input);
	const values: Record<TokenParameter, string | undefined> = {
		grant_type: grantType ?? AUTHORIZATION_CODE,
		code: input.code,
		redirect_uri: redirectUri,
		client_id: input.clientId,
		client_secret: clientSecret
	};
	const params = TOKEN_PARAMETERS.flatMap((name): [TokenParameter, string][] => {
		const value = values[name];
		return value === undefined || omit.has(name) ? [] : [[name, value]];
	});
	const url = endpoint(input.accountsUrl, '/oauth/token');
	const headers: HttpHeader[] = [
		{ name: 'User-Agent', value: USER_AGENT },
		{ name: 'Accept', value: 'application/json' }
	];

	switch (input.transport) {
		case 'query':
			return { method: 'POST', url: withQuery(url, params), headers, body: null };
		case 'form':
			headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
			return { method: 'POST', url, headers, body: encodeQuery(params) };
		case 'basic':
		case 'bearer': {
			const isCredential = (name: TokenParameter) => (CLIENT_CREDENTIALS as readonly TokenParameter[]).includes(name);
			const credentials = params.filter(([name]) => isCredential(name));
			if (credentials.length > 0) {
				// RFC 6749 2.3.1: each part form-urlencoded, then `id:secret` in base64.
				const id = encodeComponent(credentials.find(([n]) => n === 'client_id')?.[1] ?? '');
				const secret = encodeComponent(credentials.find(([n]) => n === 'client_secret')?.[1] ?? '');
				const scheme = input.transport === 'basic' ? 'Basic' : 'Bearer';
				headers.push({ name: 'Authorization', value: `${scheme} ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
			}
			return { method: 'POST', url: withQuery(url, params.filter(([name]) => !isCredential(name))), headers, body: null };
		}
	}
}

export interface MeRequestInput {
	accountsUrl: string;
	/** The access token (or, to show the 401 row, a grant code); absent: no token at all. */
	token?: string;
	transport: 'header' | 'query';
	/** false: send no User-Agent (the 7.3 403 row). */
	userAgent: boolean;
	/** false: send no Host header (the 7.3 400 row). Default true. */
	host?: boolean;
}

export function buildMeRequest(input: MeRequestInput): OutboundRequest {
	const url = endpoint(input.accountsUrl, '/api/v3/me.json');
	const headers: HttpHeader[] = [];
	if (input.userAgent) headers.push({ name: 'User-Agent', value: USER_AGENT });
	headers.push({ name: 'Accept', value: 'application/json' });
	const token = input.token;
	if (token !== undefined && input.transport === 'header') headers.push({ name: 'Authorization', value: `Bearer ${token}` });
	const query: [string, string][] = token !== undefined && input.transport === 'query' ? [['access_token', token]] : [];
	return { method: 'GET', url: withQuery(url, query), headers, body: null, ...(input.host === false ? { omitHost: true } : {}) };
}
