import { describe, expect, it } from 'vitest';
import { browserExchanges, diagnoseCheck, type BrowserRequestSeen, type CheckScope } from './engine';
import { findAppCheck, type AppCheckId } from './checks';
import type { LogEntry } from '$lib/http/logged-exchange';

const AUTH = 'http://localhost:4174';
const API = 'http://localhost:4175';
const REDIRECT = 'http://localhost:3000/auth/callback';
const M = '••••••';

/** The check `id` of the client `shop` over the whole log, told the client's secrets. */
const scope = (id: AppCheckId = 'success', clientSecrets: string[] = []): CheckScope => ({ clientId: 'shop', afterId: 0, check: findAppCheck(id)!, clientSecrets });

let id = 100;
let second = 0;
/** A log entry as GET /sandbox/log answers it: masked values, the correlation keys' digests. */
function logged(host: 'authorisation' | 'accounts', method: string, url: string, status: number, extra: { body?: string; answer?: string; location?: string; headers?: [string, string][]; keys?: object } = {}): LogEntry {
	return {
		id: id++,
		at: `2030-01-01T10:00:${String(second).padStart(2, '0')}.003Z`,
		host,
		entry: {
			ref: `r${id}`,
			host,
			sandboxAt: `2030-01-01T10:00:${String(second++).padStart(2, '0')}.000Z`,
			durationMs: 3,
			request: { method, url, headers: (extra.headers ?? []).map(([name, value]) => ({ name, value })), body: extra.body ?? null },
			response: { status, statusText: '', headers: extra.location ? [{ name: 'Location', value: extra.location }] : [], body: extra.answer ?? '', truncated: false },
			keys: extra.keys ?? {}
		}
	};
}

/** The sign-in of the check: link, pages, consent with the redirect, then what the app's server sent. */
function signIn(exchangeRedirect: string, tokenStatus: number, answer: string, userAgent = 'shop/1.0', linkExtra = ''): LogEntry[] {
	const link = `${AUTH}/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk${linkExtra}`;
	return [
		logged('authorisation', 'GET', link, 303, { location: '/flow/F1', keys: { clientId: 'shop', authFlow: 'f' } }),
		logged('authorisation', 'POST', `${AUTH}/flow/F1/login`, 303, { location: '/flow/F1', keys: { authFlow: 'f' } }),
		logged('authorisation', 'POST', `${AUTH}/flow/F1/consent`, 303, { location: `${REDIRECT}?code=${M}abcd`, keys: { authFlow: 'f', code: 'c' } }),
		logged('accounts', 'POST', `${API}/oauth/token`, tokenStatus, {
			body: `grant_type=authorization_code&code=${M}abcd&client_id=shop&client_secret=${M}&redirect_uri=${encodeURIComponent(exchangeRedirect)}`,
			headers: [['User-Agent', userAgent], ['Content-Type', 'application/x-www-form-urlencoded']],
			answer,
			keys: { clientId: 'shop', code: 'c', ...(tokenStatus === 200 ? { issued: ['t'] } : {}) }
		})
	];
}

