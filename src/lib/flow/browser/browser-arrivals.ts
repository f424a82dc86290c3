/**
 * The browser's side of a flow as a recording shows it: its arrivals at the redirect URI, the integrator's callback
 * page's answer to each (and what words in it mean), and how old each arrival's code was.
 */
import { TOKEN_ERRORS, type TokenErrorRow } from '$lib/protocol';
import { headerValue } from '$lib/http/headers';
import { classifyCallback, codeIn, registeredPart } from '../callback';
import { formatDuration } from '../diagnose/diagnose-annotation';
import type { RecordedExchange } from '../exchange';
import { isNotOfTheFlow } from './noise';
import { pageSaysError } from './page-says-error';
import { linkRedirectUri, type FlowRecord } from '../record';

/** What a client library says when the step after the redirect failed, and what that means. */
export interface LibraryMessage {
	pattern: RegExp;
	library: string;
	means: 'state' | 'token-unread' | 'token-error' | 'cancel-as-error';
}

export const LIBRARY_MESSAGES: readonly LibraryMessage[] = [
	{ pattern: /Unable to verify authorization request state/i, library: 'passport-oauth2', means: 'state' },
	{ pattern: /MismatchingStateError|mismatching_state|State not equal in request and response/i, library: 'Authlib or requests-oauthlib', means: 'state' },
	{ pattern: /Failed to obtain access token|InternalOAuthError/i, library: 'passport-oauth2', means: 'token-unread' },
	{ pattern: /TokenError/, library: 'passport-oauth2', means: 'token-error' },
	{ pattern: /MissingCodeError|Missing code parameter/i, library: 'oauthlib', means: 'cancel-as-error' }
];

/** The browser's arrival at the redirect URI, answered by the integrator's callback page. */
export interface Arrival {
	exchange: RecordedExchange;
	/** Its place among the run's exchanges, 1-based, as a person counts them. */
	n: number;
	/** Its place among the arrivals, 1-based. */
	k: number;
	index: number;
	/** The grant code it brought; null for a cancel (no `code`). */
	code: string | null;
	/** The app's answer to it. */
	answer: AppAnswer;
}

export interface AppAnswer {
	status: number | null;
	failed: boolean;
	/** The 7.2 rows whose `error` the page names. */
	rows: TokenErrorRow[];
	library: (LibraryMessage & { words: string }) | undefined;
	/** The page the app's own redirects led the browser to, when the record holds it: what the user was shown. */
	end?: { exchange: RecordedExchange; n: number };
}


export const clock = (iso: string) => `${iso.slice(11, 19)} UTC`;
/** A gap between two requests, for a person; a browser's own redirects take under a second. */
export const gap = (seconds: number) => (seconds < 1 ? 'under a second' : formatDuration(seconds));
export const millis = (iso: string) => Date.parse(iso);

/** Each 7.2 row with the pattern of its `error` as a word, made once. */
export const TOKEN_ERROR_WORDS = TOKEN_ERRORS.map((row) => ({ row, pattern: new RegExp(`\\b${row.error}\\b`) }));

/** A 2xx answer longer than this is an app's page, not an error page: its scripts may name every error there is. */
export const ERROR_PAGE_MAX_CHARS = 4096;

/**
 * The text of the app's answer in which error words count: the body of a 4xx or 5xx; of a 2xx, only a short text,
 * JSON or HTML body, and of HTML only what a person sees (no script, style or markup). A single-page app's 200 that
 * embeds an OAuth library's source names `invalid_request` and `TokenError` without failing; a redirect names nothing.
 */
export function wordsOfAnswer(response: RecordedExchange['response']): string {
	if (!response) return '';
	if (response.status >= 400) return response.body;
	if (response.status < 200 || response.status >= 300 || response.body.length > ERROR_PAGE_MAX_CHARS) return '';
	const type = headerValue(response.headers, 'content-type') ?? '';
	if (type !== '' && !/^(?:text\/|application\/(?:[\w.+-]*\+)?json)/i.test(type)) return '';
	const html = /html/i.test(type) || /^\s*</.test(response.body);
	return html
		? response.body.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<!--[\s\S]*?-->/g, ' ').replace(/<[^>]*>/g, ' ')
		: response.body;
}

/**
 * The app's answer to an arrival: failed when 4xx/5xx, or when it names a 7.2 error or a client library's failure.
 * When its redirect was followed (`end`), the page the browser ended on is the answer, judged with `pageSaysError`.
 */
export function appAnswer(exchange: RecordedExchange, end?: AppAnswer['end']): AppAnswer {
	const page = end?.exchange ?? exchange;
	const status = page.response?.status ?? null;
	const words = wordsOfAnswer(page.response);
	const rows = TOKEN_ERROR_WORDS.filter(({ pattern }) => pattern.test(words)).map(({ row }) => row);
	const found = LIBRARY_MESSAGES.map((m) => ({ ...m, match: m.pattern.exec(words) })).find((m) => m.match !== null);
	const library = found?.match ? { ...found, words: found.match[0] } : undefined;
	const failed = (status !== null && status >= 400) || rows.length > 0 || library !== undefined || (end !== undefined && pageSaysError(page));
	return { status, failed, rows, library, ...(end ? { end } : {}) };
}

