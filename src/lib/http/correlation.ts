/**
 * The values that tie the requests of one sign-in together, read from a request and its response as recorded:
 * the client, the sandbox's sign-in flow id, the grant code the redirect carried or the exchange sent, the token
 * an exchange issued or me.json presented. The sandbox digests them into its log's correlation keys (the values
 * themselves are masked there); the flow engine joins an import's exchanges on them directly. One reading for both.
 */
import { base64DecodeUtf8, uriParts } from './encoding';
import { decodeQueryComponent, splitRawQuery } from './form';
import { headerValue } from './headers';
import { looksLikeJson, parseJson } from './json';
import { ENDPOINT_PATHS } from '../protocol/endpoints';

interface Recorded {
	readonly headers: readonly { readonly name: string; readonly value: string }[];
	readonly body: string | null;
}

export interface CorrelationValues {
	clientId?: string;
	/** The sandbox sign-in's flow id: in a `/flow/{id}` page's path, or the Location a link is answered with. */
	authFlow?: string;
	/** The grant code the response's redirect carried, or the one the request sent to the token endpoint. */
	code?: string;
	/** The credential the request presented: me.json's access token, a refresh grant's refresh token. */
	presented?: string;
	/** The tokens the response issued (access, then refresh). */
	issued: string[];
}

const { token: TOKEN_PATH, me: ME_PATH, signInPage: FLOW_PATH } = ENDPOINT_PATHS;

function bodyParams(message: Recorded): Record<string, unknown> {
	const body = message.body ?? '';
	if (looksLikeJson(body)) {
		const parsed = parseJson(body);
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
	}
	return Object.fromEntries(splitRawQuery(body).map((p) => [p.name, p.value]));
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** What a request names of the sandbox's: its client, the grant code it exchanges, the token it presents. */
export type RequestNames = Pick<CorrelationValues, 'clientId' | 'code' | 'presented'>;

/** Which of the sandbox's endpoints a request is to, as far as what it names goes. */
export type NamingEndpoint = 'token' | 'me' | 'other';

/**
 * What a request to `endpoint` names, from its parameters (`param`: however they were sent, the query's winning)
 * and its Authorization header: me.json's access token; a token request's client (a Basic or Bearer header's
 * wins), code or refresh token; another request's client_id. The sandbox reads it from the parameters it parsed.
 */
export function requestNames(endpoint: NamingEndpoint, param: (name: string) => unknown, authorization: string): RequestNames {
	if (endpoint === 'me') return definedOnly({ presented: /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ?? text(param('access_token')) });
	const names: RequestNames = { clientId: text(param('client_id')) };
	if (endpoint === 'token') {
		const basic = /^(?:Basic|Bearer)\s+(\S+)$/i.exec(authorization)?.[1];
		const decoded = basic ? base64DecodeUtf8(basic) : null;
		if (decoded?.includes(':')) names.clientId = decodeQueryComponent(decoded.slice(0, decoded.indexOf(':')));
		names.code = text(param('code'));
		names.presented = text(param('refresh_token'));
	}
	return definedOnly(names);
}

/** Without the names it does not carry (an entry's keys are built from what is present). */
function definedOnly(names: RequestNames): RequestNames {
	const defined: RequestNames = {};
	if (names.clientId !== undefined) defined.clientId = names.clientId;
	if (names.code !== undefined) defined.code = names.code;
	if (names.presented !== undefined) defined.presented = names.presented;
	return defined;
}

/** Reads the correlation values of one exchange. `url` is absolute or a request target; bodies as recorded. */
export function correlationValues(request: Recorded & { readonly url: string }, response: Recorded | null): CorrelationValues {
	const { path, query } = uriParts(request.url);
	const queryParams = Object.fromEntries(splitRawQuery(query).map((p) => [p.name, p.value]));
	const params: Record<string, unknown> = { ...bodyParams(request), ...queryParams };
	const authorization = headerValue(request.headers, 'authorization') ?? '';
	const values: CorrelationValues = { issued: [] };

	const flowId = FLOW_PATH.exec(path)?.[1];
	if (flowId) values.authFlow = flowId;
	const location = response ? headerValue(response.headers, 'location') : undefined;
	if (location !== undefined) {
		const target = uriParts(location);
		const startedFlow = FLOW_PATH.exec(target.path)?.[1];
		if (startedFlow && !flowId) values.authFlow = startedFlow;
		const code = splitRawQuery(target.query).find((p) => p.name === 'code')?.value;
		if (code) values.code = code;
	}

	const endpoint = ME_PATH.test(path) ? 'me' : TOKEN_PATH.test(path) ? 'token' : 'other';
	Object.assign(values, requestNames(endpoint, (name) => params[name], authorization));
	if (endpoint === 'token') {
		const answer = response && response.body ? bodyParams(response) : {};
		values.issued = [text(answer['access_token']), text(answer['refresh_token'])].filter((t) => t !== undefined);
	}
	return values;
}
