/**
 * What lets evidence be matched to a run once its secrets are hidden: the last `TAIL_LENGTH` characters of a grant
 * code or an access token, which the sandbox's log keeps (http/secrets.ts, audience `log`) and a saved run keeps
 * beside each redacted token (`RecordedExchange.tokenTails`). Too short to use or guess a token from, long enough
 * to tell the tokens of one flow apart.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import { meCredential, sentParam } from '$lib/flow/request-params';
import { MASK } from '$lib/http/exchange';
import { decodeQueryComponent } from '$lib/http/form';
import { headerValue } from '$lib/http/headers';
import { TAIL_LENGTH } from '$lib/http/secrets';

const decoded = (recorded: string) => (recorded.includes('%') ? decodeQueryComponent(recorded) : recorded);

/** The tail of a value as recorded (whole, or masked but for its tail as the sandbox logs it); null when none shows. */
export function valueTail(recorded: string): string | null {
	const value = decoded(recorded);
	if (value.startsWith(MASK)) {
		const tail = value.slice(MASK.length);
		return tail.length === TAIL_LENGTH && !tail.includes(MASK) ? tail : null;
	}
	if (value.includes(MASK)) return null;
	// As the log's masking: a short value is hidden whole, its tail would be most of it.
	return value.length > TAIL_LENGTH * 4 ? value.slice(-TAIL_LENGTH) : null;
}

/** Two recorded values that may be the same secret: equal, or one masked but for a tail the other ends with. */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
	if (!a || !b) return false;
	const [da, db] = [decoded(a), decoded(b)];
	if (da === db) return !da.includes(MASK) || valueTail(da) !== null;
	if (!da.includes(MASK) && !db.includes(MASK)) return false;
	const tail = valueTail(da);
	return tail !== null && tail === valueTail(db);
}

/**
 * What `sameSecret` compares a value by: its tail when one shows, else the value itself. Two values that may be
 * the same secret have the same key, so evidence is matched by looking its keys up instead of comparing each pair.
 */
export function secretKey(recorded: string): string {
	return valueTail(recorded) ?? decoded(recorded);
}

function issuedToken(exchange: RecordedExchange): string | undefined {
	if (exchange.step !== 'token' || exchange.response?.status !== 200) return undefined;
	try {
		const body = JSON.parse(exchange.response.body) as unknown;
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
