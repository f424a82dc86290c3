/**
 * Grant codes a saved run shows to people other than its owner. A code is kept in a stored run (the diagnosis
 * needs it), but while it can still be exchanged it is a credential: whoever reads it could exchange it (with the
 * client's secret, which the sandbox's demo client publishes) and read the user's me.json. So until the code is
 * spent (a token exchange in the run answered 200 for it) or past its lifetime (2 hours after it reached the
 * callback, or after the run was made when the run has no callback with it), anyone but the run's owner sees it
 * replaced, in every text of the run, with a placeholder of its own (one per code, so "the same code twice" still
 * shows).
 */
import { LIMITS } from '$lib/protocol';
import { uriParts } from '$lib/http/encoding';
import { FormSearch } from '$lib/http/form-search';
import { encodedForms } from '$lib/http/secrets';
import { splitRawQuery } from '$lib/http/form';
import type { RecordedExchange } from '$lib/flow/exchange';
import { callbackTime, flowMs } from '$lib/flow/flow-time';
import { grantCodes } from './redact/redact';
import { WHAT, hiddenCodeName } from './redact/redact-name';
import type { Run } from './run';

const CODE_LIFETIME_MS = LIMITS.codeTtlSeconds * 1000;

/** The `code` parameters of a query string or form body, decoded. */
function codeParams(query: string): string[] {
	return splitRawQuery(query)
		.filter((p) => p.name === 'code')
		.map((p) => p.value);
}

/** The codes a token request sent, in its query or its form body. */
function codesSent({ request }: RecordedExchange): string[] {
	return [...codeParams(uriParts(request.url).query), ...(request.body ? codeParams(request.body) : [])];
}

/** Codes a token exchange of the run spent: the service answered 200 to a request carrying them. */
function spentCodes(run: Run): Set<string> {
	const spent = new Set<string>();
	for (const exchange of run.exchanges) {
		if (exchange.step !== 'token' || exchange.response?.status !== 200) continue;
		for (const code of codesSent(exchange)) spent.add(code);
	}
	return spent;
}

/**
 * When the code was first seen, on the clock of the service that issued it: its callback's arrival (a walk records
 * the sandbox's lead beside real time, flow-time.ts), else when the run was made (never before the code was issued).
 */
function firstSeen(run: Run, code: string): number {
	const at = run.callback && codeParams(uriParts(run.callback.url).query).includes(code) ? flowMs(callbackTime(run.callback)) : Date.parse(run.createdAt);
	return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}

/** The run's grant codes that may still be exchanged at `now` (on the clock of the service that issued them). */
export function liveCodes(run: Run, now: Date): string[] {
	const spent = spentCodes(run);
	return [...grantCodes(run)].filter((code) => !spent.has(code) && now.getTime() < firstSeen(run, code) + CODE_LIFETIME_MS);
}

/** Every string inside `value`, mapped by `fn`. */
function mapStrings<T>(value: T, fn: (text: string) => string): T {
	if (typeof value === 'string') return fn(value) as T;
	if (Array.isArray(value)) return value.map((item: unknown) => mapStrings(item, fn)) as T;
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, fn)])) as T;
	}
	return value;
}

/**
 * The run with each live code replaced everywhere (any encoding) by its name, each name noted. When every code of
 * the run is hidden, the notes that the code was kept visible go: nobody reading this run sees one.
 */
export function hideLiveCodes(run: Run, now: Date): Run {
	const codes = liveCodes(run, now).sort((a, b) => b.length - a.length);
	if (codes.length === 0) return run;
	const search = new FormSearch(codes.map(encodedForms));
	const hide = (text: string) => search.hide(text, (i) => hiddenCodeName(i + 1)).text;
	const { redactions, ...rest } = run;
	const allHidden = codes.length === grantCodes(run).size;
	return {
		...mapStrings(rest, hide),
		id: run.id,
		redactions: [
			...redactions.filter((r) => !(allHidden && r.what === WHAT.code)),
			...codes.map((_, i) => ({ what: WHAT.hiddenCode, where: hiddenCodeName(i + 1) }))
		]
	};
}