/** "500", "302 to /home", "302 to /auth/failure?message=…, which answered 400", "500 naming `invalid_grant`, with passport-oauth2's \"TokenError\"". */
export function describeAnswer(exchange: RecordedExchange, answer: AppAnswer): string {
	if (answer.status === null) return 'nothing (no response recorded)';
	const own = exchange.response?.status ?? answer.status;
	const location = own >= 300 && own < 400 ? headerValue(exchange.response?.headers ?? [], 'location') : undefined;
	const ended = answer.end ? `, which answered ${answer.status} (exchange ${answer.end.n})` : '';
	const named = answer.rows.length > 0 ? ` naming ${answer.rows.map((r) => `\`${r.error}\``).join(' and ')}` : '';
	const library = answer.library ? `${named ? ',' : ''} with ${answer.library.library}'s "${answer.library.words}"` : '';
	return `${own}${location ? ` to ${location}` : ''}${ended}${named}${library}`;
}

/**
 * The page the browser ended on after the app's own redirects from the exchange at `index` (on its origin, at most
 * `MAX_FOLLOWED`), when the record holds it; undefined when the answer was no redirect or its target is not recorded.
 */
export function followedEnd(flow: FlowRecord, index: number): AppAnswer['end'] {
	const origin = originOf(flow.exchanges[index]?.request.url);
	// Each target's origin read once, not at every exchange the search passes (a long record has thousands).
	const own = (url: string | undefined) => (url !== undefined && originOf(url) === origin ? url : undefined);
	let end: AppAnswer['end'];
	let target = own(locationOf(flow.exchanges[index]!));
	for (let i = index + 1, hops = 0; target !== undefined && i < flow.exchanges.length && hops < MAX_FOLLOWED; i++) {
		const next = flow.exchanges[i]!;
		if (next.step !== 'arrival' || next.request.url !== target) continue;
		end = { exchange: next, n: i + 1 };
		target = own(locationOf(next));
		hops++;
	}
	return end;
}

/** How many of the app's own redirects are followed before the chain is a loop, not an answer (here and by the HAR import). */
export const MAX_FOLLOWED = 5;

/** A URL's origin; undefined for no URL or one that does not parse. */
export const originOf = (url: string | undefined) => (url !== undefined && URL.canParse(url) ? new URL(url).origin : undefined);

/** The arrival exchanges that are requests to the link's redirect URI (not the redirects that sent the browser there). */
export function arrivals(flow: FlowRecord): Arrival[] {
	const redirectUri = linkRedirectUri(flow) ?? flow.callback?.url;
	if (redirectUri === undefined || !URL.canParse(redirectUri)) return [];
	const part = registeredPart(new URL(redirectUri));
	const found: Arrival[] = [];
	flow.exchanges.forEach((exchange, index) => {
		if (exchange.step !== 'arrival' || !URL.canParse(exchange.request.url) || registeredPart(new URL(exchange.request.url)) !== part) return;
		if (isNotOfTheFlow(exchange.request.url)) return; // a debugger's file at the callback's path
		const result = classifyCallback(exchange.request.url, { redirectUri });
		if (result.kind === 'unexpected') return;
		found.push({ exchange, n: index + 1, k: found.length + 1, index, code: result.kind === 'code' ? result.code : null, answer: appAnswer(exchange, followedEnd(flow, index)) });
	});
	return found;
}

/** Where an answer's Location sends the browser, resolved against its request; undefined when it sends nowhere. */
export function locationOf(exchange: RecordedExchange): string | undefined {
	const location = headerValue(exchange.response?.headers ?? [], 'location');
	return location !== undefined && URL.canParse(location, exchange.request.url) ? new URL(location, exchange.request.url).href : undefined;
}

/** How long before an arrival its code was issued: since the redirect that sent it, else (not recorded) since the link. */
export interface CodeAge {
	seconds: number;
	/** What it is counted from, and that exchange's place, 1-based. */
	from: 'redirect' | 'link';
	n: number;
}

/**
 * The arrival's age: from the last response before it whose Location carried its code (for a cancel, whose Location
 * was the arrival itself), since a code lives 2 hours from its redirect, and a sign-in page may stay open for hours
 * before that; from the last authorisation link only when that response is not in the record.
 */
export function codeAge(flow: FlowRecord, arrival: Arrival): CodeAge | undefined {
	const before = flow.exchanges.slice(0, arrival.index);
	const issued = before.findLastIndex((e) => {
		const location = locationOf(e);
		return arrival.code !== null ? codeIn(location) === arrival.code : location === new URL(arrival.exchange.request.url).href;
	});
	const i = issued !== -1 ? issued : before.findLastIndex((e) => e.step === 'link');
	if (i === -1) return undefined;
	return { seconds: (millis(arrival.exchange.startedAt) - millis(flow.exchanges[i]!.startedAt)) / 1000, from: issued !== -1 ? 'redirect' : 'link', n: i + 1 };
}

/** "125 minutes after the redirect that issued its code (exchange 3)", and what a count from the link means. */
export function describeAge(age: CodeAge): string {
	const minutes = `${Math.round(age.seconds / 60)} minutes`;
	return age.from === 'redirect'
		? `${minutes} after the redirect that issued its code (exchange ${age.n})`
		: `${minutes} after the authorisation link (exchange ${age.n}); the redirect that issued its code is not in the record, so this counts from the link, and a sign-in page left open before signing in makes the code younger than that`;
}
