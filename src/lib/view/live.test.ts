import { describe, expect, it } from 'vitest';
import { LIVE_FLOWS_SHOWN, mergeFlows } from './live';

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
