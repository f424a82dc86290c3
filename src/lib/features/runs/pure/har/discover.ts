/**
 * Finding the flow among the requests of a browser's HAR, which also holds pages, scripts, fonts and analytics:
 * the authorisation link (GET …/sso/{supergroup} with `response_type` or `client_id`), the arrival at the redirect
 * URI (a request to it, or else a 30x whose Location points at it), the token exchange and me.json.
 */
import type { StepId } from '$lib/flow/exchange';
import type { HarEntry } from './har-schema';
import { isNotOfTheFlow } from '$lib/flow/noise';
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

const LABELS: Record<Exclude<StepId, 'authorise'>, string> = {
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
	const authorise = back.filter((a) => !claimed.has(a.index)).map((a) => ({ index: a.index, step: 'authorise' as const, label: a.label }));
	const all = [...found, ...authorise];
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

/** Whether the browser's request arrives at the redirect URI, or is answered with a redirect there. */
function reachesRedirectUri(entry: EntryHead, redirectPart: string): boolean {
	if (registeredPart(entry.request.url) === redirectPart) return true;
	const target = entry.response ? redirectTarget(entry as HarEntry) : null;
	return target !== null && registeredPart(target) === redirectPart;
}

/**
 * Which entries of a HAR read one at a time belong to the flow, as `discoverFlow` will find it: the link, token
 * and me.json requests, and the arrivals at the redirect URI (or the redirects there). The redirect URI is the
 * first link's; until a link names it, other entries are held pending (without the bodies `wantsBody` refuses),
 * and those that do not reach it are let go once it is known, or at the end (then the token request's is used).
 */
export class FlowMembership {
	private redirectPart: string | null = null;
	private readonly pending = new Map<number, HarEntry>();
	private tokenRedirectUri: string | null = null;

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
		if (this.redirectPart !== null) return { keep: reachesRedirectUri(entry, this.redirectPart), release: [] };
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

	private settle(part: string): number[] {
		this.redirectPart = part;
		this.origins.add(originOf(part));
		const release = [...this.pending].filter(([, entry]) => !reachesRedirectUri(entry, part)).map(([index]) => index);
		this.pending.clear();
		return release;
	}
}
