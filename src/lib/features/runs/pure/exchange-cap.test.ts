import { describe, expect, it } from 'vitest';
import { sharedCodeFlow } from '$lib/flow/testing/shared-code-flow';
import { describeCut, MAX_SHOWN_EXCHANGES, shownPart } from './exchange-cap';
import { run } from './test-helpers';

describe('the part of a run that is diagnosed and shown', () => {
	it('is the whole run up to MAX_SHOWN_EXCHANGES exchanges', () => {
		const small = run(sharedCodeFlow(10));
		expect(shownPart(small)).toEqual({ run: small, cut: null });
	});

	it('is the first MAX_SHOWN_EXCHANGES of a longer run, with what was left out', () => {
		const long = run(sharedCodeFlow(5000));
		const { run: part, cut } = shownPart(long);
		expect(part.exchanges).toEqual(long.exchanges.slice(0, MAX_SHOWN_EXCHANGES));
		expect(part.link).toBe(long.link);
		expect(cut).toEqual({ shown: MAX_SHOWN_EXCHANGES, total: 5001 });
		expect(describeCut(cut!)).toBe(
			'This run has 5,001 exchanges: the diagnosis and the steps shown cover the first 1,000 only, to answer in time. The HAR export has all of them; to diagnose a later part, import a HAR of that part.'
		);
	});
});
