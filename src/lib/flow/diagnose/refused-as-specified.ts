/**
 * Refusals that are the service working as specified after what the user did, not a fault of the request that got
 * them: me.json's 404 after a successful exchange (the user asked for their account to be deleted, 7.3), and
 * invalid_grant for a code that an earlier exchange of the flow used, once me.json was read after that exchange (the
 * sign-in had finished; a reload or the back button repeated the callback, and a code works once, 2.2). Whether the
 * app handled them is the question its page answers; an app exchanging twice in one go gets no such pass (no me.json
 * read in between), nor a callback run again at once after me.json answered (a crash's re-send, not a reload).
 */
import type { RecordedExchange, StepId } from '../exchange';
import type { FlowRecord } from '../record';
import { cameAtOnce } from '../handling/handler-rerun';
import { jsonError } from './diagnose-annotation';
import { requestParam } from '../request-params';
import type { BrowserSide } from '../browser/browser-flags';

const answered = (e: RecordedExchange, step: StepId, status: number) => e.step === step && e.response?.status === status;

/** The ids of the flow's exchanges that got such a refusal; one pass over the flow, however many exchanges share a code. */
export function refusalsAsSpecified(flow: Pick<FlowRecord, 'exchanges'>): ReadonlySet<string> {
	const refused = new Set<string>();
	let exchanged = false;
	/** Each code's first successful exchange, by its index. */
	const firstUse = new Map<string, number>();
	let lastRead: { index: number; exchange: RecordedExchange } | null = null;
	flow.exchanges.forEach((exchange, index) => {
		if (answered(exchange, 'me', 404) && exchanged) refused.add(exchange.id);
		if (answered(exchange, 'me', 200)) lastRead = { index, exchange };
		if (exchange.step !== 'token') return;
		const code = requestParam(exchange.request, 'code');
		if (code === undefined) return;
		if (answered(exchange, 'token', 200)) {
			exchanged = true;
			if (!firstUse.has(code)) firstUse.set(code, index);
			return;
		}
		const used = firstUse.get(code);
		const read: { index: number; exchange: RecordedExchange } | null = lastRead;
		// Read after the code's use, and not at once before this exchange: at once is the callback run again after a
		// crash (handler-rerun.ts), not a reload.
		if (answered(exchange, 'token', 400) && jsonError(exchange.response?.body ?? '') === 'invalid_grant' && used !== undefined && read !== null && read.index > used && !cameAtOnce(read.exchange, exchange)) {
			refused.add(exchange.id);
		}
	});
	return refused;
}

/**
 * Of `refused`, those that excuse their request: all, unless the app's page failed (an arrival's answer failed),
 * when the question is the request's again. The one reading of "unless the page failed" for the flags and the verdict.
 */
export function excusedRefusals(refused: ReadonlySet<string>, side: Pick<BrowserSide, 'failures'>): ReadonlySet<string> {
	return side.failures.some((f) => f !== null) ? new Set() : refused;
}
