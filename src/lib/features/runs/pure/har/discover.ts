/**
 * Finding the flow among the requests of a browser's HAR, which also holds pages, scripts, fonts and analytics:
 * the authorisation link (GET …/sso/{supergroup} with `response_type` or `client_id`), the arrival at the redirect
 * URI (a request to it, or else a 30x whose Location points at it), the token exchange and me.json, and the app's own
 * calls that carry the arrival's code or, after a cancel, send none (a single-page app's API; app-calls.ts).
 */
import type { StepId } from '$lib/flow/exchange';
import type { HarEntry } from './har-schema';
import { CodeCarrier, sendsEmptyCode } from '$lib/flow/browser/app-calls';
import { isNotOfTheFlow } from '$lib/flow/browser/noise';
import { MAX_FOLLOWED } from '$lib/flow/browser/browser-arrivals';
import { stepOfRequest } from '$lib/flow/steps';
import { headerValue } from '$lib/http/headers';

export interface FoundEntry {
	/** Index in `log.entries`. */
	index: number;
	step: StepId;
	label: string;
}

export interface FoundFlow {
	entries: FoundEntry[];
	link: string | null;
	callback: { url: string; receivedAt: string } | null;
}

const LABELS: Record<Exclude<StepId, 'sign-in' | 'arrival'>, string> = {
	link: 'from the HAR: the authorisation link',
	token: 'from the HAR: the token exchange',
	me: 'from the HAR: me.json'
};

