/**
 * Whether the page a user was left on reads as an error, judged where the app's answer was a redirect of its own
 * and the browser followed it (omniauth's 302 to /auth/failure?message=…): a 4xx or 5xx, or error wording in its
 * path or its title. "You cancelled" is no error wording; "Sign-in failed" and `/auth/failure` are.
 */
import type { RecordedExchange } from '../exchange';

const ERROR_WORDS = /\b(?:error|fail(?:ed|ure)?)\b/i;

export function pageSaysError(exchange: RecordedExchange): boolean {
	const status = exchange.response?.status ?? 0;
	if (status >= 400) return true;
	const path = URL.canParse(exchange.request.url) ? new URL(exchange.request.url).pathname : '';
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(exchange.response?.body ?? '')?.[1] ?? '';
	return ERROR_WORDS.test(path) || ERROR_WORDS.test(title);
}
