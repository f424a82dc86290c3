/**
 * What the app's server did, read from the sandbox's request log (`GET /sandbox/log`, already masked): its calls to
 * /oauth/token and /api/v3/me.json and the visits of the sign-in link, for one client, after a given entry.
 *
 * A token call names its client (`client_id` in the query or the form body, as the interface allows). A me.json
 * call carries only the access token, which the log masks: when the log has correlation keys (the digests of the
 * tokens a call presented and an exchange issued) it is tied to the client's exchanges by them; otherwise every
 * me.json call after the client's first exchange counts, which is exact in a workspace of the check's own.
 */
import { jsonError } from '$lib/flow/diagnose/diagnose-annotation';
import { looksLikeJson, parseJson } from '$lib/http/json';
import { MeResponse } from '$lib/protocol/schemas';
import type { LogEntry } from '$lib/http/logged-exchange';
import type { StepId } from '$lib/flow/exchange';
import { flowStepOf } from '$lib/flow/steps';
import type { ServerEvidence, TokenCall } from './evidence';

interface Exchange {
	id: number;
	host: string;
	/** The flow's step, read as the live view and the engine read the log (flow/steps.ts). */
	step: StepId | null;
	url: URL | null;
	body: string | null;
	status: number | null;
	responseBody: string;
	keys: LogEntry['entry']['keys'];
}

function readEntry({ id, host, entry }: LogEntry): Exchange {
	const { request, response } = entry;
	return {
		id,
		host,
		step: flowStepOf(request.method, request.url),
		url: URL.canParse(request.url, 'http://sandbox.invalid') ? new URL(request.url, 'http://sandbox.invalid') : null,
		body: request.body,
		status: response?.status ?? null,
		responseBody: response?.body ?? '',
		keys: entry.keys
	};
}

/**
 * The client a request named: its correlation key (which also reads Basic authentication), else, in a log without
 * keys (a sandbox older than them), `client_id` in the query or the form body.
 */
function clientOf(exchange: Exchange): string | null {
	if (exchange.keys.clientId) return exchange.keys.clientId;
	const inQuery = exchange.url?.searchParams.get('client_id');
	if (inQuery) return inQuery;
	if (exchange.body && !looksLikeJson(exchange.body)) return new URLSearchParams(exchange.body).get('client_id');
	return null;
}

const tokenError = (body: string): string | null => jsonError(body) ?? null;

/** What a me.json answer says of the user that a page may show: its `sbid_number` and its verifications' values. */
function userValues(body: string): string[] {
	const me = MeResponse.safeParse(parseJson(body));
	if (!me.success) return [];
	return [me.data.sbid_number, ...me.data.verifications.flatMap((v) => Object.values(v))];
}

/** What the app's server did for `clientId`, from the log entries after `afterId` (in any order). */
export function serverEvidence(entries: readonly LogEntry[], clientId: string, afterId: number): ServerEvidence {
	const exchanges = entries
		.filter((e) => e.id > afterId)
		.map(readEntry)
		.sort((a, b) => a.id - b.id);
	const isAuth = (e: Exchange) => e.host === 'authorisation';
	const signInVisits = exchanges.filter((e) => isAuth(e) && e.step === 'link' && clientOf(e) === clientId).length;
	// Any method but a CORS preflight (no step): an app that sends its exchange as GET did try to exchange (and was refused).
	const tokenCalls = exchanges.filter((e) => !isAuth(e) && e.step === 'token' && clientOf(e) === clientId);
	const meCalls = exchanges.filter((e) => !isAuth(e) && e.step === 'me');

	const issued = new Set(tokenCalls.flatMap((e) => e.keys.issued ?? []));
	const correlated = meCalls.some((e) => e.keys.presented !== undefined);
	const firstExchange = tokenCalls[0]?.id;
	const ours = correlated
		? meCalls.filter((e) => e.keys.presented !== undefined && issued.has(e.keys.presented))
		: firstExchange === undefined
			? []
			: meCalls.filter((e) => e.id > firstExchange);
	const calls: TokenCall[] = tokenCalls.map((e) => ({ status: e.status, error: e.status !== null && e.status >= 400 ? tokenError(e.responseBody) : null }));
	return {
		exchanges: calls,
		meCalls: ours.map((e) => e.status),
		meShown: ours.filter((e) => e.status === 200).flatMap((e) => userValues(e.responseBody)),
		signInVisits,
		meAttribution: ours.length === 0 ? 'none' : correlated ? 'tokens' : 'time'
	};
}
