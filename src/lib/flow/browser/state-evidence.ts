/**
 * Whether the flow shows the fault a client library's `state` check causes, so that the link's `state` (which the
 * service never sends back, 5.6) is worth a finding. `state` on the link alone is none: a correct app that does not
 * check it signs in (Authlib's OAuth2Session adds it and never checks it). The evidence: a code's arrival at the
 * redirect URI whose answer names `state` or CSRF (a library's mismatch error, the app's own words, a redirect to
 * omniauth's `/auth/failure?message=csrf_detected`), one that failed before its code was exchanged (a state check
 * runs first), an arrival the app answered by starting a new sign-in (a cancel loop included), or, when the record
 * holds no page of the app (the live view), a delivered code that no exchange followed.
 */
import { codeIn } from '../callback';
import type { CrossFlag } from '../flags';
import type { FlowRecord } from '../record';
import { serverSideOf } from '../server-side';
import { locationOf, wordsOfAnswer, type Arrival } from './browser-arrivals';
import { restartAfter, type BrowserSide } from './browser-flags';

const STATE_WORDS = /\bstate\b|csrf/i;

const namesState = ({ answer, exchange }: Arrival) =>
	answer.library?.means === 'state' || (answer.failed && STATE_WORDS.test(wordsOfAnswer(exchange.response))) || STATE_WORDS.test(locationOf(exchange) ?? '');

/** The arrival's answer failed, and its code never reached the token endpoint. */
const failedUnexchanged = (flow: FlowRecord, side: BrowserSide, k: number) => {
	const arrival = side.arrivals[k]!;
	return arrival.code !== null && side.failures[k] !== null && serverSideOf(flow, arrival.index, side.arrivals[k + 1]?.index, arrival.code).tokens.length === 0;
};

export function stateCheckShown(flow: FlowRecord, side: BrowserSide, flags: CrossFlag[]): boolean {
	if (side.arrivals.some((a, k) => namesState(a) || failedUnexchanged(flow, side, k) || restartAfter(flow, a) !== null)) return true;
	if (flags.some((f) => f.id === 'cancel-loop')) return true;
	return side.arrivals.length === 0 && codeIn(flow.callback?.url) !== undefined && !flow.exchanges.some((e) => e.step === 'token');
}
