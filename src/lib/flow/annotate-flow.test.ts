import { describe, expect, it } from 'vitest';
import { annotateFlow, annotateLastExchange } from './annotate-flow';
import { exchange, flow } from './test-helpers';

const ME = 'https://accounts.example.com/api/v3/me.json';
const TOKEN = 'https://accounts.example.com/oauth/token';
const ME_BODY = '{"sbid_number":"STU0001","verifications":[{"supergroup":"student","expires_on":"2026-06-10"}]}';

describe('annotateFlow', () => {
	it('reads verifications against the sandbox clock, not the day the exchange ran', () => {
		const me = exchange('me', { url: ME, headers: { 'User-Agent': 'a', Authorization: 'Bearer t' } }, { status: 200, body: ME_BODY });
		const target = { kind: 'sandbox' as const, authUrl: '', accountsUrl: '' };
		expect(annotateFlow(flow({ target, sandboxClock: '2026-06-01T00:00:00Z', exchanges: [me] })).exchanges[0]?.verifications?.[0]?.daysLeft).toBe(9);
		expect(annotateFlow(flow({ target, exchanges: [me] })).exchanges[0]?.verifications?.[0]?.daysLeft).toBe(160);
	});

	it('knows a code was exchanged before only when an earlier exchange of it succeeded', () => {
		const body = '{"error":"invalid_grant","error_description":"The provided authorization grant is invalid"}';
		const fail = (id: string) => exchange('token', { method: 'POST', url: `${TOKEN}?code=c-1` }, { status: 400, body }, id);
		const ok = exchange('token', { method: 'POST', url: `${TOKEN}?code=c-1` }, { status: 200, body: '{}' }, 'ok');
		const target = { kind: 'sandbox' as const, authUrl: '', accountsUrl: '' };
		expect(annotateFlow(flow({ target, exchanges: [ok, fail('again')] })).exchanges[1]?.causeId).toBe('used');
		expect(annotateFlow(flow({ target, exchanges: [fail('first'), fail('again')] })).exchanges[1]?.causeId).not.toBe('used');
	});

	it('annotates the callback, and leaves the link and redirect exchanges unannotated', () => {
		const link = 'https://auth.example.com/sso/student?redirect_uri=https%3A%2F%2Fshop.example.com%2Fcb';
		const r = flow({
			link,
			callback: { url: 'https://shop.example.com/cb', receivedAt: '2026-01-01T10:00:00Z' },
			exchanges: [exchange('link', { url: link }, { status: 302 }), exchange('arrival', { url: 'https://shop.example.com/cb' }, { status: 200 })]
		});
		expect(annotateFlow(r)).toEqual({ callback: expect.objectContaining({ outcome: 'cancel' }), exchanges: [null, null] });
	});

	it('annotates a last exchange alone exactly as it annotates it in the whole flow', () => {
		const refused = exchange('token', { method: 'POST', url: `${TOKEN}?code=c-1` }, { status: 400, body: '{"error":"invalid_grant","error_description":"The provided authorization grant is invalid"}' }, 'again');
		const spent = exchange('token', { method: 'POST', url: `${TOKEN}?code=c-1` }, { status: 200, body: '{}' }, 'ok');
		const me = exchange('me', { url: ME, headers: { Authorization: 'Bearer t' } }, { status: 200, body: ME_BODY }, 'me');
		const target = { kind: 'sandbox' as const, authUrl: '', accountsUrl: '' };
		const flows = [[spent, refused], [refused, refused], [spent, me], [me], [spent, me, refused]].map((exchanges) => flow({ target, exchanges }));
		for (const f of flows) expect(annotateLastExchange(f)).toEqual(annotateFlow(f).exchanges.at(-1));
		expect(annotateLastExchange(flows[0]!)?.causeId).toBe('used');
		expect(annotateLastExchange(flow({ target, exchanges: [] }))).toBeNull();
	});
});
