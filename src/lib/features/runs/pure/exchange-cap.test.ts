import { describe, expect, it } from 'vitest';
import { sharedCodeFlow } from '$lib/flow/testing/shared-code-flow';
import { describeCut, describeKept, MAX_KEPT_EXCHANGES, MAX_SHOWN_EXCHANGES, shownPart } from './exchange-cap';
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

describe('what an import keeps', () => {
	it('keeps the first MAX_KEPT_EXCHANGES flow requests of a larger HAR, and says how many it had', async () => {
		const { harToRun } = await import('./har/har');
		const entry = (i: number) => ({
			startedDateTime: new Date(Date.UTC(2026, 0, 1, 10, 0, 0, i)).toISOString(),
			time: 1,
			request: { method: 'POST', url: `https://accounts.example.com/oauth/token?grant_type=authorization_code&code=same-code&client_id=shop&redirect_uri=https%3A%2F%2Fshop.example%2Fcb&n=${i}`, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
			response: { status: 400, statusText: 'Bad Request', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'application/json', text: '{"error":"invalid_grant"}' }, redirectURL: '', headersSize: -1, bodySize: 0 },
			cache: {},
			timings: { send: 0, wait: 1, receive: 0 }
		});
		const total = MAX_KEPT_EXCHANGES + 7;
		const imported = harToRun(JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: Array.from({ length: total }, (_, i) => entry(i)) } }));
		expect(imported.ok).toBe(true);
		if (!imported.ok) return;
		expect(imported.run.exchanges).toHaveLength(MAX_KEPT_EXCHANGES);
		expect(imported.found).toContain(describeKept(total));
		expect(describeKept(total)).toBe('kept the first 5,000 of its 5,007 flow requests, the most a run keeps: to diagnose a later part, import a HAR of that part');
	});
});
