import { describe, expect, it } from 'vitest';
import { OUTCOME_RULE_HEADER, errorCause } from '$lib/protocol';
import { annotateFlow } from '../annotate-flow';
import { browserFlags as flagsOfSide, readBrowserSide } from './browser-flags';
import { crossFlags } from '../flags';
import { diagnoseFlow } from '../diagnose-flow';
import { flowVerdict } from '../verdict';
import { STATE_CHECK_FIX } from '../link/lint-params';
import { exchange, flow } from '../test-helpers';
import type { RecordedExchange } from '../exchange';
import type { FlowRecord } from '../record';

const browserFlags = (record: FlowRecord) => flagsOfSide(readBrowserSide(record));

const REDIRECT = 'https://shop.example.com/cb';
const linkTo = (redirect: string, extra = '') =>
	`https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(redirect)}&country=uk${extra}`;
const LINK = linkTo(REDIRECT);

function at(e: RecordedExchange, time: string, id: string): RecordedExchange {
	return { ...e, startedAt: `2026-01-01T${time}.000Z`, id };
}
const linkExchange = (time: string, url = LINK, id = 'l') => at(exchange('link', { url }, { status: 302, headers: { Location: '/sso/student/flow/1' } }), time, id);
function arrive(time: string, query: string, status: number, id: string, response: { body?: string; location?: string } = {}): RecordedExchange {
	const url = `${REDIRECT}${query}`;
	const headers: Record<string, string> = response.location ? { Location: response.location } : {};
	return at(exchange('arrival', { url }, { status, headers, body: response.body ?? '' }), time, id);
}
const callbackOf = (e: RecordedExchange) => ({ url: e.request.url, receivedAt: e.startedAt });

