/**
 * What a token exchange issued, read with the interface's schema. Apart from the exchange types (`exchange.ts`,
 * `$lib/http/exchange.ts`) so that the browser, which imports them and MASK, does not ship zod.
 */
import { TokenResponse } from '$lib/protocol/schemas';
import type { RecordedExchange } from './exchange';
import { jsonParse } from '$lib/http/json';

/** The token response of a successful exchange at the token endpoint; null for anything else. */
export function issuedTokens(exchange: RecordedExchange): TokenResponse | null {
	if (exchange.response?.status !== 200) return null;
	try {
		const parsed = TokenResponse.safeParse(jsonParse(exchange.response.body));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
