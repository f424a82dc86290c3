import { describe, expect, it } from 'vitest';
import type { LogEntry } from '$lib/http/logged-exchange';
import { serverEvidence } from './sandbox-log';

let nextId = 10;
function entry(host: 'authorisation' | 'accounts', method: string, url: string, status: number, extra: { body?: string; responseBody?: string; keys?: object } = {}): LogEntry {
	const id = nextId++;
	return {
		id,
		at: '2030-01-01T10:00:00.003Z',
		host,
		entry: {
			ref: `r.${id}`,
			host,
			sandboxAt: '2030-01-01T10:00:00.000Z',
			durationMs: 3,
			request: { method, url, headers: [], body: extra.body ?? null },
			response: { status, statusText: '', headers: [], body: extra.responseBody ?? '', truncated: false },
			keys: extra.keys ?? {}
		}
	};
}

const signIn = (client: string) => entry('authorisation', 'GET', `/sso/student?response_type=code&client_id=${client}&redirect_uri=x&country=uk`, 200);
const exchange = (client: string, status: number, extra: { responseBody?: string; keys?: object } = {}) =>
	entry('accounts', 'POST', '/oauth/token', status, { body: `grant_type=authorization_code&code=••••••abcd&client_id=${client}&client_secret=••••••`, ...extra });
const me = (status: number, keys?: object) => entry('accounts', 'GET', '/api/v3/me.json', status, keys ? { keys } : {});

describe('what the app\'s server did, from the sandbox log', () => {
	it('counts the client\'s exchanges (with their errors), me.json calls after them, and visits of the link', () => {
		const before = exchange('shop', 200);
		const log = [
			before,
			signIn('shop'),
			signIn('other'),
			exchange('shop', 200),
			me(200),
			exchange('other', 400, { responseBody: '{"error":"invalid_grant"}' }),
			exchange('shop', 400, { responseBody: '{"error":"invalid_grant","error_description":"used"}' }),
			signIn('shop')
		];
		// Newest first, as the control API answers.
		const evidence = serverEvidence([...log].reverse(), 'shop', before.id);
		expect(evidence.exchanges).toEqual([
			{ status: 200, error: null },
			{ status: 400, error: 'invalid_grant' }
		]);
		expect(evidence.meCalls).toEqual([200]);
		expect(evidence.signInVisits).toBe(2);
		expect(evidence.meAttribution).toBe('time');
	});

	it('reads the client from the query of the token request too', () => {
		const log = [entry('accounts', 'POST', '/oauth/token?grant_type=authorization_code&client_id=shop&code=x', 401, { responseBody: '{"error":"invalid_client"}' })];
		expect(serverEvidence(log, 'shop', 0).exchanges).toEqual([{ status: 401, error: 'invalid_client' }]);
	});

	it('counts a token request sent as GET as the app\'s exchange (refused), and never a CORS preflight', () => {
		const get = entry('accounts', 'GET', '/oauth/token?grant_type=authorization_code&client_id=shop&code=x', 405, { responseBody: '{"error":"invalid_request"}' });
		const preflight = entry('accounts', 'OPTIONS', '/oauth/token?client_id=shop', 204);
		expect(serverEvidence([preflight, get], 'shop', 0).exchanges).toEqual([{ status: 405, error: 'invalid_request' }]);
	});

	it('reads each request\'s step as the flow engine does: a CORS preflight to me.json is no me.json call, a slash after /oauth/token is still the exchange', () => {
		const slashed = entry('accounts', 'POST', 'http://127.0.0.1:3002/oauth/token/', 404, { body: 'grant_type=authorization_code&client_id=shop' });
		const preflight = entry('accounts', 'OPTIONS', 'http://127.0.0.1:3002/api/v3/me.json', 204);
		const call = me(200);
		const evidence = serverEvidence([slashed, preflight, call], 'shop', 0);
		expect(evidence.exchanges).toEqual([{ status: 404, error: null }]);
		expect(evidence.meCalls).toEqual([200]);
	});

	it('ties me.json calls to the client by token digests when the log has correlation keys', () => {
		const log = [exchange('shop', 200, { keys: { clientId: 'shop', issued: ['d-access', 'd-refresh'] } }), me(403, { presented: 'd-other' }), me(404, { presented: 'd-access' })];
		const evidence = serverEvidence(log, 'shop', 0);
		expect(evidence.meCalls).toEqual([404]);
		expect(evidence.meAttribution).toBe('tokens');
	});

	it('counts no me.json call before the client exchanged anything', () => {
		const evidence = serverEvidence([me(200), signIn('shop')], 'shop', 0);
		expect(evidence).toEqual({ exchanges: [], meCalls: [], meShown: [], signInVisits: 1, meAttribution: 'none' });
	});

	it("keeps what the client's me.json answers of 200 said of the user, which its page may show", () => {
		const answer = '{"sbid_number":"STU0001","verifications":[{"supergroup":"student","expires_on":"2030-06-01"}]}';
		const log = [exchange('shop', 200, { keys: { issued: ['t1'] } }), entry('accounts', 'GET', '/api/v3/me.json', 200, { responseBody: answer, keys: { presented: 't1' } }), entry('accounts', 'GET', '/api/v3/me.json', 200, { responseBody: '{"sbid_number":"OTHER01","verifications":[]}', keys: { presented: 't9' } })];
		expect(serverEvidence(log, 'shop', 0).meShown).toEqual(['STU0001', 'student', '2030-06-01']);
		expect(serverEvidence([exchange('shop', 200), entry('accounts', 'GET', '/api/v3/me.json', 401, { responseBody: '{"message":"Unauthorised"}' })], 'shop', 0).meShown).toEqual([]);
	});
});
