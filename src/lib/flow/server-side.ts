/**
 * What the app's server did while it answered one arrival at the redirect URI, when the record holds it (the
 * server's HAR, curl or the sandbox's log joined to the browser's side): the token exchanges and me.json calls made
 * after that arrival and before the next one. It decides where the fault is when the app's page failed: at the
 * exchange, at me.json, or in the app's own handling of an answer that was fine (what was special about that
 * answer is named: the `group` key, an empty list, an expired verification).
 */
import { MASK } from '$lib/http/exchange';
import { MeResponse } from '$lib/protocol/schemas';
import { readJson } from '$lib/http/json';
import { describeVerification } from './diagnose/verification';
import type { RecordedExchange } from './exchange';
import type { FlowRecord } from './record';
import { requestParam } from './request-params';
import { READ_EITHER_KEY, READ_EMPTY_LIST } from '$lib/protocol/me-reading';

export interface Numbered {
	exchange: RecordedExchange;
	/** Its place among the flow's exchanges, 1-based. */
	n: number;
}

export interface ServerSide {
	tokens: Numbered[];
	mes: Numbered[];
}

const answered = (e: RecordedExchange) => e.response !== null;

/**
 * The server's requests between the arrival at `index` and the next arrival (`nextIndex`, or the end), leaving out
 * exchanges of another code (a readable code that is not the arrival's).
 */
export function serverSideOf(flow: FlowRecord, index: number, nextIndex: number | undefined, code: string | null): ServerSide {
	const after = flow.exchanges.map((exchange, i) => ({ exchange, n: i + 1 })).slice(index + 1, nextIndex);
	const sameCode = ({ exchange }: Numbered) => {
		const sent = requestParam(exchange.request, 'code');
		return code === null || sent === undefined || sent.includes(MASK) || sent === code;
	};
	return {
		tokens: after.filter((e) => e.exchange.step === 'token' && answered(e.exchange) && sameCode(e)),
		mes: after.filter((e) => e.exchange.step === 'me' && answered(e.exchange))
	};
}

/** The day an answer is read on (YYYY-MM-DD): the sandbox's clock when the record has it, else when it was sent. */
export const today = (flow: FlowRecord, exchange: RecordedExchange) => (flow.sandboxClock ?? exchange.startedAt).slice(0, 10);

export const succeeded = ({ exchange }: Numbered) => exchange.response?.status === 200;

/** Something out of the ordinary in a me.json 200 that an app may mishandle: what it was, and how to read it. */
export interface Special {
	note: string;
	fix: string;
}

/** What was out of the ordinary in a me.json 200 (none when nothing was): the app's handling of it is the suspect. */
export function specialInMe(exchange: RecordedExchange, today: string): Special[] {
	const json = readJson(exchange.response?.body ?? '');
	const parsed = json.ok ? MeResponse.safeParse(json.value) : null;
	if (!parsed?.success) return [];
	const items = parsed.data.verifications;
	if (items.length === 0)
		return [{ note: 'an empty `verifications` list (the user has no active verification, a normal answer: 2.4)', fix: READ_EMPTY_LIST }];
	const found: Special[] = [];
	if (items.some((v) => 'group' in v && !('supergroup' in v)))
		found.push({
			note: 'each verification under the key `group` instead of `supergroup` (2.4: a reader accepts either)',
			fix: READ_EITHER_KEY
		});
	const expired = items.map((v) => describeVerification(v, today)).filter((v) => !v.active);
	if (expired.length > 0)
		found.push({
			note: `a verification that has expired (${expired.map((v) => `${v.supergroup}, last valid day ${v.lastValidDay}`).join('; ')})`,
			fix: 'Compare each verification\'s `expires_on` with today (it is the first day it is no longer valid) and treat an expired one as absent, without failing.'
		});
	return found;
}
