/**
 * A token exchange whose client credentials went in an Authorization header the token endpoint could not read: the
 * sandbox reads `Basic` (or `Bearer`) followed by base64(client_id:client_secret) (sandbox choice
 * 'authorization-header-formats'), so the secret alone after `Bearer` is no credential, however right the secret.
 * Told from the request's header and the invalid_client answer, so the fix is the format, not "use the secret issued".
 */
import { SECTIONS } from '$lib/protocol';
import { MASK } from '$lib/http/exchange';
import { requestHeader } from '../request-params';
import { jsonError, jsonString } from './diagnose-annotation';
import type { Numbered } from '../server-side';
import type { CrossFlag } from '../flags';

/** What the answer's error_description says when it names the header's format: no credential could be read from it. */
export const NAMES_HEADER_FORMAT = /Authorization header.{0,60}(must be|base64)/i;

/** Whether a header payload decodes to `client_id:client_secret`. */
function decodesToPair(payload: string): boolean {
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(payload)) return false;
	try {
		return atob(payload).indexOf(':') > 0;
	} catch {
		return false;
	}
}

/** The answer's error_description, or empty. */
const description = (body: string) => jsonString(body, 'error_description') ?? '';

/**
 * Whether the exchange was refused as invalid_client for the format of its Authorization header: its payload, when
 * the record shows it, is not base64(client_id:client_secret); when masked (the sandbox's log), the answer says so.
 */
export function unreadHeaderCredentials({ request, response }: Numbered['exchange']): boolean {
	const header = requestHeader(request, 'authorization');
	if (header === undefined || response === null || response.status !== 401) return false;
	if (jsonError(response.body) !== 'invalid_client') return false;
	const payload = /^\S+\s+(\S+)\s*$/.exec(header)?.[1];
	if (payload !== undefined && !payload.includes(MASK)) return !decodesToPair(payload);
	return NAMES_HEADER_FORMAT.test(description(response.body));
}

export function headerCredentialFlags(tokens: Numbered[]): CrossFlag[] {
	return tokens
		.filter(({ exchange }) => unreadHeaderCredentials(exchange))
		.map(({ exchange, n }) => {
			const scheme = /^\S+/.exec(requestHeader(exchange.request, 'authorization')!)?.[0];
			const said = description(exchange.response!.body);
			return {
				id: 'token-header-credentials',
				severity: 'error' as const,
				message: `Exchange ${n} (token) sent its client credentials in an \`Authorization: ${scheme} …\` header that is not base64(client_id:client_secret), so the service could read no client ID and secret from it and answered 401 invalid_client${said ? ` ("${said}")` : ''}.`,
				section: SECTIONS.tokenEndpoint,
				fix: 'Send `client_id` and `client_secret` as parameters (the query string or a form body), or the header `Authorization: Basic base64(client_id:client_secret)`; the secret alone after `Bearer` is not a credential the token endpoint reads.',
				exchangeId: exchange.id
			};
		});
}
