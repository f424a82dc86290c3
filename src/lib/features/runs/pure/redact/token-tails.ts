/**
 * What lets evidence be matched to a run once its secrets are hidden: the last `TAIL_LENGTH` characters of a grant
 * code or an access token, which the sandbox's log keeps (http/secrets.ts, audience `log`) and a saved run keeps
 * beside each redacted token (`RecordedExchange.tokenTails`). Too short to use or guess a token from, long enough
 * to tell the tokens of one flow apart.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import { meCredential, sentParam } from '$lib/flow/request-params';
import { headerValue } from '$lib/http/headers';
import { valueTail } from '$lib/http/secret-tail';
import { jsonParse } from '$lib/http/json';

function issuedToken(exchange: RecordedExchange): string | undefined {
	if (exchange.step !== 'token' || exchange.response?.status !== 200) return undefined;
	try {
		const body = jsonParse(exchange.response.body) as unknown;
		const token = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).access_token : undefined;
		return typeof token === 'string' ? token : undefined;
	} catch {
		return undefined;
	}
}

/** The access token an exchange issued (token) or presented (me.json), as recorded. */
export function exchangeToken(exchange: RecordedExchange): string | undefined {
	return exchange.step === 'me' ? meCredential(exchange.request) : issuedToken(exchange);
}

/** The tails of the tokens an exchange issued or presented: as kept, and as its values still show. */
export function tokenTailsOf(exchange: RecordedExchange): string[] {
	const token = exchangeToken(exchange);
	const shown = token === undefined ? null : valueTail(token);
	return [...new Set([...(exchange.tokenTails ?? []), ...(shown === null ? [] : [shown])])];
}

/** The exchange with its token's tail kept, before redaction hides the token; the same object when nothing is new. */
export function keepTokenTails(exchange: RecordedExchange): RecordedExchange {
	const tails = tokenTailsOf(exchange);
	const kept = exchange.tokenTails ?? [];
	return tails.length === kept.length ? exchange : { ...exchange, tokenTails: tails };
}

/** The grant code a token exchange sent, or the redirect back carried (an arrival's URL, a link's or sign-in page's Location). */
export function exchangeCode(exchange: RecordedExchange): string | undefined {
	if (exchange.step === 'token') return sentParam(exchange.request, 'code');
	if (exchange.step === 'arrival' || exchange.step === 'sign-in' || exchange.step === 'link') {
		const location = exchange.response ? headerValue(exchange.response.headers, 'location') : undefined;
		const urls = [exchange.step === 'arrival' ? exchange.request.url : undefined, location];
		for (const url of urls) {
			const code = url && URL.canParse(url) ? new URL(url).searchParams.get('code') : null;
			if (code) return code;
		}
	}
	return undefined;
}
