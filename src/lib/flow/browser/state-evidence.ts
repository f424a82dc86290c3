/**
 * Whether the flow shows the fault a client library's `state` check causes, so that the link's `state` (which the
 * service never sends back, 5.6) is worth a finding. `state` on the link alone is none: a correct app that does not
 * check it signs in (Authlib's OAuth2Session adds it and never checks it). The evidence: a code's arrival at the
 * redirect URI answered with a failure that names `state` (a library's mismatch error, or the app's own words), an
 * arrival the app answered by starting a new sign-in (a cancel loop included), or, when the record holds no page of
 * the app (the live view), a delivered code that no exchange followed.
 */
import { codeIn } from '../callback';
import type { CrossFlag } from '../flags';
import type { FlowRecord } from '../record';
import { wordsOfAnswer, type Arrival } from './browser-arrivals';
import { restartAfter, type BrowserSide } from './browser-flags';

const namesState = ({ answer, exchange }: Arrival) =>
	answer.failed && (answer.library?.means === 'state' || /\bstate\b/i.test(wordsOfAnswer(exchange.response)));

export function stateCheckShown(flow: FlowRecord, side: BrowserSide, flags: CrossFlag[]): boolean {
	if (side.arrivals.some((a) => namesState(a) || restartAfter(flow, a) !== null)) return true;
	if (flags.some((f) => f.id === 'cancel-loop')) return true;
	return side.arrivals.length === 0 && codeIn(flow.callback?.url) !== undefined && !flow.exchanges.some((e) => e.step === 'token');
}
