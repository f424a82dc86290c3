import { describe, expect, it } from 'vitest';
import { LIVE_FLOWS_SHOWN, flowOutcomes, matchesFlowFilter, mergeFlows } from './live';

const flow = (id: string, minute: number, note = '') => ({ id, note, run: { createdAt: new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString() } });

describe('the live page\'s flows', () => {
	it('replaces a flow by its update, newest first', () => {
		expect(mergeFlows([flow('a', 1), flow('b', 2)], [flow('a', 1, 'updated')])).toEqual([flow('b', 2), flow('a', 1, 'updated')]);
	});

	it('keeps only the newest LIVE_FLOWS_SHOWN however many the stream sends', () => {
		let pushed: ReturnType<typeof flow>[] = [];
		for (let i = 0; i < 3 * LIVE_FLOWS_SHOWN; i++) pushed = mergeFlows(pushed, [flow(`f${i}`, i)]);
		expect(pushed).toHaveLength(LIVE_FLOWS_SHOWN);
		expect(pushed[0]!.id).toBe(`f${3 * LIVE_FLOWS_SHOWN - 1}`);
	});
});

describe('the live page\'s filter', () => {
	const ok = { outcome: 'me.json 200', verdict: { severity: 'success' } };
	const failed = { outcome: 'token 400 invalid_grant', verdict: { severity: 'error' } };
	const cancelled = { outcome: 'cancelled', verdict: { severity: 'cancel' } };

	it('keeps the failed flows only, a cancel not being a failure', () => {
		expect([ok, failed, cancelled].filter((f) => matchesFlowFilter(f, 'failed'))).toEqual([failed]);
	});

	it('keeps the flows of one outcome, and lists each outcome once', () => {
		expect([ok, failed, ok].filter((f) => matchesFlowFilter(f, 'outcome:me.json 200'))).toEqual([ok, ok]);
		expect(flowOutcomes([ok, failed, ok])).toEqual(['me.json 200', 'token 400 invalid_grant']);
	});
});
