import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowVerdict } from '$lib/flow/verdict';
import { diagnoseRun } from './diagnose-run';
import { harToRun } from './har/har';
import { exchange, run } from './test-helpers';
import { importTitle, parseRunFilters, retitleAfterJoin, runClientId, triageOf } from './triage';
import { MAX_SHOWN_EXCHANGES } from './exchange-cap';

function imported(fixture: string) {
	const result = harToRun(readFileSync(new URL(`./har/fixtures/${fixture}`, import.meta.url), 'utf8'), { id: 'r', now: new Date('2026-11-26T10:00:00Z') });
	if (!result.ok) throw new Error(result.message);
	return result.run;
}

describe('triageOf', () => {
	it('gives a HAR whose calls all answered 200 the verdict its run page shows: an error', () => {
		const har = imported('chrome-unrelated.har.json');
		expect(har.exchanges.filter((e) => e.step === 'token' || e.step === 'me').map((e) => e.response?.status)).toEqual([200, 200]);
		const triage = triageOf(har);
		expect(triage).toMatchObject({ clientId: 'shop-client', verdict: 'error' });
		expect(triage.verdictWhat).toBe(flowVerdict(har, diagnoseRun(har)).what);
	});

	it('says a flow with nothing wrong succeeded', () => {
		expect(triageOf(imported('success.har.json')).verdict).toBe('success');
	});

	it('gives a run longer than the page diagnoses the verdict of the part its page shows', () => {
		const good = imported('success.har.json');
		const me = good.exchanges.find((e) => e.step === 'me')!;
		const refused = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: 'grant_type=authorization_code&code=c' }, { status: 401, body: '{"error":"invalid_client"}' });
		const padded = { ...good, exchanges: [...good.exchanges, ...Array.from({ length: MAX_SHOWN_EXCHANGES }, (_, i) => ({ ...me, id: `me-${i}` })), refused] };
		expect(flowVerdict(padded, diagnoseRun(padded)).severity).toBe('error');
		expect(triageOf(padded).verdict).toBe('success');
	});
});

describe('importTitle', () => {
	it('names the client, the verdict, the exchange it is about and the day', () => {
		const har = imported('reused-code.har.json');
		expect(importTitle(har, flowVerdict(har, diagnoseRun(har)))).toBe('Imported HAR, shop-client: error, token 400 (2026-11-26)');
	});
});

describe('retitleAfterJoin', () => {
	const refused = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: 'grant_type=authorization_code&code=c&client_id=shop-client' }, { status: 401, body: '{"error":"invalid_client"}' });
	const titled = (r: ReturnType<typeof imported>) => ({ ...r, title: importTitle(r, flowVerdict(r, diagnoseRun(r))) });

	it("titles an import again by the verdict its evidence gives, as its import titled it", () => {
		const before = titled(imported('success.har.json'));
		expect(before.title).toContain(': succeeded');
		const after = retitleAfterJoin(before, { ...before, exchanges: [...before.exchanges, refused] });
		expect(after.title).toBe(importTitle(after, flowVerdict(after, diagnoseRun(after))));
		expect(after.title).toMatch(/^Imported HAR, shop-client: error, token 401 \(2026-11-26\)$/);
	});

	it('keeps any other title: a walk, or an import titled otherwise (a restored export)', () => {
		const walk = { ...imported('success.har.json'), source: 'walk' as const, title: 'Walk of demo-client' };
		expect(retitleAfterJoin(walk, { ...walk, exchanges: [...walk.exchanges, refused] }).title).toBe('Walk of demo-client');
		const restored = { ...imported('success.har.json'), title: 'Ticket 4711, as exported' };
		expect(retitleAfterJoin(restored, { ...restored, exchanges: [...restored.exchanges, refused] }).title).toBe('Ticket 4711, as exported');
	});
});

describe('runClientId', () => {
	it('reads the link first', () => {
		expect(runClientId(run({ link: 'https://auth.example.com/oauth/authorise?client_id=from-link' }))).toBe('from-link');
	});

	it('else the token request, Basic credentials included', () => {
		const token = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { authorization: `Basic ${btoa('basic-client:s3cret')}` }, body: 'grant_type=authorization_code' });
		expect(runClientId(run({ exchanges: [token] }))).toBe('basic-client');
	});

	it('is null when no request names one', () => {
		expect(runClientId(run({ exchanges: [exchange('me', { url: 'https://accounts.example.com/api/v3/me.json' })] }))).toBeNull();
	});
});

describe('parseRunFilters', () => {
	it('keeps known values and drops unknown ones', () => {
		expect(parseRunFilters(new URLSearchParams('verdict=error&source=import&client=%20shop-client%20'))).toEqual({ verdict: 'error', source: 'import', client: 'shop-client' });
		expect(parseRunFilters(new URLSearchParams('verdict=bad&source=har&client='))).toEqual({});
	});
});
