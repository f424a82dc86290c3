/**
 * A run as HAR 1.2: every exchange as an entry, plus the authorisation link and the arrival at the redirect URI
 * when no exchange already is them, with what HAR cannot hold in `_ssoFlowExplorer` fields, so that importing it
 * (har.ts) gives back the same run.
 */
import { uriParts } from '$lib/http/encoding';
import { splitRawQuery } from '$lib/http/form';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { HttpHeader, RecordedResponse, TransportFailure } from '$lib/http/exchange';
import type { EntryExtras, Har, HarEntry, LogExtras } from './har-schema';
import type { Run } from '../run';
import { headerValue } from '$lib/http/headers';

const CREATOR = { name: 'SSO Flow Explorer', version: '0.1' };


export const utf8Length = (text: string) => new TextEncoder().encode(text).length;

function queryString(url: string) {
	return splitRawQuery(uriParts(url).query).map(({ name, value }) => ({ name, value }));
}

function harResponse(response: RecordedResponse | null, failure: TransportFailure | null): HarEntry['response'] {
	if (!response)
		return {
			status: 0,
			statusText: '',
			httpVersion: '',
			cookies: [],
			headers: [],
			content: { size: 0, mimeType: 'x-unknown' },
			redirectURL: '',
			headersSize: -1,
			bodySize: -1,
			...(failure ? { _error: failure.message } : {})
		};
	return {
		status: response.status,
		statusText: response.statusText,
		httpVersion: 'HTTP/1.1',
		cookies: [],
		headers: response.headers,
		content: {
			size: utf8Length(response.body),
			mimeType: headerValue(response.headers, 'content-type') ?? 'x-unknown',
			text: response.body
		},
		redirectURL: headerValue(response.headers, 'location') ?? '',
		headersSize: -1,
		bodySize: utf8Length(response.body)
	};
}

interface EntryInput {
	method: string;
	url: string;
	headers: HttpHeader[];
	body: string | null;
	startedAt: string;
	durationMs: number;
	response: HarEntry['response'];
	extras: EntryExtras;
	comment?: string;
}

function harEntry(input: EntryInput): HarEntry {
	const { body } = input;
	return {
		startedDateTime: input.startedAt,
		time: input.durationMs,
		request: {
			method: input.method,
			url: input.url,
			httpVersion: 'HTTP/1.1',
			cookies: [],
			headers: input.headers,
			queryString: queryString(input.url),
			...(body === null ? {} : { postData: { mimeType: headerValue(input.headers, 'content-type') ?? '', text: body } }),
			headersSize: -1,
			bodySize: body === null ? 0 : utf8Length(body)
		},
		response: input.response,
		cache: {},
		timings: { send: 0, wait: input.durationMs, receive: 0 },
		...(input.comment ? { comment: input.comment } : {}),
		_ssoFlowExplorer: input.extras
	};
}

function exchangeEntry(exchange: RecordedExchange, index: number, flags: Omit<EntryExtras, 'exchange'>): HarEntry {
	const { request, response, failure } = exchange;
	return harEntry({
		...request,
		startedAt: exchange.startedAt,
		durationMs: exchange.durationMs,
		response: harResponse(response, failure),
		extras: {
			exchange: {
				index,
				id: exchange.id,
				step: exchange.step,
				label: exchange.label,
				hasResponse: response !== null,
				truncated: response?.truncated ?? false,
				failure,
				masked: exchange.masked,
				...(exchange.evidence ? { evidence: exchange.evidence } : {}),
				...(exchange.tokenTails ? { tokenTails: [...exchange.tokenTails] } : {}),
				...(exchange.strippedHeaders ? { strippedHeaders: [...exchange.strippedHeaders] } : {})
			},
			...flags
		}
	});
}

/** A browser navigation the explorer saw but did not record the answer to (the authorisation page, the callback). */
function navigationEntry(url: string, startedAt: string, flag: 'runLink' | 'runCallback', comment: string): HarEntry {
	return harEntry({
		method: 'GET',
		url,
		headers: [],
		body: null,
		startedAt,
		durationMs: 0,
		response: harResponse(null, null),
		extras: { [flag]: true },
		comment
	});
}

const LINK_COMMENT = 'The authorisation link the browser was sent to; its answer (the authorisation page) was not recorded.';
const CALLBACK_COMMENT = 'The browser\'s arrival at the redirect URI, as the explorer\'s /callback received it.';

function earliest(times: string[]): string {
	return times.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
}

export function runToHar(run: Run): Har {
	const { link, callback, exchanges } = run;
	const linkIndex = link === null ? -1 : exchanges.findIndex((e) => e.step === 'link' && e.request.url === link);
	const callbackIndex =
		callback === null
			? -1
			: exchanges.findIndex((e) => e.step === 'arrival' && e.request.url === callback.url && e.startedAt === callback.receivedAt);
	const entries = exchanges.map((e, i) =>
		exchangeEntry(e, i, { ...(i === linkIndex ? { runLink: true } : {}), ...(i === callbackIndex ? { runCallback: true } : {}) })
	);
	if (callback && callbackIndex === -1) {
		// Before the first call of the accounts host: the code (or its absence) arrived before any exchange.
		const at = exchanges.findIndex((e) => e.step === 'token' || e.step === 'me');
		entries.splice(at === -1 ? entries.length : at, 0, navigationEntry(callback.url, callback.receivedAt, 'runCallback', CALLBACK_COMMENT));
	}
	if (link !== null && linkIndex === -1) {
		const startedAt = earliest([run.createdAt, ...(callback ? [callback.receivedAt] : []), ...exchanges.map((e) => e.startedAt)]);
		entries.unshift(navigationEntry(link, startedAt, 'runLink', LINK_COMMENT));
	}
	const extras: LogExtras = {
		format: 1,
		id: run.id,
		title: run.title,
		createdAt: run.createdAt,
		target: run.target,
		sandboxClock: run.sandboxClock,
		redactions: run.redactions,
		source: run.source,
		...(run.sanitised ? { sanitised: run.sanitised } : {})
	};
	return { log: { version: '1.2', creator: CREATOR, comment: run.title, entries, _ssoFlowExplorer: extras } };
}

/* ------------------------------------------------------------------ import */
