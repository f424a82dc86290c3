import { describe, expect, it } from 'vitest';
import { APP_CHECKS, findAppCheck, requirements, type AppCheckId } from './checks';
import type { AppCheckEvidence, ServerEvidence, UserEvidence } from './evidence';
import { appCheckExitCode, judgeAppCheck, judgeRefusedLink } from './judge';

const check = (id: AppCheckId) => findAppCheck(id)!;

function user(overrides: Partial<UserEvidence> & { status?: number; text?: string } = {}): UserEvidence {
	const { status = 200, text = 'Welcome, you are verified', ...rest } = overrides;
	return {
		callbackUrl: 'http://localhost:4000/auth/callback?code=••••••',
		hops: [{ url: 'http://localhost:4000/auth/callback?code=••••••', status, where: 'app' }],
		final: { url: 'http://localhost:4000/profile', status, title: 'Shop', excerpt: text },
		backToSignIn: false,
		stackTrace: [],
		blocked: [],
		fingerprint: text,
		template: text,
		...rest
	};
}

function server(overrides: Partial<ServerEvidence> = {}): ServerEvidence {
	return { exchanges: [{ status: 200, error: null }], meCalls: [200], meShown: [], signInVisits: 1, ...overrides };
}

const evidence = (u: UserEvidence, s: ServerEvidence, rule: AppCheckEvidence['rule'] = null): AppCheckEvidence => ({ user: u, server: s, rule });

