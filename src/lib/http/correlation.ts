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

	if (ME_PATH.test(path)) {
		values.presented = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ?? text(params['access_token']);
		return values;
	}
	values.clientId = text(params['client_id']);
	if (TOKEN_PATH.test(path)) {
		const basic = /^(?:Basic|Bearer)\s+(\S+)$/i.exec(authorization)?.[1];
		const decoded = basic ? base64DecodeUtf8(basic) : null;
		if (decoded?.includes(':')) values.clientId = decodeQueryComponent(decoded.slice(0, decoded.indexOf(':')));
		values.code = text(params['code']);
		values.presented = text(params['refresh_token']);
		const answer = response && response.body ? bodyParams(response) : {};
		values.issued = [text(answer['access_token']), text(answer['refresh_token'])].filter((t) => t !== undefined);
	}
	return values;
}