describe('the app check\'s server side, from the flow engine', () => {
	it('names the exact difference of a redirect_uri that differs at the exchange, as the live page does', () => {
		const log = signIn('http://localhost:3000/callback', 400, '{"error":"invalid_grant","error_description":"The redirect_uri does not match"}');
		const diagnosis = diagnoseCheck(log, scope()).server;
		expect(diagnosis?.step).toBe('token');
		expect(diagnosis?.cause).toContain("sends a `redirect_uri` that differs from the link's: its path is `/auth/callback` in the link but `/callback` here");
		expect(diagnosis?.fix).not.toMatch(/check the client id, secret and redirect_uri/);
	});

	it("names the row the live page names, and keeps a warning: the engine's fix for a me.json never read", () => {
		second = 0;
		const mismatch = diagnoseCheck(signIn('http://localhost:3000/callback', 400, '{"error":"invalid_grant","error_description":"The redirect_uri does not match"}'), scope()).server;
		expect(mismatch).toMatchObject({ severity: 'error', reference: { kind: 'row', table: '7.2', rowId: 'token-invalid-grant' } });
		second = 0;
		const unread = diagnoseCheck(signIn(REDIRECT, 200, `{"access_token":"${M}wxyz","token_type":"Bearer"}`), scope()).server;
		expect(unread).toMatchObject({ severity: 'warning', step: null, fix: 'After the exchange, read /api/v3/me.json with the access token (Authorization: Bearer, and a User-Agent).' });
	});

	it("finds the client's secret in the link under any name, as the live page does, when the check was told it", () => {
		const SECRET = 'shop-secret-0123456789abcdef';
		second = 0;
		const log = signIn(REDIRECT, 200, `{"access_token":"${M}wxyz"}`, 'shop/1.0', `&app_key=${SECRET}`);
		expect(diagnoseCheck(log, scope('success', [SECRET])).link).toContainEqual(expect.objectContaining({ severity: 'error', message: expect.stringMatching(/^The client secret's value was in the authorisation link/) }));
		expect(diagnoseCheck(log, scope()).link).toEqual([]);
	});

	it('ties a me.json call that carried no token to the check by time, and names its row, rather than saying the app never read me.json', () => {
		second = 0;
		const signedIn = signIn(REDIRECT, 200, `{"access_token":"${M}wxyz","token_type":"Bearer"}`);
		const noToken = logged('accounts', 'GET', `${API}/api/v3/me.json`, 401, { headers: [['User-Agent', 'shop/1.0']], answer: '{"error":"invalid_token"}' });
		const diagnosis = diagnoseCheck([...signedIn, noToken], scope());
		expect(diagnosis.calls).toMatchObject({ meCalls: [401], meTiedByTime: true });
		expect(diagnosis.server).toMatchObject({ severity: 'error', step: 'me', reference: { kind: 'row', table: '7.3' } });
		second = 0;
		const before = logged('accounts', 'GET', `${API}/api/v3/me.json`, 401, { headers: [['User-Agent', 'shop/1.0']], answer: '{"error":"invalid_token"}' });
		expect(diagnoseCheck([before, ...signIn(REDIRECT, 200, `{"access_token":"${M}wxyz","token_type":"Bearer"}`)], scope()).calls).toMatchObject({ meCalls: [], meTiedByTime: false });
	});

	it('leaves out the answer the check\'s own rule produced: that is no fault of the app', () => {
		const log = signIn(REDIRECT, 401, '{"error":"invalid_client","error_description":"Client authentication failed"}');
		expect(diagnoseCheck(log, scope('invalid-client')).server).toBeNull();
		expect(diagnoseCheck(log, scope()).server?.step).toBe('token');
	});

	it("advises on a loop after a cancel naming passport-oauth2 when any of the client's requests shows it, and no library for another stack", () => {
		expect(diagnoseCheck(signIn(REDIRECT, 200, '{"access_token":"x"}', 'Node-oauth'), scope('cancel')).loopFix).toMatch(/passport\.authenticate/);
		expect(diagnoseCheck(signIn(REDIRECT, 200, '{"access_token":"x"}', 'python-requests/2.31.0'), scope('cancel')).loopFix).not.toMatch(/passport/);
	});

	it('names what is wrong in the link: a client_secret as an error, a state as a warning, even when no code was exchanged', () => {
		const withSecret = diagnoseCheck(signIn(REDIRECT, 200, '{"access_token":"x"}', 'shop/1.0', `&client_secret=${M}`), scope());
		expect(withSecret.link).toContainEqual(expect.objectContaining({ severity: 'error', message: expect.stringMatching(/client_secret/) }));
		const withState = signIn(REDIRECT, 200, '', 'shop/1.0', '&state=xyz').slice(0, 3);
		expect(diagnoseCheck(withState, scope()).link).toContainEqual(expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/`state`/) }));
		// The app answered by starting a new sign-in (a loop): the finding is the check's own sign-in's, not the loop's.
		const looped = [...withState, signIn(REDIRECT, 200, '', 'shop/1.0', '&state=abc')[0]!];
		expect(diagnoseCheck(looped, scope()).link).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/`state`/) }));
	});

	it('finds nothing in a clean link, and leaves the failed exchange to the server\'s diagnosis', () => {
		expect(diagnoseCheck(signIn(REDIRECT, 200, '{"access_token":"x"}'), scope()).link).toEqual([]);
		expect(diagnoseCheck(signIn('http://localhost:3000/callback', 400, '{"error":"invalid_grant"}'), scope()).link).toEqual([]);
	});

	it('names the sign-in page\'s refusal of the link (7.1) first, with its row\'s fix', () => {
		const page = '<main><h1>Sign-in link not valid</h1><div class="alert" role="alert" data-error="auth-invalid-redirect-uri"><p>The redirect URI included is not valid.</p></div><dl><dt>What was wrong</dt><dd><code>http://127.0.0.1:3000/callback</code> is not registered for Shop. Registered: http://localhost:3000/auth/callback.</dd></dl></main>';
		const link = `${AUTH}/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent('http://127.0.0.1:3000/callback')}&country=uk`;
		const refused = [logged('authorisation', 'GET', link, 400, { answer: page, keys: { clientId: 'shop' } })];
		const { link: found } = diagnoseCheck(refused, scope());
		expect(found[0]).toMatchObject({ severity: 'error', message: expect.stringMatching(/redirect URI/i) });
		expect(found[0]!.fix).toMatch(/regist/i);
	});

	describe("with the browser's side joined (what the check's browser saw of the app)", () => {
		/** At a time of the sign-in's second 03 (the link, the sign-in and the consent are at 00, 01 and 02). */
		const timed = (e: LogEntry, ms: number): LogEntry => {
			const time = `2030-01-01T10:00:03.${String(ms).padStart(3, '0')}Z`;
			return { ...e, at: time, entry: { ...e.entry, sandboxAt: time } };
		};
		const CODE = 'browser-seen-code-0000abcd';
		const rerun = (): LogEntry[] => {
			second = 0;
			const [link, login, consent, token] = signIn(REDIRECT, 200, '{"access_token":"t-1","token_type":"Bearer"}');
			const me = logged('accounts', 'GET', `${API}/api/v3/me.json`, 200, { headers: [['Authorization', `Bearer ${M}wxyz`]], answer: '{"sbid_number":"STU0001","verifications":[{"supergroup":"student","country":"uk"}]}', keys: { clientId: 'shop', presented: 't' } });
			const again = logged('accounts', 'POST', `${API}/oauth/token`, 400, { body: token!.entry.request.body!, headers: [['User-Agent', 'shop/1.0']], answer: '{"error":"invalid_grant","error_description":"used"}', keys: { clientId: 'shop', code: 'c' } });
			return [link!, login!, consent!, timed(token!, 0), timed(me, 10), timed(again, 20)];
		};
		const seen = (ms: number, method: string, url: string, status: number, requestBody: string | null = null): BrowserRequestSeen => ({
			method, url, requestBody, startedMs: Date.parse(`2030-01-01T10:00:02.${ms}Z`), durationMs: 5, status, headers: { 'content-type': 'text/html' }, body: ''
		});
		const arrival = seen(500, 'GET', `${REDIRECT}?code=${CODE}`, 200);
		const post = (ms: number, status: number) => seen(ms, 'POST', 'http://localhost:3000/api/session', status, JSON.stringify({ code: CODE }));

		it("takes an exchange of a used code at once after me.json as the callback's re-run after a crash, with the log alone", () => {
			expect(diagnoseCheck(rerun(), scope()).server?.cause).toContain('ran a second time for one sign-in');
		});

		it("names the page's double post instead, when the browser saw the page send the code twice", () => {
			const { server, page } = diagnoseCheck(rerun(), scope(), browserExchanges([arrival, post(600, 200), post(601, 400)], [AUTH, API]));
			expect(server?.cause).toContain('already exchanged successfully');
			expect(server?.cause).not.toContain('ran a second time');
			expect(page).toContainEqual(expect.objectContaining({ severity: 'error', message: expect.stringContaining("Your app's page sent the same grant code to your app's server 2 times") }));
		});

		it("reads the browser's requests to the sandbox as its links and sign-in pages, and leaves its token endpoint and me.json to the log", () => {
			const back = seen(700, 'GET', `${AUTH}/sso/student?response_type=code&client_id=shop&redirect_uri=x&country=uk`, 303);
			const token = seen(800, 'POST', `${API}/oauth/token`, 200);
			expect(browserExchanges([arrival, back, token, post(900, 200)], [AUTH, API]).map((e) => e.step)).toEqual(['arrival', 'link', 'arrival']);
		});

		it("finds a token the app's answer handed the browser as the live page's engine does: by its field, or by an issued token's tail", () => {
			const answer = (body: string): BrowserRequestSeen => ({ ...post(600, 200), headers: { 'content-type': 'text/html' }, body });
			// The token endpoint's answer as the sandbox's log shows it: each token masked but for its tail.
			const issued = () => {
				second = 0;
				return signIn(REDIRECT, 200, `{"access_token":"${M}wxyz","token_type":"Bearer","refresh_token":"${M}rstu"}`);
			};
			const handed = (body: string) => diagnoseCheck(issued(), scope(), browserExchanges([arrival, answer(body)], [AUTH, API])).tokenHanded;
			expect(handed('{"access_token":"abc-123"}')).toEqual({ name: 'access_token', by: 'field', url: 'http://localhost:3000/api/session' });
			// A quoted literal ending in an issued token's tail is that token.
			expect(handed('<script>window.session = "AAAAbbbbCCCCddddEEEEffffwxyz";</script>')).toEqual({ name: 'access_token', by: 'tail', url: 'http://localhost:3000/api/session' });
			expect(handed('<p>Signed in as STU0001</p>')).toBeNull();
			expect(diagnoseCheck(issued(), scope()).tokenHanded).toBeNull();
		});

		it("leaves out the exchange the check's reload of the callback repeated, unless the check did not reload", () => {
			const reloaded = [arrival, seen(500, 'GET', `${REDIRECT}?code=${CODE}`, 500)].map((r, i) => ({ ...r, startedMs: Date.parse('2030-01-01T10:00:03.015Z') + i }));
			const exchanges = browserExchanges([arrival, ...reloaded.slice(1)], [AUTH, API]);
			expect(diagnoseCheck(rerun(), scope('code-reused'), exchanges).server).toBeNull();
			expect(diagnoseCheck(rerun(), scope(), exchanges).server).toMatchObject({ severity: 'error', step: 'token' });
		});

		it('keeps the guess when the browser saw the code sent once', () => {
			expect(diagnoseCheck(rerun(), scope(), browserExchanges([arrival, post(600, 200)], [AUTH, API])).server?.cause).toContain('ran a second time');
		});
	});

	describe("the app's server's calls, as the engine's reconstruction joins them", () => {
		it('reads its exchanges (with their errors), its me.json calls by the token it was issued, and what they said of the user', () => {
			second = 0;
			const me = (status: number, presented: string, answer = '') => logged('accounts', 'GET', `${API}/api/v3/me.json`, status, { headers: [['Authorization', `Bearer ${M}wxyz`]], answer, keys: { presented } });
			const answer = '{"sbid_number":"STU0001","verifications":[{"supergroup":"student","expires_on":"2030-06-01"}]}';
			const log = [...signIn(REDIRECT, 200, '{"access_token":"x"}'), me(403, 'someone-else'), me(200, 't', answer)];
			expect(diagnoseCheck(log, scope()).calls).toEqual({ meTiedByTime: false, exchanges: [{ status: 200, error: null }], meCalls: [200], meShown: ['STU0001', 'student', '2030-06-01'], signInVisits: 1 });
			second = 0;
			expect(diagnoseCheck(signIn(REDIRECT, 400, '{"error":"invalid_grant","error_description":"used"}'), scope()).calls.exchanges).toEqual([{ status: 400, error: 'invalid_grant' }]);
		});

		it("counts the link's visits over every flow of the client after the check began, and nothing of another client's or before", () => {
			second = 0;
			const before = signIn(REDIRECT, 200, '{"access_token":"x"}');
			const mine = signIn(REDIRECT, 200, '{"access_token":"x"}');
			const again = logged('authorisation', 'GET', mine[0]!.entry.request.url, 303, { location: '/flow/F2', keys: { clientId: 'shop', authFlow: 'g' } });
			const other = logged('authorisation', 'GET', mine[0]!.entry.request.url.replace('client_id=shop', 'client_id=other'), 303, { keys: { clientId: 'other', authFlow: 'h' } });
			const calls = diagnoseCheck([...before, ...mine, again, other], { ...scope(), afterId: before.at(-1)!.id }).calls;
			expect(calls).toMatchObject({ signInVisits: 2, exchanges: [{ status: 200, error: null }] });
		});

		it('counts a token request sent as GET as an exchange (refused), and never a CORS preflight', () => {
			second = 0;
			const [link, login, consent] = signIn(REDIRECT, 200, '');
			const get = logged('accounts', 'GET', `${API}/oauth/token?grant_type=authorization_code&client_id=shop&code=${M}abcd`, 405, { answer: '{"error":"invalid_request"}', keys: { clientId: 'shop', code: 'c' } });
			const preflight = logged('accounts', 'OPTIONS', `${API}/oauth/token?client_id=shop`, 204, { keys: { clientId: 'shop' } });
			expect(diagnoseCheck([link!, login!, consent!, preflight, get], scope()).calls.exchanges).toEqual([{ status: 405, error: 'invalid_request' }]);
		});
	});
});
