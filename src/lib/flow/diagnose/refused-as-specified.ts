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
import { requestParam } from '../request-params';

const answered = (e: RecordedExchange, step: StepId, status: number) => e.step === step && e.response?.status === status;

/** The `error` of a token endpoint's JSON answer, if it has one. */
function tokenError(e: RecordedExchange): string | undefined {
	try {
		const body: unknown = JSON.parse(e.response?.body ?? '');
		return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : undefined;
	} catch {
		return undefined;
	}
}

export function refusedAsSpecified(flow: Pick<FlowRecord, 'exchanges'>, index: number): boolean {
	const exchange = flow.exchanges[index];
	if (!exchange) return false;
	const before = flow.exchanges.slice(0, index);
	if (answered(exchange, 'me', 404)) return before.some((e) => answered(e, 'token', 200));
	if (!answered(exchange, 'token', 400) || tokenError(exchange) !== 'invalid_grant') return false;
	const code = requestParam(exchange.request, 'code');
	const used = before.findIndex((e) => answered(e, 'token', 200) && code !== undefined && requestParam(e.request, 'code') === code);
	const read = used === -1 ? undefined : before.slice(used + 1).findLast((e) => answered(e, 'me', 200));
	// At once after me.json's answer is no reload but the callback run again after a crash (handler-rerun.ts).
	return read !== undefined && !cameAtOnce(read, exchange);
}
