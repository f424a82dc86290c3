import { describe, expect, it } from 'vitest';
import { crossFlags } from './flags';
import { exchange, flow } from './test-helpers';
import { expectLinear } from './testing/expect-linear';
import { sharedCodeFlow } from './testing/shared-code-flow';

const REDIRECT = 'https://shop.example.com/cb?lang=en';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const TOKEN = 'https://accounts.example.com/oauth/token';
const ME = 'https://accounts.example.com/api/v3/me.json';
const CALLBACK = { url: `${REDIRECT}&code=c-1`, receivedAt: '2026-01-01T10:00:00Z' };

function token(query: string, status = 200, id = 't', hdrs: Record<string, string> = {}) {
	return exchange('token', { method: 'POST', url: `${TOKEN}?${query}`, headers: hdrs }, { status }, id);
}
const redirect = `redirect_uri=${encodeURIComponent(REDIRECT)}`;
const ids = (r: ReturnType<typeof flow>) => crossFlags(r).map((f) => f.id);

describe('crossFlags', () => {
	it('finds nothing wrong in a consistent walk', () => {
		const r = flow({
			link: LINK,
			callback: CALLBACK,
			exchanges: [token(`code=c-1&${redirect}`), exchange('me', { url: ME, headers: { 'User-Agent': 'a', Authorization: 'Bearer tok' } }, { status: 200 })]
		});
		expect(crossFlags(r)).toEqual([]);
	});

	it('reports the link\'s own findings from the linter, without its info notes, nor `state` with no failed check of it', () => {
		const flags = crossFlags(flow({ link: `${LINK}&client_secret=s3cret-value&state=x&scope=openid` }));
		expect(flags.map((f) => f.id)).toEqual(['client-secret-parameter']);
		expect(flags[0]).toMatchObject({ severity: 'error', section: '2.1' });
		expect(flags[0]?.message).not.toContain('s3cret-value');
	});

	it('flags the secret that redaction found in the link by its value, which the masked link no longer shows', () => {
		const masked = flow({ link: `${LINK}&note=%5Bhidden%5D` });
		expect(crossFlags(masked, { secretInLink: true }).map((f) => f.id)).toContain('client-secret-in-link');
		expect(ids(masked)).not.toContain('client-secret-in-link');
	});

	it('says how the token endpoint\'s redirect_uri differs from the link\'s', () => {
		const flags = crossFlags(flow({ link: LINK, exchanges: [token(`code=c-1&redirect_uri=${encodeURIComponent('https://shop.example.com/cb')}`, 400)] }));
		expect(flags).toHaveLength(1);
		expect(flags[0]).toMatchObject({ id: 'redirect-uri-differs', severity: 'error', section: '4.2', exchangeId: 't' });
		expect(flags[0]?.message).toContain('its query is `?lang=en` in the link but (none) here');
	});

	it('names the unencoded link as the cause when the exchange differs from the link exactly by the pieces it lost', () => {
		const whole = 'http://localhost:8080/callback?lang=en&next=/home';
		const link = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${whole}&country=uk`;
		const flags = crossFlags(flow({ link, exchanges: [token(`code=c-1&redirect_uri=${encodeURIComponent(whole)}`, 400)] }));
		expect(flags.find((f) => f.exchangeId === 't')).toMatchObject({ id: 'redirect-uri-differs', severity: 'error' });
		expect(flags.find((f) => f.exchangeId === 't')!.message).toContain('was not encoded as a URI component, so its own query split the link: `next=/home` became a parameter');
		expect(flags.find((f) => f.exchangeId === 't')!.fix).toMatch(/^Encode the whole redirect URI as a URI component/);
	});

	it('reads the redirect_uri from a form body too, and flags one that is missing', () => {
		const form = exchange('token', { method: 'POST', url: TOKEN, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `code=c-1&${redirect}` });
		expect(ids(flow({ link: LINK, exchanges: [form] }))).toEqual([]);
		expect(ids(flow({ link: LINK, exchanges: [token('code=c-1')] }))).toEqual(['redirect-uri-missing']);
	});

	it('flags a code exchanged again after it succeeded as an error, a mere resend as a warning', () => {
		const reused = crossFlags(flow({ exchanges: [token('code=c-1', 200, 'a'), token('code=c-1', 400, 'b')] }));
		expect(reused).toEqual([expect.objectContaining({ id: 'code-reused', severity: 'error', exchangeId: 'b' })]);
		const resent = crossFlags(flow({ exchanges: [token('code=c-1', 401, 'a'), token('code=c-1', 200, 'b')] }));
		expect(resent).toEqual([expect.objectContaining({ id: 'code-resent', severity: 'warning' })]);
	});

	it('flags an exchange without a code after a cancel, and not after an authorisation', () => {
		const cancel = { url: REDIRECT, receivedAt: CALLBACK.receivedAt };
		expect(ids(flow({ link: LINK, callback: cancel, exchanges: [token(redirect, 400)] }))).toEqual(['exchange-after-cancel']);
		expect(ids(flow({ link: LINK, callback: CALLBACK, exchanges: [token(redirect, 400)] }))).toEqual([]);
	});

	it('flags an exchange after a cancel with a code the redirect never delivered (a null turned into text) as exchanged after the cancel', () => {
		const cancel = { url: REDIRECT, receivedAt: CALLBACK.receivedAt };
		const flags = crossFlags(flow({ link: LINK, callback: cancel, exchanges: [token(`code=null&${redirect}`, 400)] }));
		expect(flags).toEqual([expect.objectContaining({ id: 'exchange-after-cancel', severity: 'error', exchangeId: 't' })]);
		expect(flags[0]!.message).toContain('with a `code` the redirect never delivered: your app exchanged after the cancel');
		expect(flags[0]!.fix).toMatch(/^Check for `code` on the redirect before exchanging/);
		// A code an earlier redirect of the record delivered (a sign-in before the cancel) is no exchange after it.
		const earlier = exchange('arrival', { url: `${REDIRECT}&code=c-1` }, { status: 200 }, 'a');
		expect(ids(flow({ link: LINK, callback: cancel, exchanges: [earlier, token(`code=c-1&${redirect}`, 200)] }))).toEqual([]);
	});

	it('flags a grant code sent to me.json, in the header or the query', () => {
		const header = exchange('me', { url: ME, headers: { 'User-Agent': 'a', Authorization: 'Bearer c-1' } }, { status: 401 });
		const query = exchange('me', { url: `${ME}?access_token=c-1`, headers: { 'User-Agent': 'a' } }, { status: 401 });
		expect(ids(flow({ callback: CALLBACK, exchanges: [header] }))).toEqual(['code-sent-to-me']);
		expect(ids(flow({ callback: CALLBACK, exchanges: [query] }))).toEqual(['code-sent-to-me']);
	});

	it('flags me.json without User-Agent: an error when it got 403, a warning otherwise', () => {
		const me = (status: number) => exchange('me', { url: ME, headers: { Authorization: 'Bearer t' } }, { status });
		expect(crossFlags(flow({ exchanges: [me(403)] }))[0]).toMatchObject({ id: 'me-no-user-agent', severity: 'error', section: '4.3' });
		expect(crossFlags(flow({ exchanges: [me(200)] }))[0]).toMatchObject({ id: 'me-no-user-agent', severity: 'warning' });
	});

	it('flags a token exchange sent by a browser', () => {
		expect(ids(flow({ exchanges: [token('code=c-1', 200, 't', { Origin: 'https://shop.example.com' })] }))).toEqual(['token-from-browser']);
	});

	it('includes the faults across time (flow-flags.ts), for every source', () => {
		const me = (status: number, id: string) => exchange('me', { url: ME, headers: { 'User-Agent': 'a', Authorization: 'Bearer tok' } }, { status }, id);
		expect(ids(flow({ exchanges: [me(404, 'first'), me(404, 'again')] }))).toEqual(['token-used-after-deletion', 'deletion-requested']);
		// One 404 after a successful exchange is the service as specified (a deleted account), no fault of the flow.
		expect(ids(flow({ exchanges: [token('code=c-1', 200, 't'), me(404, 'first')] }))).toEqual([]);
	});

	it('flags the cancel loop the live view saw between two flows, from its hint, once, with the state warning the loop gives evidence for', () => {
		const withState = `${LINK}&state=abc`;
		const link = exchange('link', { url: withState }, { status: 200 }, 'l');
		const flags = crossFlags(flow({ link: withState, exchanges: [link] }), { followsCancel: { flowId: 'f-1', secondsAfter: 2 } });
		expect(flags.map((f) => f.id)).toEqual(['cancel-loop', 'state-parameter']);
		expect(flags[0]?.message).toContain('starts the sign-in again');
		expect(flags[0]?.message).not.toContain('passport-oauth2'); // nothing in the record shows it
		// Without the loop, `state` on the link shows no fault (state-evidence.ts).
		expect(ids(flow({ link: withState, exchanges: [link] }))).toEqual([]);
	});
});

describe('crossFlags of a flow that sends one code thousands of times', () => {
	it('flags each later exchange as a reuse of the first accepted one', () => {
		const flags = crossFlags(sharedCodeFlow(3)).filter((f) => f.id === 'code-reused');
		expect(flags.map((f) => f.exchangeId)).toEqual(['token-2', 'token-3']);
		expect(flags[1]!.message).toContain('the code that exchange 2 already exchanged successfully');
	});

	it('grows linearly with the exchanges (each compared with every earlier one took 20 s for 1,500)', () => {
		const flows = new Map([400, 1600].map((n) => [n, sharedCodeFlow(n)]));
		expectLinear((n) => crossFlags(flows.get(n)!), 400);
	});
});