describe('browserFlags: the app\'s callback page, from the browser\'s side', () => {
	it('finds nothing wrong in a good sign-in: one arrival, answered with a redirect into the app', () => {
		const good = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home', body: 'Found. Redirecting to /home' });
		const record = flow({ link: LINK, callback: callbackOf(good), exchanges: [linkExchange('10:00:00'), good] });
		expect(crossFlags(record)).toEqual([]);
		expect(annotateFlow(record).callback).toMatchObject({ outcome: 'success' });
	});

	it('ranks `used` first when the code had already arrived (a reload), and lists each arrival\'s outcome', () => {
		const first = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home' });
		const reload = arrive('10:01:10', '?code=c-1', 500, 'a2', { body: 'Internal Server Error' });
		const record = flow({ link: LINK, callback: callbackOf(reload), exchanges: [linkExchange('10:00:00'), first, reload] });
		const flags = crossFlags(record);
		expect(flags.map((f) => f.id)).toEqual(['callback-failed', 'code-arrived-again']);
		const [failed, again] = flags;
		expect(failed).toMatchObject({ severity: 'error', exchangeId: 'a2', fix: errorCause('token-invalid-grant', 'used').fix });
		expect(failed?.candidates?.[0]).toMatchObject({ rowId: 'token-invalid-grant', causeId: 'used', likelihood: 'likely' });
		expect(failed?.candidates?.slice(1).every((c) => c.likelihood === 'possible')).toBe(true);
		expect(failed?.message).toContain('answered 500');
		expect(failed?.message).toContain('Most likely: `used` (invalid_grant)');
		expect(failed?.candidates?.[0]?.why).toContain('40 s earlier (arrival 1, exchange 2, answered 302 to /home)');
		expect(again).toMatchObject({ severity: 'error', exchangeId: 'a2' });
		expect(again?.message).toContain('arrived 2 times');
		expect(again?.message).toContain('arrival 1 (exchange 2, 10:00:30 UTC) answered 302 to /home');
		expect(again?.message).toContain('arrival 2 (exchange 3, 10:01:10 UTC, 40 s after the first) answered 500');
		expect(again?.message).toContain("if the first arrival's exchange succeeded");
	});

	it("says the first arrival's exchange used the code only when the record shows it succeed", () => {
		const token = (time: string, id: string, status: number, body: string) =>
			at(exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: 'grant_type=authorization_code&code=c-1' }, { status, body }), time, id);
		const first = arrive('10:00:30', '?code=c-1', 502, 'a1', { body: 'Bad Gateway' });
		const again = arrive('10:00:31', '?code=c-1', 502, 'a2', { body: 'Bad Gateway' });
		const flagOf = (firstExchange: RecordedExchange) =>
			crossFlags(flow({ link: LINK, callback: callbackOf(first), exchanges: [first, firstExchange, again, token('10:00:31.5', 't2', 400, '{"error":"invalid_grant"}')] })).find((f) => f.id === 'code-arrived-again');
		// A refused exchange uses no code: the second invalid_grant is not the code's reuse.
		expect(flagOf(token('10:00:30.5', 't1', 400, '{"error":"invalid_grant","error_description":"redirect_uri does not match"}'))).toBeUndefined();
		expect(flagOf(token('10:00:30.5', 't1', 200, '{"access_token":"a","token_type":"Bearer"}'))?.message).toContain("the first arrival's exchange (exchange 2) used it");
	});

	it("says a failed callback's server-side step is unseen when the browser's record names no error and shows no cause", () => {
		const failed = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: 'Internal Server Error' });
		const [flag] = browserFlags(flow({ link: LINK, callback: callbackOf(failed), exchanges: [linkExchange('10:00:00'), failed] }));
		expect(flag).toMatchObject({ id: 'callback-failed', severity: 'error', exchangeId: 'a1' });
		expect(flag?.candidates).toBeUndefined();
		expect(flag?.message).toContain("a step on your app's server failed");
		expect(flag?.message).toContain("The record holds only the browser's side");
		expect(flag?.fix).toMatch(/^To see which, add the server's side: the sandbox's log .* your server's HAR or curl/);
	});

	it("does not tell a possible cause of an error the page names as the failure's, when nothing in the record ranks one", () => {
		const failed = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: 'invalid_grant' });
		const record = flow({ link: LINK, callback: callbackOf(failed), exchanges: [linkExchange('10:00:00'), failed] });
		const [flag] = browserFlags(record);
		expect(flag?.candidates).toBeUndefined();
		expect(flag?.message).toContain("The page names `invalid_grant` (7.2), whose causes are told by the exchange your server sent. The record holds only the browser's side");
		// The callback still lists the row's causes.
		expect(annotateFlow(record).callback?.candidates.length).toBeGreaterThan(0);
	});

	it('finds no fault in a repeated arrival the app coped with (a reload, the back button)', () => {
		const first = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home' });
		const again = arrive('10:00:40', '?code=c-1', 302, 'a2', { location: '/login' });
		expect(browserFlags(flow({ link: LINK, exchanges: [first, again] }))).toEqual([]);
	});

	it('ranks `redirect-mismatch` first for a fresh code when the link\'s redirect_uri carries extra query parameters', () => {
		const redirect = `${REDIRECT}?next=/home`;
		const arrival = at(exchange('arrival', { url: `${redirect}&code=c-2` }, { status: 502, body: '<pre>TokenError: invalid_grant</pre>' }), '10:00:30', 'a1');
		const record = flow({ link: linkTo(redirect), callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00', linkTo(redirect)), arrival] });
		const [failed, ...rest] = crossFlags(record);
		expect(rest).toEqual([]);
		expect(failed).toMatchObject({ id: 'callback-failed', fix: errorCause('token-invalid-grant', 'redirect-mismatch').fix });
		expect(failed?.message).toContain("naming `invalid_grant`, with passport-oauth2's \"TokenError\"");
		expect(failed?.candidates?.[0]?.why).toContain('`?next=/home`');
		expect(failed?.candidates?.map((c) => c.rowId)).toEqual(Array(6).fill('token-invalid-grant'));
		expect(failed?.candidates?.[0]?.causeId).toBe('redirect-mismatch');
	});

	it("says the server's step is unseen when only the link's extra query parameters hint at a cause, keeping that as one thing to check", () => {
		const redirect = `${REDIRECT}?lang=en&next=/home`;
		const arrival = at(exchange('arrival', { url: `${redirect}&code=c-2` }, { status: 502, body: '<h1>Sign-in failed</h1><p>The service could not tell us who you are (403).</p>' }), '10:00:30', 'a1');
		const record = flow({ link: linkTo(redirect), callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00', linkTo(redirect)), arrival] });
		const [failed] = crossFlags(record);
		expect(failed?.message).toContain("a step on your app's server failed");
		expect(failed?.candidates).toBeUndefined();
		expect(flowVerdict(record, diagnoseFlow(record)).cause).not.toContain('redirect-mismatch');
		expect(annotateFlow(record).callback?.candidates.map((c) => `${c.causeId} ${c.likelihood}`)).toEqual(['redirect-mismatch possible']);
	});

	it("names the client library's `state` check when the link carries `state` and the callback crashed inside the OAuth library", () => {
		const arrival = at(exchange('arrival', { url: `${REDIRECT}?code=c-2` }, { status: 500, body: 'Internal Server Error\nClientError: invalid response encountered\n    at Module.authorizationCodeGrant (file:///app/node_modules/openid-client/build/index.js:944:21)' }), '10:00:30', 'a1');
		const record = flow({ link: linkTo(REDIRECT, '&state=st4te'), callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00', linkTo(REDIRECT, '&state=st4te')), arrival] });
		expect(flowVerdict(record, diagnoseFlow(record))).toMatchObject({ severity: 'error', fix: STATE_CHECK_FIX, cause: expect.stringContaining("most likely your client library's `state` check") });
	});

	it('points at the client credentials when the page names invalid_client, whatever else the HAR shows', () => {
		const arrival = arrive('10:00:30', '?code=c-3', 500, 'a1', { body: '{"error":"invalid_client","error_description":"Client authentication failed"}' });
		const [failed] = browserFlags(flow({ link: linkTo(`${REDIRECT}?x=1`), exchanges: [arrival] }));
		expect(failed?.candidates?.map((c) => `${c.rowId} ${c.causeId}`)).toEqual([
			'token-invalid-client wrong-secret',
			'token-invalid-client unknown-client',
			'token-invalid-client missing-credentials'
		]);
		expect(failed?.message).toContain('The page does not say which cause applies');
	});

	it('says `expired` when the repeated arrival came more than two hours after the code\'s first', () => {
		const first = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home' });
		const late = arrive('12:30:30', '?code=c-1', 400, 'a2');
		const [failed] = browserFlags(flow({ link: LINK, exchanges: [first, late] }));
		expect(failed?.candidates?.slice(0, 2).map((c) => `${c.causeId} ${c.likelihood}`)).toEqual(['used likely', 'expired likely']);
	});

	it('reads a client library\'s state check as the state pitfall, with the linter\'s fix', () => {
		const link = linkTo(REDIRECT, '&state=xyz');
		for (const body of ['Error: Unable to verify authorization request state.', 'MismatchingStateError: mismatching_state: CSRF Warning! State not equal in request and response.']) {
			const arrival = arrive('10:00:30', '?code=c-1', 500, 'a1', { body });
			const flags = crossFlags(flow({ link, exchanges: [linkExchange('10:00:00', link), arrival] }));
			expect(flags.map((f) => f.id)).toEqual(['callback-failed', 'state-parameter']);
			expect(flags[0]).toMatchObject({ fix: STATE_CHECK_FIX });
			expect(flags[0]?.message).toMatch(/never sends `state` back/);
			expect(flags[1]).toMatchObject({ severity: 'warning', fix: STATE_CHECK_FIX });
		}
	});

	it('reads a code answered by a new sign-in as a refusal: the state check when the link carries state', () => {
		const link = linkTo(REDIRECT, '&state=xyz');
		const arrival = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/login' });
		const again = linkExchange('10:00:30', link, 'l2');
		const record = flow({ link, callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00', link), arrival, again] });
		const flags = crossFlags(record);
		expect(flags.map((f) => f.id)).toEqual(['callback-failed', 'state-parameter']);
		expect(flags[0]).toMatchObject({ fix: STATE_CHECK_FIX, exchangeId: 'a1' });
		expect(flags[0]?.message).toContain('answered 302 to /login, and the browser opened a new authorisation link (exchange 3)');
		expect(annotateFlow(record).callback).toMatchObject({ outcome: 'error', title: 'A grant code arrived, but your app started a new sign-in' });

		const plain = flow({ link: LINK, exchanges: [linkExchange('10:00:00'), { ...arrival }, linkExchange('10:00:31', LINK, 'l2')] });
		const [refused] = browserFlags(plain);
		expect(refused).toMatchObject({ id: 'callback-failed' });
		expect(refused?.candidates?.every((c) => c.rowId === 'token-invalid-grant' && c.likelihood === 'possible')).toBe(true);
	});

	it('reads passport\'s "Failed to obtain access token" as a token endpoint the app could not read', () => {
		const arrival = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: 'InternalOAuthError: Failed to obtain access token' });
		const [failed] = browserFlags(flow({ link: LINK, exchanges: [arrival] }));
		expect(failed?.message).toMatch(/could read as the interface's JSON error/);
		expect(failed?.fix).toMatch(/\/oauth\/token/);
	});

	it('flags an error page for a cancel, with the table\'s fix for a missing code', () => {
		const arrival = arrive('10:00:30', '', 500, 'a1', { body: 'MissingCodeError: Missing code parameter in response.' });
		const record = flow({ link: LINK, callback: callbackOf(arrival), exchanges: [arrival] });
		const [failed] = browserFlags(record);
		expect(failed).toMatchObject({ id: 'cancel-failed', severity: 'error', fix: errorCause('token-invalid-request', 'missing-code').fix });
		expect(annotateFlow(record).callback).toMatchObject({ outcome: 'error', title: "Cancelled by the user, but your app's callback answered 500 with oauthlib's \"MissingCodeError\"" });
	});

	it("cites the row of an exchange without a code for a failed cancel only when the record shows the app's server sending one", () => {
		const arrival = arrive('10:00:30', '', 500, 'a1', { body: '<h1>Error</h1><p>Authorization failed: no code returned</p>' });
		const browserSide = browserFlags(flow({ link: LINK, callback: callbackOf(arrival), exchanges: [arrival] }))[0];
		expect(browserSide?.id).toBe('cancel-failed');
		expect(browserSide?.candidates ?? []).toEqual([]);
		expect(browserSide?.message).toContain("Whether its server then called the token endpoint is not seen here");
		const refused = at(
			exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: 'grant_type=authorization_code&client_id=shop' }, { status: 400, body: '{"error":"invalid_request","error_description":"code is missing"}' }),
			'10:00:30.5',
			't1'
		);
		const withServer = browserFlags(flow({ link: LINK, callback: callbackOf(arrival), exchanges: [arrival, refused] }))[0];
		expect(withServer?.candidates).toEqual([expect.objectContaining({ rowId: 'token-invalid-request', causeId: 'missing-code', likelihood: 'likely' })]);
		expect(withServer?.message).toContain('Its server then tried to exchange a code anyway (exchange 2).');
	});

	it('flags a cancel sent straight back to the authorisation page, by the callback\'s redirect or by a link right after', () => {
		const byRedirect = arrive('10:00:30', '', 302, 'a1', { location: LINK });
		const flags = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), byRedirect, linkExchange('10:00:31', LINK, 'l2')] }));
		expect(flags).toEqual([expect.objectContaining({ id: 'cancel-loop', severity: 'error', exchangeId: 'a1' })]);
		// Nothing in the record shows which library: the cause is told for any stack.
		expect(flags[0]?.message).toContain('the callback route treats a redirect without `code` as "not signed in yet"');
		expect(flags[0]?.message).not.toContain('passport');

		const shown = arrive('10:00:30', '', 200, 'a1', { body: '<a href="/login">Sign in</a>' });
		const soon = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), shown, linkExchange('10:00:32', LINK, 'l2')] }));
		expect(soon).toEqual([expect.objectContaining({ id: 'cancel-loop', severity: 'warning' })]);
		expect(soon[0]?.message).toContain('2 s later');
	});

	it('names passport-oauth2 in the cancel loop\'s cause and fix only when the record shows it (its User-Agent, its words)', () => {
		const loop = arrive('10:00:30', '', 302, 'a1', { location: LINK });
		const earlier = at(exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { 'User-Agent': 'Node-oauth' }, body: 'grant_type=authorization_code&code=c-0' }, { status: 200 }), '09:59:00', 't0');
		const [flag] = browserFlags(flow({ link: LINK, exchanges: [earlier, linkExchange('10:00:00'), loop] }));
		expect(flag?.message).toContain('This is passport-oauth2 (the record shows it)');
		expect(flag?.fix).toContain('before calling `passport.authenticate`');
		const flask = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), { ...loop, response: { ...loop.response!, headers: [{ name: 'Location', value: LINK }, { name: 'Server', value: 'Werkzeug/3.0.1 Python/3.12.1' }] } }] }));
		expect(flask[0]?.fix).not.toContain('passport');
	});

	it('does not call a user\'s own second try after a cancel a loop', () => {
		const shown = arrive('10:00:30', '', 200, 'a1', { body: '<a href="/login">Sign in</a>' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), shown, linkExchange('10:00:50', LINK, 'l2')] }))).toEqual([]);
	});

	it('warns about an arrival two hours or more after the link, in minutes', () => {
		const late = arrive('12:05:00', '?code=c-1', 302, 'a1', { location: '/home' });
		const flags = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), late] }));
		expect(flags).toEqual([expect.objectContaining({ id: 'slow-arrival', severity: 'warning', fix: errorCause('token-invalid-grant', 'expired').fix })]);
		expect(flags[0]?.message).toContain('125 minutes after the authorisation link');
		const failed = arrive('12:05:00', '?code=c-1', 500, 'a1');
		const [callbackFailed] = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), failed] }));
		expect(callbackFailed?.candidates?.[0]).toMatchObject({ causeId: 'expired', likelihood: 'possible' });
		expect(callbackFailed?.candidates?.[0]?.why).toContain('125 minutes after the authorisation link');
		const prompt = arrive('11:59:00', '?code=c-1', 302, 'a1', { location: '/home' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), prompt] }))).toEqual([]);
	});

	it('counts an arrival\'s age from the redirect that issued its code: a sign-in page left open is no slow arrival', () => {
		const signedIn = (time: string) =>
			at(exchange('sign-in', { url: 'https://auth.example.com/sso/student/flow/1', method: 'POST' }, { status: 302, headers: { Location: `${REDIRECT}?code=c-1` } }), time, 'r');
		const arrival = arrive('12:05:01', '?code=c-1', 302, 'a1', { location: '/home' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), signedIn('12:05:00'), arrival] }))).toEqual([]);
		const [late] = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), signedIn('10:00:30'), arrival] }));
		expect(late).toMatchObject({ id: 'slow-arrival', exchangeId: 'a1' });
		expect(late?.message).toContain('125 minutes after the redirect that issued its code (exchange 2)');
		// Without that redirect in the record, the link is all there is, and the message says so.
		const [fromLink] = browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), arrival] }));
		expect(fromLink?.message).toContain('the redirect that issued its code is not in the record, so this counts from the link');
	});

	it("leaves `expired` out of a failed arrival's candidates when the record shows its code issued seconds before, and only then", () => {
		const signedIn = at(exchange('sign-in', { url: 'https://auth.example.com/sso/student/flow/1', method: 'POST' }, { status: 302, headers: { Location: `${REDIRECT}?code=c-1` } }), '10:00:20', 'r');
		const failed = arrive('10:00:21', '?code=c-1', 500, 'a1', { body: 'Error: TokenError: invalid_grant' });
		const causesOf = (exchanges: RecordedExchange[], kind: 'custom' | 'sandbox' = 'custom') =>
			annotateFlow(flow({ link: LINK, callback: callbackOf(failed), exchanges, target: { kind, authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' } })).callback?.candidates.map((c) => c.causeId);
		const withRedirect = causesOf([linkExchange('10:00:00'), signedIn, failed]);
		expect(withRedirect).toContain('used');
		expect(withRedirect).not.toContain('expired');
		// Counted from the link alone, the arrival may replay an older redirect: `expired` stays a possibility.
		expect(causesOf([linkExchange('10:00:00'), failed])).toContain('expired');
		// Against the sandbox, its clock may have moved on between the redirect and the arrival.
		expect(causesOf([linkExchange('10:00:00'), signedIn, failed], 'sandbox')).toContain('expired');
	});

	it("reads error words on a 2xx only in a short page's visible text: an app's page embedding an OAuth library is no failure", () => {
		const library = `function fail(e){ if (e.error === 'invalid_request' || e.error === 'invalid_grant') throw new TokenError(e.error_description); }`;
		const spa = `<!doctype html><html><head><script>${library}</script></head><body><div id="app">Welcome back</div><script>${'/* bundle */'.repeat(500)}</script></body></html>`;
		const arrival = (body: string, status = 200, type = 'text/html') =>
			at(exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status, headers: { 'Content-Type': type }, body }), '10:00:30', 'a1');
		const flagsFor = (e: RecordedExchange) => browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), e] })).map((f) => f.id);
		expect(flagsFor(arrival(spa))).toEqual([]);
		expect(flagsFor(arrival(`<html><head><script>${library}</script></head><body>Signed in</body></html>`))).toEqual([]);
		expect(flagsFor(arrival('<html><body><h1>Sign-in failed</h1><p>invalid_grant</p></body></html>'))).toEqual(['callback-failed']);
		expect(flagsFor(arrival('{"error":"invalid_client"}', 200, 'application/json'))).toEqual(['callback-failed']);
		expect(flagsFor(arrival(spa, 500))).toEqual(['callback-failed']);
		const redirect = at(exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status: 302, headers: { Location: '/home' }, body: 'invalid_request' }), '10:00:30', 'a1');
		expect(flagsFor(redirect)).toEqual([]);
	});

	it('leaves the Werkzeug debugger\'s files out: fetched at the callback\'s path, they are no arrivals and no cancel', () => {
		const crash = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: '<title>KeyError: \'supergroup\' // Werkzeug Debugger</title>Traceback (most recent call last):' });
		const files = ['debugger.js', 'style.css', 'less.png', 'more.png', 'console.png'].map((f, i) =>
			arrive(`10:00:3${i + 1}`, `?__debugger__=yes&cmd=resource&f=${f}`, 200, `d${i}`, { body: '/* resource */' })
		);
		const record = flow({ link: LINK, callback: callbackOf(crash), exchanges: [linkExchange('10:00:00'), crash, ...files] });
		const side = readBrowserSide(record);
		expect(side.arrivals.map((a) => a.exchange.id)).toEqual(['a1']);
		expect(annotateFlow(record).callback?.title).toBe("A grant code arrived, but your app's callback answered 500");
	});

	it('flags an access token in the app\'s answer to the browser, in a body or a redirect, and nothing on a page without one', () => {
		const json = arrive('10:00:30', '?code=c-1', 200, 'a1', { body: '{"user":"AB12345","access_token":"Xy7-kL9mQ2","token_type":"Bearer"}' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), json] })).map((f) => `${f.id} ${f.severity}`)).toEqual(['token-to-browser error']);
		const fragment = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/app#access_token=Xy7-kL9mQ2&token_type=Bearer' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), fragment] })).map((f) => f.id)).toEqual(['token-to-browser']);
		const page = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home', body: 'Found. Redirecting to /home' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), page] }))).toEqual([]);
		const spa = arrive('10:00:30', '?code=c-1', 200, 'a1', { body: '<html><script>const s={access_token:e.access_token}</script><body>Welcome</body></html>' });
		expect(browserFlags(flow({ link: LINK, exchanges: [linkExchange('10:00:00'), spa] }))).toEqual([]);
	});

	it('reads only arrivals at the redirect URI: the authorisation host\'s redirect there is not the app\'s answer', () => {
		const redirectThere = at(exchange('arrival', { url: 'https://auth.example.com/sso/student/flow/1', method: 'POST' }, { status: 500, headers: { Location: `${REDIRECT}?code=c-1` } }), '10:00:30', 'r');
		expect(browserFlags(flow({ link: LINK, exchanges: [redirectThere] }))).toEqual([]);
	});

	it('does not let the callback annotation read "Authorised" when the app then failed', () => {
		const arrival = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: 'invalid_grant' });
		const callback = annotateFlow(flow({ link: LINK, callback: callbackOf(arrival), exchanges: [arrival] })).callback;
		expect(callback).toMatchObject({ outcome: 'error', title: "A grant code arrived, but your app's callback answered 500 naming `invalid_grant`" });
		expect(callback?.candidates.length).toBeGreaterThan(0);
	});
});

