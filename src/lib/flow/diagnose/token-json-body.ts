/**
 * A token exchange sent as a JSON body: the token endpoint reads its parameters from the query string (4.2) or an
 * application/x-www-form-urlencoded body, so it finds none of them and refuses the request. Told from the request's
 * content type (or its body) and the refusal, so the verdict names the body's format, not a missing parameter.
 */
import { SECTIONS } from '$lib/protocol';
import { jsonBodyFields, requestHeader } from '../request-params';
import type { Numbered } from '../server-side';
import type { CrossFlag } from '../flags';

/** Whether the exchange sent its parameters as JSON and was refused: the JSON body is then the cause. */
export function refusedJsonBody({ request, response }: Numbered['exchange']): boolean {
	return response !== null && response.status !== 200 && jsonBodyFields(request) !== null;
}

export function jsonBodyFlags(tokens: Numbered[]): CrossFlag[] {
	return tokens
		.filter(({ exchange }) => refusedJsonBody(exchange))
		.map(({ exchange, n }) => {
			const type = requestHeader(exchange.request, 'content-type');
			return {
				id: 'token-json-body',
				severity: 'error' as const,
				message: `Exchange ${n} (token) sent its parameters as a JSON body${type ? ` (Content-Type: ${type})` : ''}; the token endpoint reads them from the query string or an application/x-www-form-urlencoded body, so it found none of them and answered ${exchange.response!.status}.`,
				section: SECTIONS.tokenEndpoint,
				fix: 'Send `grant_type`, `code`, `redirect_uri`, `client_id` and `client_secret` in the query string (4.2) or as a form body (Content-Type: application/x-www-form-urlencoded), not as JSON.',
				exchangeId: exchange.id
			};
		});
}
