import { describe, expect, it } from 'vitest';
import { OUTCOME_RULE_HEADER } from '$lib/protocol';
import { diagnoseFlow } from './diagnose-flow';
import { exchange, flow } from './test-helpers';
import { flowVerdict } from './verdict';

const REDIRECT = 'http://localhost:3000/auth/callback';
const LINK = `http://localhost:4174/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const TOKEN = 'http://localhost:4175/oauth/token';
const ME = 'http://localhost:4175/api/v3/me.json';
const sandbox = { kind: 'sandbox' as const, authUrl: 'http://localhost:4174', accountsUrl: 'http://localhost:4175' };
const callback = { url: `${REDIRECT}?code=••••••abcd`, receivedAt: '2026-01-01T10:00:00.000Z' };
const exchangeBody = `grant_type=authorization_code&code=••••••abcd&client_id=shop&client_secret=••••••&redirect_uri=${encodeURIComponent(REDIRECT)}`;

/** The live page's flow after the rule `token-invalid-client`: the sandbox's log of the app's exchange. */
const invalidClient = () =>
	flow({
		target: sandbox,
		link: LINK,
		callback,
		exchanges: [
			exchange(
				'token',
				{ method: 'POST', url: TOKEN, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'python-requests/2.31.0' }, body: exchangeBody },
				{ status: 401, headers: { 'Content-Type': 'application/json', [OUTCOME_RULE_HEADER]: 'token-invalid-client' }, body: '{"error":"invalid_client","error_description":"Client authentication failed"}' }
			)
		]
	});

describe('answers an outcome rule produced', () => {
	it('are labelled as the rule\'s, never explained as a fault of the request ("use the secret issued")', () => {
		const recorded = invalidClient();
		const diagnosis = diagnoseFlow(recorded);
		const annotation = diagnosis.annotations.exchanges[0]!;
		expect(annotation.summary).toMatch(/^The outcome you asked for: the sandbox's rule `token-invalid-client` produced this answer .*; the question is how your app handled it\./);
		expect(annotation.candidates).toEqual([]);
		expect(annotation.fix).toMatch(/^Nothing to fix in this request/);
		expect(JSON.stringify(diagnosis)).not.toMatch(/secret issued|mistyped|truncated/);
		const verdict = flowVerdict(recorded, diagnosis);
		// The live view holds no page of the app: how it handled the answer is not known, which is no fault either.
		expect(verdict).toMatchObject({ severity: 'unobserved', exchange: { id: 'token-1', n: 1 } });
		expect(verdict.what).toBe('The token exchange (exchange 1) was answered 401 by your outcome rule, as asked; how your app handled it is not in this record.');
		// The same answer without the rule's mark is a real fault, told with its row's causes.
		const real = invalidClient();
		real.exchanges[0]!.response!.headers = real.exchanges[0]!.response!.headers.filter((h) => h.name !== OUTCOME_RULE_HEADER);
		expect(flowVerdict(real, diagnoseFlow(real)).severity).toBe('error');
	});

	/** A sign-in whose me.json answer the `me-group-key` rule produced, and the app's page after it. */
	function groupKeyAnswered(page: { status: number; body: string }) {
		const arrival = exchange('arrival', { url: callback.url }, page, 'a1');
		const token = exchange('token', { method: 'POST', url: TOKEN, headers: { 'User-Agent': 'shop' }, body: exchangeBody }, { status: 200, body: '{"access_token":"••••••","token_type":"Bearer"}' });
		const me = exchange(
			'me',
			{ url: ME, headers: { Authorization: 'Bearer ••••••', 'User-Agent': 'shop' } },
			{ status: 200, headers: { [OUTCOME_RULE_HEADER]: 'me-group-key' }, body: '{"sbid_number":"AB12345","verifications":[{"group":"student","expires_on":"2099-01-01"}]}' }
		);
		return { me, recorded: flow({ target: sandbox, link: LINK, callback, exchanges: [arrival, token, me] }) };
	}

	it('are no fault when the app answered them with a page of its own (a HAR joined with the log)', () => {
		const { me, recorded } = groupKeyAnswered({ status: 200, body: '<h1>Signed in</h1>' });
		const verdict = flowVerdict(recorded, diagnoseFlow(recorded));
		expect(verdict).toMatchObject({ severity: 'success', exchange: { id: me.id, n: 3 }, fix: 'Nothing to fix.' });
		expect(verdict.what).toBe('The me.json call (exchange 3) was answered 200 by your outcome rule, as asked, and your app answered it with a page of its own (200): nothing to fix.');
		expect(verdict.cause).toMatch(/^The outcome you asked for: the sandbox's rule `me-group-key`/);
	});

	it('tell a crash on a rule\'s `group`-keyed answer as the app\'s handling of what was asked for', () => {
		const { recorded } = groupKeyAnswered({ status: 500, body: 'Internal Server Error' });
		const diagnosis = diagnoseFlow(recorded);
		expect(diagnosis.annotations.exchanges[2]?.summary).toMatch(/^The outcome you asked for: the sandbox's rule `me-group-key`/);
		const verdict = flowVerdict(recorded, diagnosis);
		expect(verdict.severity).toBe('error');
		expect(verdict.cause).toContain('the key `group` instead of `supergroup`');
		expect(verdict.cause).toContain('It came from your outcome rule `me-group-key`: the outcome you asked for; the question is how your app handled it.');
	});

	it("tell a crash after a rule's me.json 403 with how that refusal is handled, not only \"a page of your own\"", () => {
		const arrival = exchange('arrival', { url: callback.url }, { status: 500, body: 'Internal Server Error' }, 'a1');
		const token = exchange('token', { method: 'POST', url: TOKEN, headers: { 'User-Agent': 'shop' }, body: exchangeBody }, { status: 200, body: '{"access_token":"••••••","token_type":"Bearer"}' });
		const me = exchange('me', { url: ME, headers: { Authorization: 'Bearer ••••••', 'User-Agent': 'shop' } }, { status: 403, headers: { [OUTCOME_RULE_HEADER]: 'me-403' } });
		const recorded = flow({ target: sandbox, link: LINK, callback, exchanges: [arrival, token, me] });
		const verdict = flowVerdict(recorded, diagnoseFlow(recorded));
		expect(verdict.fix).toBe("Handle me.json's 403 with a page of your own (sign-in unavailable for now), and send a `User-Agent` on every me.json request (4.3), never a 500.");
	});

	it("name the refusal a crash followed by its error, as the service answered it (`invalid_client`, not only the rule's id)", () => {
		const arrival = exchange('arrival', { url: callback.url }, { status: 500, body: 'Internal Server Error' }, 'a1');
		const recorded = flow({ target: sandbox, link: LINK, callback, exchanges: [arrival, ...invalidClient().exchanges] });
		const verdict = flowVerdict(recorded, diagnoseFlow(recorded));
		expect(verdict.what).toContain('was answered 401 `invalid_client` by your outcome rule `token-invalid-client`');
		expect(verdict.fix).toBe("Handle the token endpoint's 401 `invalid_client` with a page of your own (sign in again, or sign-in unavailable), never a 500.");
	});
});
