/**
 * An access or refresh token in what the app's own origin sent the browser: the redirect after an arrival, the
 * signed-in page, or the answer to the page's own API call. Recognised from evidence in the answer, never from a
 * path: a field or parameter named `access_token`/`refresh_token` with a value (in a redirect's Location, or in
 * what a person or a JSON reader gets of the body); a page's script that writes a token-like literal into the
 * browser's storage under a key named like a token; and, when the record holds the token exchange's answer (the
 * sandbox's log keeps a tail of each token), a token-like literal ending with an issued token's tail. The token
 * endpoint's own answer goes to the app's server, not the browser: it is never read here.
 */
import { SECTIONS } from '$lib/protocol';
import { MASK } from '$lib/http/exchange';
import { headerValue } from '$lib/http/headers';
import { TAIL_LENGTH, TOKEN_LITERAL, storedTokens } from '$lib/http/secrets';
import type { RecordedExchange } from '../exchange';
import type { CrossFlag } from '../flags';
import { linkRedirectUri, type FlowRecord } from '../record';
import { originOf, wordsOfAnswer, type Arrival } from './browser-arrivals';
import { KEEP_TOKENS_ON_SERVER, TOKEN_IN_BROWSER_RISK, handedWords, type TokenInAnswer } from './token-advice';

/** A field, parameter or assignment named like a token, with a value (not a script's `x.access_token` or a null). */
const TOKEN_FIELD = /["']?\b(access_token|refresh_token)\b["']?\s*[:=]\s*["']?(?!["'\s,}&]|null\b)/;

/** Quoted token-like literals anywhere in a body, for matching a known tail. */
const QUOTED_TOKEN = new RegExp(`(["'\`])(${TOKEN_LITERAL})\\1`, 'g');

/** Whether (and how) a response the browser got carries an access or refresh token; `tails`: issued tokens' tails. */
export function tokenInAnswer(response: RecordedExchange['response'], tails: readonly string[]): TokenInAnswer | null {
	if (!response) return null;
	const field = TOKEN_FIELD.exec(`${headerValue(response.headers, 'location') ?? ''}\n${wordsOfAnswer(response)}`);
	if (field) return { name: field[1]!, by: 'field' };
	const stored = storedTokens(response.body)[0];
	if (stored) return { name: stored.name, by: 'storage' };
	const literals = [...response.body.matchAll(QUOTED_TOKEN)].map((m) => m[2]!);
	return literals.some((literal) => tails.some((tail) => literal.endsWith(tail))) ? { name: 'access_token', by: 'tail' } : null;
}

/** The tails of the tokens the service issued in the record (its token endpoint's 200s), as their answers show them. */
export function issuedTokenTails(flow: FlowRecord): string[] {
	const tails = flow.exchanges.flatMap((e) => {
		if (e.step !== 'token' || e.response?.status !== 200) return [];
		const shown = [...e.response.body.matchAll(/"(?:access_token|refresh_token)"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!);
		const tails = shown.flatMap((value) => {
			const tail = value.startsWith(MASK) ? value.slice(MASK.length) : value.length > TAIL_LENGTH * 4 ? value.slice(-TAIL_LENGTH) : '';
			return tail.length === TAIL_LENGTH && !tail.includes('•') ? [tail] : [];
		});
		return [...(e.tokenTails ?? []), ...tails];
	});
	return [...new Set(tails)];
}

/** The browser's requests to the app's own origin (the redirect URI's): the arrivals and the page's own calls. */
function appAnswers(flow: FlowRecord): { exchange: RecordedExchange; n: number }[] {
	const origin = originOf(linkRedirectUri(flow) ?? flow.callback?.url);
	if (origin === undefined) return [];
	return flow.exchanges.flatMap((exchange, i) => (exchange.step === 'arrival' && originOf(exchange.request.url) === origin ? [{ exchange, n: i + 1 }] : []));
}

/** A token handed to the browser: the answer of the app's origin that carries it (exchange `n` of the record), and how. */
export interface TokenHanded {
	exchange: RecordedExchange;
	n: number;
	found: TokenInAnswer;
}

/** Each answer of the app's origin in the record that hands the browser a token, in order. */
export function tokensHanded(flow: FlowRecord): TokenHanded[] {
	const tails = issuedTokenTails(flow);
	return appAnswers(flow).flatMap(({ exchange, n }) => {
		const found = tokenInAnswer(exchange.response, tails);
		return found ? [{ exchange, n, found }] : [];
	});
}

export function tokenToBrowserFlags(flow: FlowRecord, all: Arrival[]): CrossFlag[] {
	return tokensHanded(flow).map(({ exchange, n, found }): CrossFlag => {
		const arrival = all.find((a) => a.exchange === exchange);
		const path = URL.canParse(exchange.request.url) ? new URL(exchange.request.url).pathname : exchange.request.url;
		const answer = arrival ? `answer to arrival ${arrival.k} at the redirect URI (exchange ${n})` : `answer to the page's call ${exchange.request.method} ${path} (exchange ${n})`;
		return {
			id: 'token-to-browser',
			severity: 'error',
			message: `Your app's ${answer} hands the browser ${handedWords(found)}. ${TOKEN_IN_BROWSER_RISK}`,
			section: SECTIONS.tokenResponse,
			fix: KEEP_TOKENS_ON_SERVER,
			exchangeId: exchange.id
		};
	});
}
