/**
 * A token exchange sent as a JSON body: the token endpoint reads its parameters from the query string (4.2) or an
 * application/x-www-form-urlencoded body, not JSON, and refuses the request. Told from the request's content type (or
 * its body) and the refusal, so the verdict names the body's format, not a missing parameter, and says which
 * parameters the query string carried besides.
 */
import { SECTIONS, TOKEN_PARAMETERS } from '$lib/protocol';
import { jsonBodyFields, requestHeader, requestParam } from '../request-params';
import type { Numbered } from '../server-side';
import type { CrossFlag } from '../flags';

/** Whether the exchange sent its parameters as JSON and was refused: the JSON body is then the cause. */
export function refusedJsonBody({ request, response }: Numbered['exchange']): boolean {
	return response !== null && response.status !== 200 && jsonBodyFields(request) !== null;
}

const names = (list: readonly string[]) => list.map((name) => `\`${name}\``).join(', ');

export function jsonBodyFlags(tokens: Numbered[]): CrossFlag[] {
	return tokens
		.filter(({ exchange }) => refusedJsonBody(exchange))
		.map(({ exchange, n }) => {
			const type = requestHeader(exchange.request, 'content-type');
			const inBody = TOKEN_PARAMETERS.filter((name) => jsonBodyFields(exchange.request)?.[name] !== undefined);
			const inQuery = TOKEN_PARAMETERS.filter((name) => requestParam(exchange.request, name) !== undefined);
			// Where the parameters were is evidence: the query string may carry some, or all, of them already.
			const query =
				inQuery.length === 0
					? 'The query string carried none of them.'
					: `The query string carried ${inQuery.length === TOKEN_PARAMETERS.length ? 'all of them' : names(inQuery)}: the JSON body, not a missing parameter, is what to change.`;
			return {
				id: 'token-json-body',
				severity: 'error' as const,
				message: `Exchange ${n} (token) sent a JSON body${type ? ` (Content-Type: ${type})` : ''}${inBody.length > 0 ? ` holding ${names(inBody)}` : ''}; the token endpoint reads its parameters from the query string or an application/x-www-form-urlencoded body, not JSON, and answered ${exchange.response!.status}. ${query}`,
				section: SECTIONS.tokenEndpoint,
				fix:
					inQuery.length === TOKEN_PARAMETERS.length
						? 'Send the request without a body: its query string already carries every parameter (4.2).'
						: 'Send `grant_type`, `code`, `redirect_uri`, `client_id` and `client_secret` in the query string (4.2) or as a form body (Content-Type: application/x-www-form-urlencoded), not as JSON.',
				exchangeId: exchange.id
			};
		});
}
