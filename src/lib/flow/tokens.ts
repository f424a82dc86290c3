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
	refresh_token: z.string().min(1).nullish().catch(null),
	expires_in: z.number().nullish().catch(null)
});

export interface IssuedTokens {
	access_token: string;
	refresh_token: string | null;
	expires_in: number | null;
}

/** The tokens a successful exchange at the token endpoint issued; null for anything else. */
export function issuedTokens(exchange: RecordedExchange): IssuedTokens | null {
	if (exchange.response?.status !== 200) return null;
	try {
		const parsed = Issued.safeParse(jsonParse(exchange.response.body));
		return parsed.success ? { access_token: parsed.data.access_token, refresh_token: parsed.data.refresh_token ?? null, expires_in: parsed.data.expires_in ?? null } : null;
	} catch {
		return null;
	}
}