describe('the app check\'s judge', () => {
	it('passes a success that exchanged, read me.json and showed a normal page', () => {
		const result = judgeAppCheck(check('success'), evidence(user(), server()), 'shop');
		expect(result.verdict).toBe('pass');
		expect(result.fix).toBeNull();
	});

	it('fails a success that never read me.json, with the fix', () => {
		const result = judgeAppCheck(check('success'), evidence(user(), server({ meCalls: [] })), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.reason).toMatch(/never read \/api\/v3\/me\.json/);
		expect(result.fix).toMatch(/me\.json/);
	});

	it('fails a cancel that sends the user back to the sign-in page: a loop', () => {
		const looped = user({ backToSignIn: true, hops: [{ url: 'http://localhost:4000/auth/callback', status: 302, where: 'app' }, { url: 'http://localhost:3001/sso/student?client_id=shop', status: 200, where: 'sandbox' }] });
		const result = judgeAppCheck(check('cancel'), evidence(looped, server({ exchanges: [], meCalls: [], signInVisits: 2 })), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.findings).toEqual(['the app sent the user straight back to the sign-in page without them asking (a loop)']);
		expect(result.fix).toMatch(/cancelled/);
	});

	it('fails a cancel shown as an error, or one the app tried to exchange', () => {
		expect(judgeAppCheck(check('cancel'), evidence(user({ status: 401 }), server({ exchanges: [], meCalls: [] })), 'shop').findings).toEqual([
			'the user got an error page (401), for what is a normal outcome'
		]);
		expect(judgeAppCheck(check('cancel'), evidence(user(), server({ exchanges: [{ status: 400, error: 'invalid_request' }], meCalls: [] })), 'shop').findings).toEqual([
			'the app called /oauth/token after a cancel, with no code to exchange'
		]);
		expect(judgeAppCheck(check('cancel'), evidence(user({ text: 'Sign-in cancelled' }), server({ exchanges: [], meCalls: [] })), 'shop').verdict).toBe('pass');
	});

	it('fails any check whose link the engine finds an error in, with the engine\'s fix', () => {
		const secret = { severity: 'error' as const, message: 'The link carries `client_secret`.', fix: 'Remove client_secret from the link.' };
		const result = judgeAppCheck(check('success'), evidence(user(), server({ link: [secret] })), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.findings).toEqual(['The link carries `client_secret`']);
		expect(result.fix).toBe('Remove client_secret from the link.');
	});

	it('fails any check whose answers hand the browser a token, with the fix to keep it on the server', () => {
		const handed = user({ tokenHanded: { name: 'access_token', by: 'field', url: 'http://localhost:4000/api/session' } });
		const result = judgeAppCheck(check('success'), evidence(handed, server()), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.findings).toEqual([expect.stringMatching(/^the app's answer at http:\/\/localhost:4000\/api\/session hands the browser an `access_token`: anything the browser gets/)]);
		expect(result.fix).toMatch(/^Keep the tokens on your server/);
	});

	it('fails a check whose link the sign-in page refused, with the engine\'s row and fix; without one it did not run', () => {
		const refused = { severity: 'error' as const, message: 'The authorisation link was refused (7.1): the redirect URI is not registered.', fix: 'Register the redirect URI.' };
		const failed = judgeRefusedLink(check('success'), 'The sandbox showed an error', [refused], 'shop');
		expect(failed).toMatchObject({ verdict: 'fail', findings: ["the sandbox's sign-in page refused the app's link: the authorisation link was refused (7.1): the redirect URI is not registered"], fix: 'Register the redirect URI.' });
		expect(judgeRefusedLink(check('success'), 'The sandbox showed an error', [], 'shop')).toMatchObject({ verdict: 'not-run', reason: 'The sandbox showed an error' });
	});

	it('names a warning about the link only as the cause of a check that fails with no failed request to explain it', () => {
		const state = { severity: 'warning' as const, message: 'The link carries `state`.', fix: 'Drop `state`.' };
		expect(judgeAppCheck(check('success'), evidence(user(), server({ link: [state] })), 'shop').verdict).toBe('pass');
		const refused = judgeAppCheck(check('success'), evidence(user({ status: 403, text: 'Forbidden' }), server({ exchanges: [], meCalls: [], link: [state] })), 'shop');
		expect(refused.findings).toContain('The link carries `state`');
		expect(refused.fix).toBe('Drop `state`.');
		const diagnosed = server({ exchanges: [{ status: 400, error: 'invalid_grant' }], meCalls: [], link: [state], diagnosis: { severity: 'error', step: 'token', what: 'w', cause: 'the redirect_uri differs', fix: 'Send the same redirect_uri.', reference: null } });
		expect(judgeAppCheck(check('success'), evidence(user({ status: 500, text: 'Oops' }), diagnosed), 'shop').findings).not.toContain('The link carries `state`');
	});

	it('fails a reused code that gives the user a 5xx with a stack trace, naming both', () => {
		const crashed = user({ status: 500, stackTrace: ['at OAuth2Strategy.parseErrorResponse (/app/strategy.js:373:12)'] });
		const result = judgeAppCheck(check('code-reused'), evidence(crashed, server({ exchanges: [{ status: 200, error: null }, { status: 400, error: 'invalid_grant' }] })), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.findings).toEqual([
			'the user\'s page shows a stack trace ("at OAuth2Strategy.parseErrorResponse (/app/strategy.js:373:12)")',
			'the user got a 500 server error'
		]);
	});

	it('accepts a 4xx page and a fresh sign-in where the code or token is spent', () => {
		const restart = user({ status: 200, backToSignIn: true });
		expect(judgeAppCheck(check('code-reused'), evidence(restart, server()), 'shop').verdict).toBe('pass');
		expect(judgeAppCheck(check('code-expired'), evidence(user({ status: 400 }), server({ exchanges: [{ status: 400, error: 'invalid_grant' }], meCalls: [] }), { outcome: 'token-invalid-grant', used: true }), 'shop').verdict).toBe('pass');
		// …but not where the answer was a normal one.
		expect(judgeAppCheck(check('no-active-verification'), evidence(restart, server(), { outcome: 'me-empty-verifications', used: true }), 'shop').verdict).toBe('fail');
	});

	it('accepts a page of the app\'s own below 500 when the service refuses the app; never a 5xx, a stack trace or a framework\'s default page', () => {
		const rule = { outcome: 'me-401', used: true };
		expect(judgeAppCheck(check('me-401'), evidence(user({ status: 401, text: 'The service did not accept our access token. Sign in again' }), server({ meCalls: [401] }), rule), 'shop').verdict).toBe('pass');
		expect(judgeAppCheck(check('me-401'), evidence(user({ status: 502, text: 'The service did not accept our access token.' }), server({ meCalls: [401] }), rule), 'shop').findings).toEqual(['the user got a 502 server error']);
		const crashed = user({ status: 500, stackTrace: ['at OAuth2Strategy.userProfile (/app/index.ts:98:20)'] });
		expect(judgeAppCheck(check('me-401'), evidence(crashed, server({ meCalls: [401] }), rule), 'shop').findings).toEqual([
			'the user\'s page shows a stack trace ("at OAuth2Strategy.userProfile (/app/index.ts:98:20)")',
			'the user got a 500 server error'
		]);
		// Flask's default 500 page for invalid_client, and a bare "Forbidden" for me.json 403: no stack trace, still unhandled.
		const flask = user({ status: 500, text: 'Internal Server Error The server encountered an internal error and was unable to complete your request.' });
		expect(judgeAppCheck(check('invalid-client'), evidence(flask, server({ exchanges: [{ status: 401, error: 'invalid_client' }], meCalls: [] }), { outcome: 'token-invalid-client', used: true }), 'shop').verdict).toBe('fail');
		expect(judgeAppCheck(check('me-403'), evidence(user({ status: 403, text: 'Forbidden' }), server({ meCalls: [403] }), { outcome: 'me-403', used: true }), 'shop').findings).toEqual([
			'the user got the framework\'s default 403 error page ("Forbidden"), not a page of the app\'s own'
		]);
	});

	it('fails a cancel whose page says it failed, even with status 200', () => {
		const result = judgeAppCheck(check('cancel'), evidence(user({ text: 'Error: authorisation failed' }), server({ exchanges: [], meCalls: [] })), 'shop');
		expect(result.verdict).toBe('fail');
		expect(result.findings).toEqual(['the user\'s page says "Error" (status 200): an error page, for what is a normal outcome']);
	});

	it('fails a success that exchanged the code twice: a sign-in takes exactly one exchange', () => {
		const twice = server({ exchanges: [{ status: 200, error: null }, { status: 400, error: 'invalid_grant' }] });
		expect(judgeAppCheck(check('success'), evidence(user(), twice), 'shop').findings).toEqual([
			'the app exchanged the code 2 times, where a sign-in takes exactly one exchange (a code works once, 2.2)'
		]);
	});

	it('calls a check inconclusive when the app\'s retry got past its one-shot rule', () => {
		const retried = server({ exchanges: [{ status: 400, error: 'invalid_grant' }, { status: 200, error: null }] });
		const result = judgeAppCheck(check('code-expired'), evidence(user(), retried, { outcome: 'token-invalid-grant', used: true }), 'shop');
		expect(result.verdict).toBe('not-run');
		expect(result.reason).toMatch(/^Inconclusive: the sandbox's `token-invalid-grant` rule answered the app's first token request \(400\), then the app sent it again and the repeat was answered 200/);
		const meRetried = judgeAppCheck(check('me-404'), evidence(user(), server({ meCalls: [404, 200] }), { outcome: 'me-404', used: true }), 'shop');
		expect(meRetried.verdict).toBe('not-run');
	});

	it('takes what failed, its cause, row and fix from the engine, as the live page names them', () => {
		const reference = { kind: 'row' as const, table: '7.2', rowId: 'token-invalid-grant' as const, anchor: 'token-invalid-grant' };
		const diagnosis = {
			severity: 'error' as const,
			step: 'token' as const,
			what: 'The token exchange (exchange 5) failed: 400 invalid_grant.',
			cause: 'Exchange 5 (token) sends a `redirect_uri` that differs from the link\'s: its path is `/auth/callback` in the link but `/callback` here.',
			fix: 'Send exactly the redirect_uri of the link.',
			reference
		};
		const failed = server({ exchanges: [{ status: 400, error: 'invalid_grant' }], meCalls: [], diagnosis });
		const result = judgeAppCheck(check('success'), evidence(user(), failed), 'shop');
		expect(result.findings).toEqual([`The token exchange (exchange 5) failed: 400 invalid_grant: ${diagnosis.cause.slice(0, -1)}`]);
		expect(result.fix).toBe(diagnosis.fix);
		expect(result.row).toEqual(reference);
	});

	it("tells a fault of the calls the engine also found once, in the engine's words, with its fix", () => {
		const reused = { severity: 'error' as const, step: 'token' as const, what: 'The token exchange (exchange 5) failed: 400.', cause: 'Exchange 5 (token) sends the code that exchange 4 already exchanged successfully.', fix: 'Exchange each code once.', reference: null };
		const twice = server({ exchanges: [{ status: 200, error: null }, { status: 400, error: 'invalid_grant' }], diagnosis: reused });
		expect(judgeAppCheck(check('success'), evidence(user(), twice), 'shop')).toMatchObject({
			findings: ['The token exchange (exchange 5) failed: 400: Exchange 5 (token) sends the code that exchange 4 already exchanged successfully'],
			fix: 'Exchange each code once.',
			row: null
		});
		const unread = { severity: 'warning' as const, step: null, what: 'The redirect delivered a code, but the me.json call was not observed: the sign-in did not finish.', cause: "Your app exchanged the code but never read me.json, so it knows nothing of the user's verification.", fix: 'After the exchange, read /api/v3/me.json with the access token (Authorization: Bearer, and a User-Agent).', reference: null };
		const result = judgeAppCheck(check('success'), evidence(user(), server({ meCalls: [], diagnosis: unread })), 'shop');
		expect(result.findings).toEqual([`${unread.what.slice(0, -1)}: ${unread.cause.slice(0, -1)}`]);
		expect(result.fix).toBe(unread.fix);
		// A warning of the engine's with nothing wrong in the calls fails nothing.
		expect(judgeAppCheck(check('success'), evidence(user(), server({ diagnosis: unread })), 'shop').verdict).toBe('pass');
	});

	it("fixes a loop after a cancel with the engine's advice, which names the client library the log shows", () => {
		const looped = user({ backToSignIn: true });
		const loopFix = 'Show the user a page saying they cancelled. With passport-oauth2, check for `code` in the callback route before calling `passport.authenticate`.';
		expect(judgeAppCheck(check('cancel'), evidence(looped, server({ exchanges: [], meCalls: [], signInVisits: 2, loopFix })), 'shop').fix).toBe(loopFix);
	});

	it('states what each check requires', () => {
		expect(requirements(check('cancel'))).toEqual([
			'no call to /oauth/token',
			'a normal page: a status below 400, no error wording, no stack trace, no field printed as `undefined`',
			'no return to the sign-in page without the user asking (a loop)'
		]);
		expect(requirements(check('success'))[0]).toBe('exactly one exchange of the code at /oauth/token, answered 200');
		expect(requirements(check('success'))).toContain('me.json read with the access token');
		for (const c of APP_CHECKS.filter((c) => c.rule !== null && c.page === 'handled'))
			expect(requirements(c)).toContain("a page of the app's own: never a 5xx, never a framework's default error page, no stack trace");
	});

	it('fails a normal page that prints a field the answer lacks', () => {
		const result = judgeAppCheck(check('group-key'), evidence(user({ text: 'Signed in as STU0001. undefined until 2027-11-24' }), server(), { outcome: 'me-group-key', used: true }), 'shop');
		expect(result.findings).toEqual(['the user\'s page shows `undefined`: the app read a field the answer does not have']);
	});

	it('says a check did not run when its rule was never applied, or the browser never came back', () => {
		const unused = judgeAppCheck(check('me-404'), evidence(user(), server({ meCalls: [] }), { outcome: 'me-404', used: false }), 'shop');
		expect(unused.verdict).toBe('not-run');
		expect(unused.reason).toMatch(/`me-404` rule was never applied: the app made no me\.json call/);
		// The app failed before the rule's stage (me.json refused for want of a User-Agent): the rule's check tested nothing.
		const earlier = judgeAppCheck(check('me-401'), evidence(user({ status: 502, text: 'Bad Gateway' }), server({ meCalls: [403] }), { outcome: 'me-401', used: false }), 'shop');
		expect(earlier.verdict).toBe('not-run');
		expect(earlier.reason).toMatch(/^The sandbox's `me-401` rule was never applied: the sign-in failed before it could \(the user got a 502 server error.*\); the success check tells what to fix first\.$/);
		expect(earlier.fix ?? null).toBeNull();
		const lost = judgeAppCheck(check('success'), evidence({ ...user(), final: null }, server()), 'shop');
		expect(lost.verdict).toBe('not-run');
	});

	it('fails the `group` key when the app shows its unverified page instead of the success page', () => {
		const marks = (text: string) => ({ page: text, template: text });
		const fingerprints = { success: marks('Welcome, you are verified'), 'no-active-verification': marks('You are not verified') };
		const groupKey = check('group-key');
		const rule = { outcome: 'me-group-key', used: true };
		expect(judgeAppCheck(groupKey, evidence(user({ text: 'You are not verified' }), server(), rule), 'shop', fingerprints).findings).toEqual([
			'the app read the `group` key as no verification: it showed the page it shows a user with none, not the success page'
		]);
		expect(judgeAppCheck(groupKey, evidence(user(), server(), rule), 'shop', fingerprints).verdict).toBe('pass');
	});

	it("fails a refusal answered with the app's signed-in page, the user's details left empty, and only with the success check's page to compare", () => {
		const signedIn = { success: { page: 'Signed in Account STU0: student.', template: 'Signed in Account : .' } };
		const empty = user({ text: 'Signed in Account : .' });
		const me401 = check('me-401');
		const rule = { outcome: 'me-401', used: true };
		const failed = judgeAppCheck(me401, evidence(empty, server({ meCalls: [401] }), rule), 'shop', signedIn);
		expect(failed.verdict).toBe('fail');
		expect(failed.findings).toEqual([
			"the user got the app's signed-in page (the page the success check ended on, with the user's details left empty) after the me.json call was refused (me-401): the app did not check the answer's status, and read the refusal as a sign-in"
		]);
		expect(failed.fix).toBe(me401.fix);
		// A page of its own for the refusal, an error status, or no success page to compare with: nothing to say.
		expect(judgeAppCheck(me401, evidence(user({ text: 'Please sign in again.' }), server({ meCalls: [401] }), rule), 'shop', signedIn).verdict).toBe('pass');
		expect(judgeAppCheck(me401, evidence(user({ text: 'Signed in Account : .', status: 502 }), server({ meCalls: [401] }), rule), 'shop', signedIn).findings).not.toContainEqual(expect.stringMatching(/signed-in page/));
		expect(judgeAppCheck(me401, evidence(empty, server({ meCalls: [401] }), rule), 'shop', {}).verdict).toBe('pass');
		// A normal outcome is the signed-in page by right.
		expect(judgeAppCheck(check('group-key'), evidence(empty, server(), { outcome: 'me-group-key', used: true }), 'shop', signedIn).verdict).toBe('pass');
	});

	it("names the engine's findings on what the browser saw beside a failure found here, and never fails a check on them alone", () => {
		const page = [{ severity: 'error' as const, message: "Your app's page sent the same grant code to your app's server 2 times.", fix: 'Send the code from the page once.' }];
		const failing = judgeAppCheck(check('success'), evidence(user({ text: 'Error: used' }), server({ page })), 'shop');
		expect(failing.findings).toContain("Your app's page sent the same grant code to your app's server 2 times");
		expect(judgeAppCheck(check('success'), evidence(user(), server({ page })), 'shop').verdict).toBe('pass');
	});

	it('fails the run on any failure or check that did not run', () => {
		expect(appCheckExitCode([{ verdict: 'pass' }, { verdict: 'pass' }])).toBe(0);
		expect(appCheckExitCode([{ verdict: 'pass' }, { verdict: 'fail' }])).toBe(1);
		expect(appCheckExitCode([{ verdict: 'not-run' }])).toBe(1);
	});

	it('has a check per outcome the issue lists, each with a fix', () => {
		expect(APP_CHECKS.map((c) => c.id)).toEqual(['success', 'cancel', 'code-reused', 'code-expired', 'invalid-client', 'me-401', 'me-403', 'me-404', 'no-active-verification', 'group-key']);
		expect(APP_CHECKS.every((c) => c.fix.length > 0 && c.should.length > 0)).toBe(true);
	});
});