/** A browser HAR joined with the app server's requests (its HAR, or the sandbox's log), as a run with evidence has them. */
describe('browserFlags: the callback page read with what the app\'s server did', () => {
	const TOKEN_URL = 'https://accounts.example.com/oauth/token';
	const ME_URL = 'https://accounts.example.com/api/v3/me.json';
	const consent = () =>
		at(exchange('sign-in', { method: 'POST', url: 'https://auth.example.com/sso/student/flow/1/consent', body: 'decision=authorise' }, { status: 302, headers: { Location: `${REDIRECT}?code=c-1` } }), '10:00:29', 'p');
	const token = (status: number, body: string, code = 'c-1') =>
		at(
			exchange(
				'token',
				{ method: 'POST', url: TOKEN_URL, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'python-requests/2.31' }, body: `grant_type=authorization_code&code=${code}&client_id=shop&client_secret=s&redirect_uri=${encodeURIComponent(REDIRECT)}` },
				{ status, headers: { 'Content-Type': 'application/json' }, body }
			),
			'10:00:30',
			't'
		);
	const me = (status: number, body: string) =>
		at(exchange('me', { url: ME_URL, headers: { Authorization: 'Bearer at-1', 'User-Agent': 'python-requests/2.31' } }, { status, headers: { 'Content-Type': 'application/json' }, body }), '10:00:31', 'm');
	const GRANTED = '{"access_token":"at-1","token_type":"Bearer","expires_in":3600}';
	const FLASK_500 = '<!doctype html><html lang=en><title>500 Internal Server Error</title><h1>Internal Server Error</h1><p>The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.</p>';
	const joined = (...server: RecordedExchange[]) => {
		const arrival = arrive('10:00:30', '?code=c-1', 500, 'a1', { body: FLASK_500 });
		return flow({ link: LINK, callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00'), consent(), arrival, ...server] });
	};

	it("judges the page the callback's redirect led to: a rule's answer whose handling ends on a failure page is a failed handling", () => {
		const arrival = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/auth/failure?message=key+not+found' });
		const failure = at(exchange('arrival', { url: 'https://shop.example.com/auth/failure?message=key+not+found' }, { status: 400, body: '<title>Sign-in not completed</title>' }), '10:00:32', 'f');
		const ruled = me(200, '{"sbid_number":"AB12345","verifications":[{"group":"student","expires_on":"2099-01-01"}]}');
		ruled.response!.headers.push({ name: OUTCOME_RULE_HEADER, value: 'me-group-key' });
		const record = flow({ link: LINK, callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00'), consent(), arrival, token(200, GRANTED), ruled, failure] });
		const failed = crossFlags(record).find((f) => f.id === 'callback-failed');
		expect(failed?.message).toContain('answered 302 to /auth/failure?message=key+not+found, which answered 400 (exchange 6)');
		expect(flowVerdict(record, diagnoseFlow(record))).toMatchObject({ severity: 'error', fix: expect.stringContaining('`element.supergroup ?? element.group`') });
	});

	it('blames the app\'s handling, not the code, when the exchange and me.json answered 200: naming the `group` key', () => {
		const record = joined(token(200, GRANTED), me(200, '{"sbid_number":"AB12345","verifications":[{"group":"key-worker","expires_on":"2099-01-01"}]}'));
		const [failed] = crossFlags(record).filter((f) => f.id === 'callback-failed');
		expect(failed).toMatchObject({ severity: 'error', exchangeId: 'a1', fix: 'Accept either key: read each verification\'s `supergroup`, else its `group` (`element.supergroup ?? element.group`).' });
		expect(failed?.candidates).toBeUndefined();
		expect(failed?.message).toContain('though the token exchange (exchange 4) and me.json (exchange 5) both answered 200');
		expect(failed?.message).toContain('the key `group` instead of `supergroup`');
		expect(failed?.message).not.toMatch(/unknown-code|exchanging the code/);
	});

	it('names an empty `verifications` list, and an expired verification, as what the app failed on', () => {
		const empty = crossFlags(joined(token(200, GRANTED), me(200, '{"sbid_number":"AB12345","verifications":[]}'))).find((f) => f.id === 'callback-failed');
		expect(empty?.message).toContain('an empty `verifications` list');
		expect(empty?.fix).toMatch(/^Read an empty `verifications` array as "not verified"/);
		const expired = crossFlags(joined(token(200, GRANTED), me(200, '{"sbid_number":"AB12345","verifications":[{"supergroup":"student","expires_on":"2025-12-01"}]}'))).find((f) => f.id === 'callback-failed');
		expect(expired?.message).toContain('a verification that has expired (student, last valid day 2025-11-30)');
	});

	it('points a failed page after a failed exchange at that exchange', () => {
		const record = joined(token(400, '{"error":"invalid_grant","error_description":"The provided authorization grant is invalid"}'));
		const failed = crossFlags(record).find((f) => f.id === 'callback-failed');
		expect(failed?.message).toContain('after the token exchange (exchange 4) was answered 400');
		expect(failed?.candidates).toBeUndefined();
	});

	it('takes a page of the app\'s own after a refused me.json as handled: a deleted account\'s "Account closed"', () => {
		const arrival = arrive('10:00:30', '?code=c-1', 403, 'a1', { body: '<html><body><h1>Account closed</h1><p>This account has been deleted at your request.</p></body></html>' });
		const record = flow({ link: LINK, callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00'), consent(), arrival, token(200, GRANTED), me(404, '{"message":"The user has requested deletion"}')] });
		expect(crossFlags(record).filter((f) => f.severity === 'error')).toEqual([]);
		// From the browser's side alone, the same page is a refusal of the app's own: no fault guessed; the verdict says
		// what was not observed and how to add it.
		const browserOnly = flow({ link: LINK, callback: callbackOf(arrival), exchanges: [linkExchange('10:00:00'), consent(), arrival] });
		expect(crossFlags(browserOnly)).toEqual([]);
		const verdict = flowVerdict(browserOnly, diagnoseFlow(browserOnly));
		expect(verdict.severity).toBe('unobserved');
		expect(verdict.fix).toContain('the sandbox\'s log for this client');
		expect(verdict.fix).not.toContain('redirect_uri');
	});

	it('takes a reload answered with a friendly page as handled, not an error', () => {
		const first = arrive('10:00:30', '?code=c-1', 302, 'a1', { location: '/home' });
		const reload = arrive('10:00:50', '?code=c-1', 400, 'a2', { body: '<html><body><p>This sign-in link has already been used. <a href="/login">Sign in again</a></p></body></html>' });
		expect(crossFlags(flow({ link: LINK, callback: callbackOf(first), exchanges: [linkExchange('10:00:00'), first, reload] }))).toEqual([]);
	});
});
