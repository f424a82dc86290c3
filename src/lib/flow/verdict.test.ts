import { describe, expect, it } from 'vitest';
import { diagnoseFlow, type FlowDiagnosis } from './diagnose-flow';
import type { CrossFlag } from './flags';
import { exchange, flow } from './test-helpers';
import { flowVerdict } from './verdict';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const tokenUrl = (extra = '') =>
	`https://accounts.example.com/oauth/token?grant_type=authorization_code&code=c-1&client_id=shop&client_secret=s&redirect_uri=${encodeURIComponent(REDIRECT)}${extra}`;
const authorised = { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:00.000Z' };
const ME_BODY = JSON.stringify({ sbid_number: '1234', verifications: [] });

describe('flowVerdict', () => {
	it('says a good flow succeeded and that there is nothing to fix', () => {
		const good = flow({
			link: LINK,
			callback: authorised,
			exchanges: [
				exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } }, { status: 200, body: '{"access_token":"at-1","token_type":"Bearer"}' }),
				exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer at-1', 'User-Agent': 'shop' } }, { status: 200, body: ME_BODY })
			]
		});
		const verdict = flowVerdict(good, diagnoseFlow(good));
		expect(verdict.severity).toBe('success');
		expect(verdict.what).toMatch(/^The flow succeeded; nothing to fix/);
		expect(verdict.reference).toBeNull();
	});

	it('never calls a flow that has not come back to the app a success: the user stopped at a sign-in page', () => {
		const signingIn = flow({
			link: LINK,
			serviceSideOnly: true,
			exchanges: [exchange('sign-in', { url: LINK }, { status: 200, body: '<form>Verify your eligibility</form>', headers: { 'Content-Type': 'text/html' } })]
		});
		const verdict = flowVerdict(signingIn, diagnoseFlow(signingIn));
		expect(verdict.severity).toBe('unobserved');
		expect(verdict.what).toBe('The flow has not come back to your app (the last step, the sign-in page, answered 200): no redirect to the redirect URI was recorded, so it has neither failed nor succeeded yet.');
		expect(verdict.fix).toContain('Finish the sign-in');
		// A link alone (nothing sent yet) is no success either.
		expect(flowVerdict(flow({ link: LINK }), diagnoseFlow(flow({ link: LINK }))).severity).toBe('unobserved');
	});

	it('says a cancel is a normal outcome, not an error', () => {
		const cancelled = flow({ link: LINK, callback: { url: REDIRECT, receivedAt: authorised.receivedAt } });
		const verdict = flowVerdict(cancelled, diagnoseFlow(cancelled));
		expect(verdict.severity).toBe('cancel');
		expect(verdict.what).toBe('The user cancelled; that is a normal outcome, not an error.');
	});

	it('says the service\'s side succeeded, not the flow, when the record is the service\'s log alone, and how to add the app\'s page', () => {
		const logged = flow({
			link: LINK,
			callback: authorised,
			serviceSideOnly: true,
			exchanges: [
				exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } }, { status: 200, body: '{"access_token":"at-1","token_type":"Bearer"}' }),
				exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer at-1', 'User-Agent': 'shop' } }, { status: 200, body: ME_BODY })
			]
		});
		const verdict = flowVerdict(logged, diagnoseFlow(logged));
		expect(verdict.severity).toBe('success');
		expect(verdict.what).toBe("The service's side succeeded (the last step, the me.json call, answered 200); how your app answered the user is not observed here.");
		expect(verdict.fix).toMatch(/app check.*browser's HAR/);
	});

	it('says a cancel seen in the service\'s log alone is normal, and that the app\'s answer to it is not observed', () => {
		const logged = flow({ link: LINK, callback: { url: REDIRECT, receivedAt: authorised.receivedAt }, serviceSideOnly: true });
		const verdict = flowVerdict(logged, diagnoseFlow(logged));
		expect(verdict.severity).toBe('cancel');
		expect(verdict.what).toBe('The user cancelled at the sign-in page; that is a normal outcome, not an error. How your app answered the user is not observed here.');
		expect(verdict.fix).toMatch(/app check.*browser's HAR/);
	});

	it('says a pasted request never sent is not sent yet, with Send as the next step, not a failure', () => {
		const pasted = flow({ exchanges: [exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } })] });
		const verdict = flowVerdict(pasted, diagnoseFlow(pasted));
		expect(verdict).toMatchObject({ severity: 'unsent', exchange: { id: 'token-1', n: 1 }, reference: null });
		expect(verdict.what).toBe('The token exchange (exchange 1) has not been sent yet: nothing has answered it.');
		expect(verdict.fix).toMatch(/^Send it/);
	});

	it('names the failed exchange, its row and, from the flag about it, the cause and the fix', () => {
		const mismatch = flow({
			link: LINK,
			callback: authorised,
			exchanges: [
				exchange(
					'token',
					{ method: 'POST', url: tokenUrl().replace(encodeURIComponent(REDIRECT), encodeURIComponent(`${REDIRECT}/`)), headers: { 'User-Agent': 'shop' } },
					{ status: 400, body: '{"error":"invalid_grant","error_description":"The provided authorization grant is invalid"}' }
				)
			]
		});
		const diagnosis = diagnoseFlow(mismatch);
		const verdict = flowVerdict(mismatch, diagnosis);
		expect(verdict.severity).toBe('error');
		expect(verdict.what).toMatch(/^The token exchange \(exchange 1\) failed/);
		expect(verdict.reference).toMatchObject({ kind: 'row', rowId: 'token-invalid-grant', table: '7.2', anchor: 'token-invalid-grant' });
		expect(verdict.exchange).toEqual({ id: 'token-1', n: 1 });
		const flag = diagnosis.flags.find((f) => f.id === 'redirect-uri-differs')!;
		expect(verdict.cause).toContain(flag.message.slice(0, 40));
		expect(verdict.fix).toContain(flag.fix.slice(0, 30));
	});

	it('prefers an error flag over a warning, and one naming an exchange and a fix over one that does not, whatever flags the engine adds', () => {
		const recorded = flow({
			link: LINK,
			exchanges: [exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer at-1', 'User-Agent': 'x' } }, { status: 200, body: ME_BODY }, 'm1')]
		});
		const flag = (partial: Partial<CrossFlag>): CrossFlag => ({ id: 'f', severity: 'error', message: 'Something.', section: '2.2', fix: 'Do this.', ...partial });
		const diagnosis: FlowDiagnosis = {
			annotations: { callback: null, exchanges: [null] },
			excused: new Set(),
			flags: [
				flag({ id: 'sanitised-har', severity: 'warning', message: 'The HAR was sanitised.', fix: 'Export it with content.' }),
				flag({ id: 'vague', fix: '' }),
				flag({ id: 'same-code-twice', message: 'The callback page was loaded twice with one code. It then fails.', exchangeId: 'm1', fix: 'Load it once' })
			]
		};
		const verdict = flowVerdict(recorded, diagnosis);
		expect(verdict.severity).toBe('error');
		expect(verdict.what).toBe('The me.json call (exchange 1) went wrong: The callback page was loaded twice with one code.');
		expect(verdict.fix).toBe('Load it once.');
		expect(verdict.reference).toEqual({ kind: 'section', section: '2.2', anchor: 'section-2.2' });
		const onlyWarning = flowVerdict(recorded, { ...diagnosis, flags: [diagnosis.flags[0]!] });
		expect(onlyWarning.severity).toBe('warning');
		expect(onlyWarning.what).toBe('The HAR was sanitised.');
	});

	it('an exchange after a cancel is the error, not the cancel', () => {
		const after = flow({
			link: LINK,
			callback: { url: REDIRECT, receivedAt: authorised.receivedAt },
			exchanges: [exchange('token', { method: 'POST', url: tokenUrl().replace('code=c-1&', ''), headers: { 'User-Agent': 'shop' } }, { status: 400, body: '{"error":"invalid_request"}' })]
		});
		expect(flowVerdict(after, diagnoseFlow(after)).severity).toBe('error');
	});

	it('tells a flag that ranks causes by its most likely one: that row, that cause, that fix', () => {
		const flag: CrossFlag = {
			id: 'callback-failed',
			severity: 'error',
			message: 'Your app answered the arrival at the redirect URI with 500.',
			section: '4.2',
			fix: 'Look at your server log.',
			exchangeId: 'arrival-1',
			candidates: [
				{ rowId: 'token-invalid-grant', causeId: 'used', likelihood: 'likely', why: 'The same code arrived before.', fix: 'Exchange each code once.' },
				{ rowId: 'token-invalid-grant', causeId: 'expired', likelihood: 'possible', why: 'It may be old.', fix: 'Exchange within 2 hours.' }
			]
		};
		const arrived = flow({ link: LINK, callback: authorised, exchanges: [exchange('arrival', { url: authorised.url }, { status: 500 })] });
		const verdict = flowVerdict(arrived, { annotations: { callback: null, exchanges: [null] }, flags: [flag], excused: new Set() });
		expect(verdict).toMatchObject({
			severity: 'error',
			reference: { kind: 'row', rowId: 'token-invalid-grant' },
			exchange: { id: 'arrival-1', n: 1 },
			fix: 'Exchange each code once.'
		});
		expect(verdict.cause).toBe('used (likely): The same code arrived before.');
	});

	it('never calls a browser-only record a success: it names what was not observed and how to add it', () => {
		const consent = exchange('sign-in', { method: 'POST', url: 'https://auth.example.com/sso/student/flow/1/consent' }, { status: 302, headers: { Location: `${REDIRECT}?code=c-1` } }, 'p');
		const page = exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html><body>Welcome, you are signed in</body></html>' }, 'a1');
		const har = flow({ link: LINK, callback: authorised, exchanges: [exchange('link', { url: LINK }, { status: 302, headers: { Location: '/sso/student/flow/1' } }, 'l'), consent, page] });
		const verdict = flowVerdict(har, diagnoseFlow(har));
		expect(verdict.severity).toBe('unobserved');
		expect(verdict.what).toBe("The browser's side went as far as your app's callback (it answered 200), but the token exchange and the me.json call were not observed: whether the sign-in succeeded is not known.");
		expect(verdict.fix).toContain("the sandbox's log for this client (one click, under Add evidence), or your server's HAR or curl");
		// With the server's side, an exchange and no me.json call: the app skipped it.
		const noMe = flow({ link: LINK, callback: authorised, exchanges: [exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } }, { status: 200, body: '{"access_token":"at-1","token_type":"Bearer"}' })] });
		expect(flowVerdict(noMe, diagnoseFlow(noMe))).toMatchObject({ severity: 'warning', what: 'The redirect delivered a code, but the me.json call was not observed: the sign-in did not finish.' });
	});

	it('tells a 500 after an exchange and me.json that succeeded as the app\'s handling of the answer, with what was special', () => {
		const arrival = exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status: 500, body: 'Internal Server Error' }, 'a1');
		const joined = flow({
			link: LINK,
			callback: authorised,
			exchanges: [
				arrival,
				exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } }, { status: 200, body: '{"access_token":"at-1","token_type":"Bearer"}' }),
				exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer at-1', 'User-Agent': 'shop' } }, { status: 200, body: JSON.stringify({ sbid_number: 'AB12345', verifications: [] }) })
			]
		});
		const verdict = flowVerdict(joined, diagnoseFlow(joined));
		expect(verdict).toMatchObject({ severity: 'error', exchange: { id: 'a1', n: 1 }, reference: { kind: 'section', section: '2.4' } });
		expect(verdict.cause).toContain('the fault is in your app\'s handling of them');
		expect(verdict.cause).toContain('an empty `verifications` list');
		expect(verdict.cause).not.toMatch(/unknown-code/);
	});

	describe('a refusal the interface specifies after what the user did (diagnose/refused-as-specified.ts)', () => {
		const ME_URL = 'https://accounts.example.com/api/v3/me.json';
		const token = (status: number, body: string, id: string) => exchange('token', { method: 'POST', url: tokenUrl(), headers: { 'User-Agent': 'shop' } }, { status, body }, id);
		const me = (status: number, body: string, id: string) => exchange('me', { url: ME_URL, headers: { Authorization: 'Bearer at-1', 'User-Agent': 'shop' } }, { status, body }, id);
		const page = (status: number, body: string, id: string) => exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status, body }, id);
		const GRANTED = '{"access_token":"at-1","token_type":"Bearer"}';
		const USED = '{"error":"invalid_grant","error_description":"The provided authorization grant is invalid, expired, revoked or was issued to another client."}';
		const verdictOf = (exchanges: ReturnType<typeof exchange>[]) => {
			const record = flow({ link: LINK, callback: authorised, exchanges });
			return flowVerdict(record, diagnoseFlow(record));
		};

		it('a deleted account\'s 404 answered with a page of the app\'s own is no fault; without the page (the live view), not observed', () => {
			const closed = page(403, '<h1>Account closed</h1><p>This account has asked to be deleted.</p>', 'a1');
			const handled = verdictOf([closed, token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1')]);
			expect(handled).toMatchObject({ severity: 'success', exchange: { id: 'm1', n: 3 }, fix: 'Nothing to fix.' });
			expect(handled.what).toBe('The me.json call (exchange 3) was answered 404 as the interface specifies, and your app answered it with a page of its own (403): nothing to fix.');
			expect(handled.cause).toContain('asked for their account to be deleted');
			const unseen = verdictOf([token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1')]);
			expect(unseen).toMatchObject({ severity: 'unobserved', exchange: { id: 'm1', n: 2 } });
			expect(unseen.fix).toContain("To see how your app answered the user, run the app check, or save this flow and add the browser's HAR.");
		});

		it('in a walk or a scenario, where the explorer is the client and showed the answer, is no fault and asks for no recording', () => {
			for (const source of ['walk', 'scenario']) {
				const record = { ...flow({ link: LINK, callback: authorised, exchanges: [token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1')] }), source };
				const verdict = flowVerdict(record, diagnoseFlow(record));
				expect(verdict).toMatchObject({ severity: 'success', exchange: { id: 'm1', n: 2 } });
				expect(verdict.what).toBe('The me.json call (exchange 2) was answered 404 as the interface specifies, and the explorer, the client here, showed it: nothing to fix.');
				expect(verdict.fix).toMatch(/^Nothing to fix here\. Your own app, given this answer, shows the user a page of its own/);
				expect(`${verdict.what} ${verdict.fix}`).not.toMatch(/HAR|not observed|app check/);
			}
		});

		it("reads the page the app's own redirect led to as its answer: the status the user saw, not the 302", () => {
			const redirect = exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status: 302, headers: { Location: '/closed' } }, 'a1');
			const closed = exchange('arrival', { url: 'https://shop.example.com/closed' }, { status: 403, body: '<h1>Account closed</h1>' }, 'c1');
			const handled = verdictOf([redirect, token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1'), closed]);
			expect(handled.what).toBe('The me.json call (exchange 3) was answered 404 as the interface specifies, and your app answered it with a page of its own (403): nothing to fix.');
		});

		it('a deleted account\'s 404 that the app answered with a 500 stays the error it is', () => {
			const crashed = verdictOf([page(500, 'Internal Server Error', 'a1'), token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1')]);
			expect(crashed).toMatchObject({ severity: 'error', exchange: { id: 'm1', n: 3 } });
		});

		it('a reload\'s second exchange of a used code, answered with a friendly page, is no fault; with a 500 it is the reuse', () => {
			const first = page(200, '<h1>Signed in</h1>', 'a1');
			const used = '<h1>Sign-in link used</h1><p>That sign-in has already been used or has expired.</p>';
			// A person reloads seconds later (at once would be a crash's re-send: handling/handler-rerun.ts).
			const later = (e: ReturnType<typeof exchange>) => ({ ...e, startedAt: '2026-01-01T10:00:40.000Z' });
			const handled = verdictOf([first, token(200, GRANTED, 't1'), me(200, ME_BODY, 'm1'), later(page(400, used, 'a2')), later(token(400, USED, 't2'))]);
			expect(handled).toMatchObject({ severity: 'success', exchange: { id: 't2', n: 5 } });
			expect(handled.cause).toContain('a reload or the back button sent it to your app again');
			expect(verdictOf([token(200, GRANTED, 't1'), me(200, ME_BODY, 'm1'), later(token(400, USED, 't2'))])).toMatchObject({ severity: 'unobserved' });
			const crashed = verdictOf([first, token(200, GRANTED, 't1'), me(200, ME_BODY, 'm1'), later(page(500, 'Fatal error', 'a2')), later(token(400, USED, 't2'))]);
			expect(crashed).toMatchObject({ severity: 'error', exchange: { id: 't2', n: 5 } });
			expect(crashed.cause).toContain('already exchanged successfully');
		});

		it('a refusal the app answered below 400, as it answers a sign-in, is no success: the question stays', () => {
			const signedIn = page(200, '<h1>Signed in</h1><p>Account : .</p>', 'a1');
			const verdict = verdictOf([signedIn, token(200, GRANTED, 't1'), me(404, '{"message":"deleted"}', 'm1')]);
			expect(verdict.severity).toBe('warning');
			expect(verdict.what).toBe('The me.json call (exchange 3) was answered 404 as the interface specifies, and your app answered 200, as for a sign-in that went through: check that it handled the refusal.');
		});

		it('an app exchanging one code twice in one go (no me.json read between) stays an error, page or not', () => {
			expect(verdictOf([token(200, GRANTED, 't1'), token(400, USED, 't2'), me(200, ME_BODY, 'm1')]).severity).toBe('error');
		});
	});
});
