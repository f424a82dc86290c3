/**
 * Whether the page a user was left on reads as an error, judged where the app's answer was a redirect of its own
 * and the browser followed it (omniauth's 302 to /auth/failure?message=…): a 4xx or 5xx, or error wording in its
 * path or its title. "You cancelled" is no error wording; "Sign-in failed" and `/auth/failure` are.
 */
import type { RecordedExchange } from '../exchange';

/**
 * Words that tell the user something went wrong: on a page the app answered a normal outcome with (a sign-in, a
 * cancel), they make it an error page whatever its status. The one list, for the engine and the app check's judge.
 */
export const ERROR_WORDING = /\b(?:error|fail(?:ed|ure)?|exception|went wrong|invalid_\w+|access_denied|unauthori[sz]ed)\b/i;

export function pageSaysError(exchange: RecordedExchange): boolean {
	const status = exchange.response?.status ?? 0;
	if (status >= 400) return true;
	const path = URL.canParse(exchange.request.url) ? new URL(exchange.request.url).pathname : '';
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(exchange.response?.body ?? '')?.[1] ?? '';
	return ERROR_WORDING.test(path) || ERROR_WORDING.test(title);
}
