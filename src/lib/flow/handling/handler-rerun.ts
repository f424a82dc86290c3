/**
 * A sign-in the app's callback ran twice for: the code exchanged, me.json answered 200, and the same code exchanged
 * again at once. A browser re-sends a request straight away when its connection closed without an answer, which
 * is what an app's crash while handling that answer does (Go's net/http closes the connection on a panic); a
 * person's reload comes later. So the re-exchange's invalid_grant is a symptom: the fault is the app's handling of
 * me.json's answer, named by what was special in it. A guess from timing alone: when the browser's own record shows
 * the code sent again (a page that posted it twice, a reload), the second exchange is what it sent, not a re-send
 * (Chromium's re-send of a request whose connection closed is inside its network stack, and records one request).
 */
import { handlingOf } from './answer-handling';
import { requestParam } from '../request-params';
import { secretKey } from '$lib/http/secret-tail';
import type { FlowRecord } from '../record';
import { specialInMe, today, type Numbered } from '../server-side';

/**
 * A browser's re-send follows the closed connection within milliseconds (0-1 ms after me.json for Go's panic in the
 * corpus); a reload, even a script's, waits for the page to load first (500 ms and more there).
 */
const RERUN_MS = 100;

const endOf = (e: Numbered['exchange']) => Date.parse(e.startedAt) + e.durationMs;

/** Whether `again` (an exchange of a used code) followed `me`'s answer at once, as a browser's re-send does. */
export function cameAtOnce(me: Numbered['exchange'], again: Numbered['exchange']): boolean {
	return Date.parse(again.startedAt) - endOf(me) < RERUN_MS;
}

/**
 * The me.json 200 between an accepted exchange and the same code's next one, when that one came at once and the
 * code is not among those the browser's record shows sent again (app-call-flags.ts codesSentAgain); else null.
 */
export function rerunAfter(flow: FlowRecord, accepted: Numbered, again: Numbered, sentAgain: ReadonlySet<string>): Numbered | null {
	const code = requestParam(accepted.exchange.request, 'code');
	if (code !== undefined && sentAgain.has(secretKey(code))) return null;
	const between = flow.exchanges.slice(accepted.n, again.n - 1).map((exchange, i) => ({ exchange, n: accepted.n + i + 1 }));
	const me = between.findLast(({ exchange }) => exchange.step === 'me' && exchange.response?.status === 200);
	return me && cameAtOnce(me.exchange, again.exchange) ? me : null;
}

/** The code-reused flag's words when the callback ran again at once after me.json answered. */
export function rerunFinding(flow: FlowRecord, accepted: Numbered, again: Numbered, me: Numbered): { message: string; fix: string } {
	const day = today(flow, me.exchange);
	const special = specialInMe(me.exchange, day).map((s) => s.note);
	const gap = Math.max(0, Math.round(Date.parse(again.exchange.startedAt) - endOf(me.exchange)));
	return {
		message: `Exchange ${again.n} (token) sends the code that exchange ${accepted.n} already exchanged, ${gap} ms after me.json (exchange ${me.n}) answered 200${special.length > 0 ? ` with ${special.join(' and ')}` : ''}: your app's callback ran a second time for one sign-in. A browser re-sends a request at once when the connection closed with no answer, so the first run most likely crashed while handling me.json's answer (an uncaught error or panic that closed the connection); the second run's exchange got invalid_grant, as a code works once (2.2).`,
		fix: `${handlingOf(me.exchange, day) ?? "Find the error your server raised while handling me.json's answer (its log), and answer every request, with a page of your own when it cannot go on"}.`
	};
}
