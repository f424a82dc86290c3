import { describe, expect, it } from 'vitest';
import { LIMITS } from '$lib/protocol';
import type { RecordedExchange, StepId } from './exchange';
import { flowFlags, type FlaggedFlow } from './flow-flags';

const LINK = 'http://auth.test/sso/student?response_type=code&client_id=app&redirect_uri=http%3A%2F%2Fapp.test%2Fcb&country=uk';
const T0 = Date.parse('2030-01-01T10:00:00Z');

function exchange(id: string, step: StepId, atSeconds: number, options: { url?: string; body?: string; status?: number } = {}): RecordedExchange {
	return {
		id,
		step,
		label: step,
		startedAt: new Date(T0 + atSeconds * 1000).toISOString(),
		durationMs: 1,
		request: { method: step === 'token' ? 'POST' : 'GET', url: options.url ?? (step === 'link' ? LINK : `http://api.test/${step}`), headers: [], body: options.body ?? null },
		response: { status: options.status ?? 200, statusText: '', headers: [], body: '', truncated: false },
		failure: null,
		masked: []
	};
}

function flow(exchanges: RecordedExchange[], extra: Partial<FlaggedFlow> = {}): FlaggedFlow {
	return { link: LINK, callback: { url: 'http://app.test/cb?code=x', receivedAt: new Date(T0).toISOString() }, exchanges, followsCancel: null, ...extra };
}

const ids = (f: FlaggedFlow) => flowFlags(f).map((flag) => `${flag.id}@${flag.exchangeId ?? ''}:${flag.severity}`);

describe('flowFlags', () => {
	it('flags an exchange of the code after its 2 hours, not one just within them, nor a refresh', () => {
		const ttl = LIMITS.codeTtlSeconds;
		const f = flow([
			exchange('in-time', 'token', ttl, { body: 'grant_type=authorization_code&code=x' }),
			exchange('late', 'token', ttl + 60, { body: 'grant_type=authorization_code&code=x', status: 400 }),
			exchange('refresh', 'token', ttl + 120, { body: 'grant_type=refresh_token&refresh_token=r' })
		]);
		expect(ids(f)).toEqual(['exchange-after-expiry@late:error']);
		expect(flowFlags(f)[0]!.message).toMatch(/2 hours 1 minute after the redirect/);
		expect(ids(flow(f.exchanges, { callback: null }))).toEqual([]);
	});

	it('flags a sign-in that began right after a cancel as the cancel loop, naming no library the record does not show', () => {
		const f = flow([exchange('link', 'link', 0)], { callback: null, followsCancel: { flowId: 'before', secondsAfter: 1 } });
		expect(ids(f)).toEqual(['cancel-loop@link:error']);
		expect(flowFlags(f)[0]!.message).toMatch(/starts the sign-in again/);
		expect(flowFlags(f)[0]!.fix).not.toMatch(/passport/);
		expect(ids(flow([exchange('link', 'link', 0)], { callback: null }))).toEqual([]);
	});

	it('says a me.json 404 means deletion was asked for, and flags each use of the token after it', () => {
		const f = flow([exchange('ok', 'me', 10), exchange('first', 'me', 20, { status: 404 }), exchange('again', 'me', 30, { status: 404 })]);
		expect(ids(f)).toEqual(['token-used-after-deletion@again:error', 'deletion-requested@first:warning']);
	});
});