/** Scheme, authority and path: the part of a redirect URI the service matches on (2.1). */
function registeredPart(url: string, base?: string): string | null {
	if (!URL.canParse(url, base)) return null;
	const parsed = new URL(url, base);
	return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

function param(url: string, name: string): string | null {
	return URL.canParse(url) ? new URL(url).searchParams.get(name) : null;
}

/** The token request's `redirect_uri`, from its query string or its form body. */
function tokenRedirectUri(entry: HarEntry): string | null {
	const body = entry.request.postData?.text ?? '';
	return param(entry.request.url, 'redirect_uri') ?? new URLSearchParams(body).get('redirect_uri');
}

/** Where a 30x answer sends the browser, resolved against the request's URL. */
function redirectTarget(entry: HarEntry): string | null {
	const { status, redirectURL } = entry.response;
	if (status < 300 || status > 399) return null;
	const location = headerValue(entry.response.headers, 'location') ?? redirectURL;
	return location && URL.canParse(location, entry.request.url) ? new URL(location, entry.request.url).href : null;
}

function endTime(entry: HarEntry): string {
	const start = Date.parse(entry.startedDateTime);
	return Number.isNaN(start) ? entry.startedDateTime : new Date(start + Math.max(0, entry.time)).toISOString();
}

interface Arrival {
	index: number;
	url: string;
	receivedAt: string;
	label: string;
}

/** The browser's arrivals at the redirect URI: requests to it, or else the redirects that sent the browser there. */
function arrivals(entries: HarEntry[], redirectPart: string): Arrival[] {
	const indexed = entries.map((entry, index) => ({ entry, index }));
	const direct = indexed
		.filter(({ entry }) => registeredPart(entry.request.url) === redirectPart && !isNotOfTheFlow(entry.request.url))
		.map(({ entry, index }) => ({
			index,
			url: entry.request.url,
			receivedAt: entry.startedDateTime,
			label: 'from the HAR: the browser arrives at the redirect URI'
		}));
	if (direct.length > 0) return direct;
	return indexed.flatMap(({ entry, index }) => {
		const target = redirectTarget(entry);
		if (!target || registeredPart(target) !== redirectPart) return [];
		return [{ index, url: target, receivedAt: endTime(entry), label: 'from the HAR: the redirect to the redirect URI' }];
	});
}

const FOLLOWED = "from the HAR: where your app's answer at the redirect URI sent the browser";

/**
 * The redirect the app answered an arrival with, for the app's own origin only: where the browser goes next. Null
 * for an entry that is not at the redirect URI itself (a redirect that sent the browser there is not the app's answer).
 */
function ownRedirect(entry: HarEntry, origin: string): string | null {
	const target = redirectTarget(entry);
	return target !== null && originOf(target) === origin ? target : null;
}

/**
 * The entries the browser followed from an arrival's redirect to the page it ended on (omniauth's 302 to
 * /auth/failure, an app's 302 to /home): the app's answer to the user is that page, not the redirect.
 */
function followedFrom(entries: HarEntry[], arrival: number, redirectPart: string, taken: ReadonlySet<number>): FoundEntry[] {
	if (registeredPart(entries[arrival]!.request.url) !== redirectPart) return [];
	const origin = originOf(redirectPart);
	const found: FoundEntry[] = [];
	let target = ownRedirect(entries[arrival]!, origin);
	for (let i = arrival + 1; target !== null && i < entries.length && found.length < MAX_FOLLOWED; i++) {
		if (entries[i]!.request.url !== target) continue;
		if (taken.has(i)) break;
		found.push({ index: i, step: 'arrival', label: FOLLOWED });
		target = ownRedirect(entries[i]!, origin);
	}
	return found;
}

const CODE_CALL = "from the HAR: your app's own request carrying the code";
const NO_CODE_CALL = "from the HAR: your app's own request sending no code, after the cancel";

/** Whether a request of the browser's is the app's own call with an arrival's code, or with none after a cancel. */
function appCallLabel(entry: HarEntry, codes: CodeCarrier, afterCancel: boolean): string | null {
	// A CORS preflight repeats the call's URL, but the browser sends it by itself.
	if (isNotOfTheFlow(entry.request.url) || entry.request.method === 'OPTIONS') return null;
	const request = { url: entry.request.url, body: entry.request.postData?.text ?? null };
	if (codes.carried(request).length > 0) return CODE_CALL;
	return afterCancel && sendsEmptyCode(request) ? NO_CODE_CALL : null;
}

/** The app's own calls among the entries not already taken (app-calls.ts). */
function appCalls(entries: HarEntry[], back: Arrival[], taken: ReadonlySet<number>): FoundEntry[] {
	const carrier = new CodeCarrier(back.flatMap((a) => param(a.url, 'code') ?? []));
	const firstCancel = back.find((a) => param(a.url, 'code') === null)?.index ?? Infinity;
	return entries.flatMap((entry, index) => {
		const label = taken.has(index) ? null : appCallLabel(entry, carrier, index > firstCancel);
		return label === null ? [] : [{ index, step: 'arrival' as const, label }];
	});
}

export function discoverFlow(entries: HarEntry[]): FoundFlow {
	const found: FoundEntry[] = [];
	entries.forEach((entry, index) => {
		const step = stepOfRequest(entry.request.method, entry.request.url);
		if (step) found.push({ index, step, label: LABELS[step] });
	});
	const links = found.filter((f) => f.step === 'link').map((f) => entries[f.index]!.request.url);
	const token = found.find((f) => f.step === 'token');
	const redirectUri =
		links.map((l) => param(l, 'redirect_uri')).find((uri) => uri !== null) ?? (token ? tokenRedirectUri(entries[token.index]!) : null);
	const redirectPart = redirectUri ? registeredPart(redirectUri) : null;
	const back = redirectPart ? arrivals(entries, redirectPart) : [];
	// A link answered straight away with the redirect is the callback's source, but stays the link's exchange.
	const claimed = new Set(found.map((f) => f.index));
	const arrived = back.filter((a) => !claimed.has(a.index)).map((a) => ({ index: a.index, step: 'arrival' as const, label: a.label }));
	const taken = new Set([...claimed, ...back.map((a) => a.index)]);
	const followed = back.flatMap((a) => followedFrom(entries, a.index, redirectPart!, taken));
	const calls = appCalls(entries, back, new Set([...taken, ...followed.map((f) => f.index)]));
	const all = [...found, ...arrived, ...followed, ...calls];
	const last = back.at(-1);
	const linkBefore = found.filter((f) => f.step === 'link' && (!last || f.index < last.index)).at(-1);
	return {
		entries: all.sort((a, b) => a.index - b.index),
		link: linkBefore ? entries[linkBefore.index]!.request.url : (links.at(-1) ?? null),
		callback: last ? { url: last.url, receivedAt: last.receivedAt } : null
	};
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : '');

/** A HAR entry as far as the membership test reads it: the request, and the answer's status and Location. */
type EntryHead = Pick<HarEntry, 'request'> & { response?: Pick<HarEntry['response'], 'status' | 'redirectURL' | 'headers'> };

/** The URL at the redirect URI the browser's request arrives at, or is answered with a redirect to; null when neither. */
function arrivalAt(entry: EntryHead, redirectPart: string): string | null {
	if (registeredPart(entry.request.url) === redirectPart) return entry.request.url;
	const target = entry.response ? redirectTarget(entry as HarEntry) : null;
	return target !== null && registeredPart(target) === redirectPart ? target : null;
}

/**
 * Which entries of a HAR read one at a time belong to the flow, as `discoverFlow` will find it: the link, token
 * and me.json requests, the arrivals at the redirect URI (or the redirects there), and the app's own calls after an
 * arrival that carry its code or, after a cancel, send none. The redirect URI is the
 * first link's; until a link names it, other entries are held pending (without the bodies `wantsBody` refuses),
 * and those that do not reach it are let go once it is known, or at the end (then the token request's is used).
 */
export class FlowMembership {
	private redirectPart: string | null = null;
	private readonly pending = new Map<number, HarEntry>();
	private tokenRedirectUri: string | null = null;
	/** The codes the arrivals read so far brought, and whether one of them was a cancel (no code). */
	private readonly codes = new CodeCarrier();
	private cancelled = false;
	/** Where the app's last redirect from the redirect URI sends the browser, while its chain is followed. */
	private following: string | null = null;
	private followedCount = 0;

	/** The flow's hosts seen so far: the link's, the token and me.json requests', the redirect URI's. */
	private readonly origins = new Set<string>();

	/**
	 * Whether to keep an entry's request or response body, judged on what was read before it (the request first):
	 * the flow's requests, requests to its hosts (the authorisation page's form may redirect to the client), and
	 * redirects (a line each).
	 */
	wantsBody(entry: EntryHead): boolean {
		if (stepOfRequest(entry.request.method, entry.request.url) !== null) return true;
		const status = entry.response?.status ?? 0;
		if (status >= 300 && status <= 399) return true;
		return this.origins.has(originOf(entry.request.url));
	}

	/** Decides on a completed entry: whether to keep it, and which entries held pending (by index) to let go. */
	admit(entry: HarEntry, index: number): { keep: boolean; release: number[] } {
		const step = stepOfRequest(entry.request.method, entry.request.url);
		if (step !== null) this.origins.add(originOf(entry.request.url));
		if (step === 'token') this.tokenRedirectUri ??= tokenRedirectUri(entry);
		if (step === 'link' && this.redirectPart === null) {
			const uri = param(entry.request.url, 'redirect_uri');
			const part = uri === null ? null : registeredPart(uri);
			if (part !== null) return { keep: true, release: this.settle(part) };
		}
		if (step !== null) return { keep: true, release: [] };
		if (this.redirectPart !== null) return { keep: this.arrivalOrCall(entry), release: [] };
		this.pending.set(index, entry);
		return { keep: true, release: [] };
	}

	/** At the end of the file: the entries still pending that do not reach the token request's redirect URI. */
	finish(): number[] {
		const part = this.tokenRedirectUri === null ? null : registeredPart(this.tokenRedirectUri);
		if (part !== null) return this.settle(part);
		const all = [...this.pending.keys()];
		this.pending.clear();
		return all;
	}

	/** Whether the entry is an arrival at the redirect URI (noting its code), or the app's call after one. */
	private arrivalOrCall(entry: HarEntry): boolean {
		const arrival = this.redirectPart === null ? null : arrivalAt(entry, this.redirectPart);
		if (arrival === null) return this.followed(entry) || appCallLabel(entry, this.codes, this.cancelled) !== null;
		const direct = registeredPart(entry.request.url) === this.redirectPart;
		this.following = direct ? ownRedirect(entry, originOf(this.redirectPart!)) : null;
		this.followedCount = 0;
		const code = param(arrival, 'code');
		if (code === null) this.cancelled = true;
		else this.codes.add(code);
		return true;
	}

	/** Whether the entry is the next page of the chain the app's answer at the redirect URI started (`followedFrom`). */
	private followed(entry: HarEntry): boolean {
		if (this.following === null || entry.request.url !== this.following || this.followedCount >= MAX_FOLLOWED) return false;
		this.followedCount++;
		this.following = ownRedirect(entry, originOf(this.redirectPart!));
		return true;
	}

	private settle(part: string): number[] {
		this.redirectPart = part;
		this.origins.add(originOf(part));
		const release = [...this.pending].filter(([, entry]) => !this.arrivalOrCall(entry)).map(([index]) => index);
		this.pending.clear();
		return release;
	}
}
