/**
 * What a token exchange issued, read by name. Apart from the exchange types (`exchange.ts`, `$lib/http/exchange.ts`)
 * so that the browser, which imports them and MASK, does not ship zod.
 */
import { z } from 'zod';
import type { RecordedExchange } from './exchange';
import { jsonParse } from '$lib/http/json';

/**
 * The tokens of a successful answer. Read leniently on purpose: an answer that departs from 2.3 (`token_type`
 * "bearer", a number as a string, a field missing) still carries credentials, which the explorer must hold and mask;
 * the diagnosis says where it departs (diagnose-token.ts validates it against the interface's schema).
 */
const Issued = z.object({
	access_token: z.string().min(1),
	// Missing, empty or of another type: null (`catch` takes every failure of the field, absence included).
	refresh_token: z.string().min(1).nullable().catch(null),
	expires_in: z.number().nullable().catch(null)
});

export type IssuedTokens = z.infer<typeof Issued>;

/** The tokens a successful exchange at the token endpoint issued; null for anything else. */
export function issuedTokens(exchange: RecordedExchange): IssuedTokens | null {
	if (exchange.response?.status !== 200) return null;
	try {
		const parsed = Issued.safeParse(jsonParse(exchange.response.body));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
