/**
 * How an app should handle the answer one of its requests got, when that answer was fine or asked for (an outcome
 * rule's) and the question is the app's handling of it: what to do with it, by the step and the answer's status,
 * and for a me.json 200, by what was special in it (the `group` key, an empty list). Null when nothing is to say.
 */
import { jsonError } from '../diagnose/diagnose-annotation';
import type { RecordedExchange } from '../exchange';
import { specialInMe } from '../server-side';

const ME_HANDLING: Record<number, string> = {
	400: "Handle me.json's 400 with a page of your own, and send the headers 4.3 requires (`Host`, `User-Agent`)",
	401: "Handle me.json's 401 (the access token was not accepted): send the user through the sign-in again for a new token, with a page of your own",
	403: "Handle me.json's 403 with a page of your own (sign-in unavailable for now), and send a `User-Agent` on every me.json request (4.3)",
	404: "Handle me.json's 404 (the user asked for their account to be deleted): tell them the account is closed, with a page of your own"
};

/** `today`: the day the answer is read on (YYYY-MM-DD), for a verification's expiry. */
export function handlingOf(exchange: RecordedExchange, today: string): string | null {
	const status = exchange.response?.status;
	if (status === undefined) return null;
	if (exchange.step === 'me') {
		if (status === 200) return specialInMe(exchange, today).map((s) => s.fix.replace(/\.$/, '')).join('; ') || null;
		return ME_HANDLING[status] ?? null;
	}
	if (exchange.step === 'token' && status !== 200) return `Handle the token endpoint's ${answerName(exchange)} with a page of your own (sign in again, or sign-in unavailable)`;
	return null;
}

/** An answer as a person names it: its status, and the `error` of a JSON error body (`401 \`invalid_client\``). */
export function answerName(exchange: RecordedExchange): string {
	const error = jsonError(exchange.response?.body ?? '');
	return `${exchange.response?.status}${error !== undefined ? ` \`${error}\`` : ''}`;
}
