/**
 * What a single-page app's own API calls show (app-calls.ts): the same grant code sent to the app's server more
 * times than it arrived (each call is an exchange attempt, and a code works once), and a call to sign in with no
 * code after the user cancelled.
 */
import { SECTIONS, errorCause } from '$lib/protocol';
import { CodeCarrier, sendsEmptyCode } from './app-calls';
import { secretKey } from '$lib/http/secret-tail';
import type { Arrival } from './browser-arrivals';
import type { RecordedExchange } from '../exchange';
import type { CrossFlag } from '../flags';
import type { FlowRecord } from '../record';

interface Call {
	exchange: RecordedExchange;
	/** Its place among the run's exchanges, 1-based. */
	n: number;
}

/** "exchange 4 (POST /api/session, answered 200)". */
function describeCall({ exchange, n }: Call): string {
	const path = URL.canParse(exchange.request.url) ? new URL(exchange.request.url).pathname : exchange.request.url;
	const answer = exchange.response ? `answered ${exchange.response.status}` : 'no response recorded';
	return `exchange ${n} (${exchange.request.method} ${path}, ${answer})`;
}

/** The browser's requests that are neither an arrival nor a step of the service's (the app's own, maybe). */
function ownRequests(flow: FlowRecord, all: Arrival[]): Call[] {
	const arrivals = new Set(all.map((a) => a.index));
	return flow.exchanges.flatMap((exchange, index) =>
		exchange.step === 'arrival' && !arrivals.has(index) ? [{ exchange, n: index + 1 }] : []
	);
}

const requestOf = (call: Call) => ({ url: call.exchange.request.url, body: call.exchange.request.body });

/** The calls that carry each of the arrivals' codes, by code; and how many times each code arrived. */
function byCode(calls: Call[], all: Arrival[]): { sent: Map<string, Call[]>; arrived: Map<string, number> } {
	const arrived = new Map<string, number>();
	for (const { code } of all) if (code) arrived.set(code, (arrived.get(code) ?? 0) + 1);
	const carrier = new CodeCarrier([...arrived.keys()]);
	const sent = new Map<string, Call[]>();
	for (const call of calls) {
		for (const code of carrier.carried(requestOf(call))) {
			const carrying = sent.get(code);
			if (carrying) carrying.push(call);
			else sent.set(code, [call]);
		}
	}
	return { sent, arrived };
}

function codeSentTwiceFlags(calls: Call[], all: Arrival[]): CrossFlag[] {
	const { sent: sentByCode, arrived: arrivals } = byCode(calls, all);
	return [...arrivals].flatMap(([code, arrived]): CrossFlag[] => {
		const sent = sentByCode.get(code) ?? [];
		// One call per arrival is a repeated arrival, which `code-arrived-again` already reports.
		if (sent.length < 2 || sent.length <= arrived) return [];
		return [
			{
				id: 'code-sent-twice',
				severity: 'error',
				message: `Your app's page sent the same grant code to your app's server ${sent.length} times: ${sent.map(describeCall).join('; ')}, though it arrived at the redirect URI ${arrived === 1 ? 'once' : `${arrived} times`}. Each call is an attempt to exchange the code, and a code works once (2.2): the first exchange used it, so the next gets invalid_grant at the token endpoint. A page that runs its sign-in code twice (a component rendered twice, a retry, two listeners) does this.`,
				section: SECTIONS.code,
				fix: `Send the code from the page once: guard the call (a flag set before it is sent) and take the code out of the address bar (history.replaceState) once read; on your server, exchange each code at most once. ${errorCause('token-invalid-grant', 'used').fix}`,
				exchangeId: sent.at(-1)!.exchange.id
			}
		];
	});
}

function signInAfterCancelFlags(calls: Call[], all: Arrival[]): CrossFlag[] {
	const cancel = all.find((a) => a.code === null);
	if (!cancel) return [];
	const sent = calls.filter((call) => call.n > cancel.n && sendsEmptyCode(requestOf(call)));
	if (sent.length === 0) return [];
	return [
		{
			id: 'sign-in-after-cancel',
			severity: 'error',
			message: `The user cancelled (arrival ${cancel.k}, exchange ${cancel.n}, came back without \`code\`), and your app's page still asked your server to sign in, sending no code: ${sent.map(describeCall).join('; ')}. A cancel is not a failed sign-in: there is no code to exchange, and exchanging none gets invalid_request.`,
			section: SECTIONS.states,
			fix: `On the page at the redirect URI, check for \`code\` before calling your server: without one, show the user that they cancelled, with a way to try again. ${errorCause('token-invalid-request', 'missing-code').fix}`,
			exchangeId: sent[0]!.exchange.id
		}
	];
}

/**
 * The codes the browser's record shows sent toward an exchange more than once: arrived at the redirect URI again (a
 * reload, the back button), or sent by the page's own calls more than once, each by its `secretKey` (the sandbox's log
 * shows a code masked but for its tail). Empty without the browser's side.
 */
export function codesSentAgain(flow: FlowRecord, all: Arrival[]): ReadonlySet<string> {
	const { sent, arrived } = byCode(ownRequests(flow, all), all);
	const again = [...arrived].filter(([code, times]) => times > 1 || (sent.get(code)?.length ?? 0) > 1);
	return new Set(again.map(([code]) => secretKey(code)));
}

/** The flags of the app's own calls that carry (or should have carried) an arrival's code. */
export function appCallFlags(flow: FlowRecord, all: Arrival[]): CrossFlag[] {
	const calls = ownRequests(flow, all);
	return [...codeSentTwiceFlags(calls, all), ...signInAfterCancelFlags(calls, all)];
}
