import { describe, expect, it } from 'vitest';
import { APP_CHECKS, findAppCheck, type AppCheckId } from './checks';
import type { AppCheckEvidence, ServerEvidence, UserEvidence } from './evidence';
import { appCheckExitCode, judgeAppCheck } from './judge';

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
		...rest
	};
}

function server(overrides: Partial<ServerEvidence> = {}): ServerEvidence {
	return { exchanges: [{ status: 200, error: null }], meCalls: [200], signInVisits: 1, meAttribution: 'time', ...overrides };
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

	it('accepts the app\'s own error page, of any status, when the service refuses the app itself; never a stack trace', () => {
		const rule = { outcome: 'me-401', used: true };
		expect(judgeAppCheck(check('me-401'), evidence(user({ status: 502, text: 'The service did not accept our access token.' }), server({ meCalls: [401] }), rule), 'shop').verdict).toBe('pass');
		const crashed = user({ status: 500, stackTrace: ['at OAuth2Strategy.userProfile (/app/index.ts:98:20)'] });
		expect(judgeAppCheck(check('me-401'), evidence(crashed, server({ meCalls: [401] }), rule), 'shop').findings).toEqual([
			'the user\'s page shows a stack trace ("at OAuth2Strategy.userProfile (/app/index.ts:98:20)")'
		]);
	});

	it('fails a normal page that prints a field the answer lacks', () => {
		const result = judgeAppCheck(check('group-key'), evidence(user({ text: 'Signed in as STU0001. undefined until 2027-11-24' }), server(), { outcome: 'me-group-key', used: true }), 'shop');
		expect(result.findings).toEqual(['the user\'s page shows `undefined`: the app read a field the answer does not have']);
	});

	it('says a check did not run when its rule was never applied, or the browser never came back', () => {
		const unused = judgeAppCheck(check('me-404'), evidence(user(), server({ meCalls: [] }), { outcome: 'me-404', used: false }), 'shop');
		expect(unused.verdict).toBe('not-run');
		expect(unused.reason).toMatch(/`me-404` rule was never applied: the app made no me\.json call/);
		const lost = judgeAppCheck(check('success'), evidence({ ...user(), final: null }, server()), 'shop');
		expect(lost.verdict).toBe('not-run');
	});

	it('fails the `group` key when the app shows its unverified page instead of the success page', () => {
		const fingerprints = { success: 'Welcome, you are verified', 'no-active-verification': 'You are not verified' };
		const groupKey = check('group-key');
		const rule = { outcome: 'me-group-key', used: true };
		expect(judgeAppCheck(groupKey, evidence(user({ text: 'You are not verified' }), server(), rule), 'shop', fingerprints).findings).toEqual([
			'the app read the `group` key as no verification: it showed the page it shows a user with none, not the success page'
		]);
		expect(judgeAppCheck(groupKey, evidence(user(), server(), rule), 'shop', fingerprints).verdict).toBe('pass');
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
