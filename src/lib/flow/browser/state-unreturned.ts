/**
 * A failed callback that reads as a client library's `state` check, from the browser's side alone: the link
 * carries `state`, the redirect brought none back (the service never sends it, 5.6), and the app's callback
 * answered a 5xx whose stack trace runs through an OAuth client library's code, naming nothing else: no error of
 * 7.2, no library's message, and no request to the token endpoint or me.json (a crash there came after the
 * exchange, so past any `state` check; a crash in the app's own code is its handling of an answer). A library that checks `state` (openid-client's `expectedState`, Authlib,
 * passport with `state: true`) fails so on every sign-in, before the code is exchanged; a correct app that sends
 * `state` without checking it signs in, so `state` alone is none, and a page of the app's own is left unjudged.
 */
import { linkParameter, type FlowRecord } from '../record';
import type { Arrival } from './browser-arrivals';

/** A stack frame in an installed OAuth client library (openid-client, oauthlib, Authlib, passport-oauth2, omniauth-oauth2, x/oauth2). */
const OAUTH_LIBRARY_FRAME = /(?:node_modules|site-packages|dist-packages|gems|pkg\/mod)\/[^\s'"]*?(?:oauth|openid|authlib|passport)/i;

/** The service's endpoints named in a page: the failure it shows came at (or after) the exchange. */
const SERVICE_STEP = /\/oauth\/token|\/api\/v3\/me\.json/;

export function stateCheckLikely(flow: FlowRecord, arrival: Arrival): boolean {
	if (linkParameter(flow, 'state') === undefined) return false;
	const url = arrival.exchange.request.url;
	const returned = URL.canParse(url) && new URL(url).searchParams.has('state');
	const { status, rows, library } = arrival.answer;
	const body = (arrival.answer.end?.exchange ?? arrival.exchange).response?.body ?? '';
	return !returned && status !== null && status >= 500 && rows.length === 0 && library === undefined && OAUTH_LIBRARY_FRAME.test(body) && !SERVICE_STEP.test(body);
}
