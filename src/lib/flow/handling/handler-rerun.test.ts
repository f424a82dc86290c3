import { describe, expect, it } from 'vitest';
import { crossFlags } from '../flags';
import { exchange, flow } from '../test-helpers';
import type { RecordedExchange } from '../exchange';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const BODY = `grant_type=authorization_code&code=c-0001-abcdef-0002&client_id=shop&client_secret=s&redirect_uri=${encodeURIComponent(REDIRECT)}`;
const at = (e: RecordedExchange, time: string, id: string): RecordedExchange => ({ ...e, startedAt: `2026-01-01T${time}Z`, durationMs: 10, id });
const token = (time: string, status: number, id: string) =>
	at(exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: BODY }, { status, body: status === 200 ? '{"access_token":"t","token_type":"Bearer"}' : '{"error":"invalid_grant","error_description":"used"}' }), time, id);
const me = at(exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer t', 'User-Agent': 'shop/1' } }, { status: 200, body: '{"sbid_number":"STU0001","verifications":[]}' }), '10:00:00.100', 'm1');
const reused = (againAt: string, browser: RecordedExchange[] = []) =>
	crossFlags(flow({ link: LINK, exchanges: [...browser, token('10:00:00.000', 200, 't1'), me, token(againAt, 400, 't2')] })).find((f) => f.id === 'code-reused');
/** The browser's side: its arrival with the code, and its page's calls posting the code to the app's own API. */
const arrival = at(exchange('arrival', { url: `${REDIRECT}?code=c-0001-abcdef-0002` }, { status: 200, body: '<p>Signing you in…</p>' }), '09:59:59.900', 'a1');
const pagePost = (id: string) => at(exchange('arrival', { method: 'POST', url: 'https://shop.example.com/api/session', headers: { 'Content-Type': 'application/json' }, body: '{"code":"c-0001-abcdef-0002"}' }, { status: 200, body: '{}' }), '09:59:59.950', id);

describe("a code exchanged again at once after me.json answered", () => {
	it("is told as the callback's re-run after a crash on that answer, naming what was special in it", () => {
		const flag = reused('10:00:00.112');
		expect(flag?.message).toContain('2 ms after me.json (exchange 2) answered 200 with an empty `verifications` list');
		expect(flag?.message).toContain("your app's callback ran a second time for one sign-in");
		expect(flag?.fix).toBe('Read an empty `verifications` array as "not verified" and show a normal page, not an error.');
	});

	it("is the code sent again, not a guess, when the browser's record shows its page posting the code twice", () => {
		const flag = reused('10:00:00.112', [arrival, pagePost('p1'), pagePost('p2')]);
		expect(flag?.message).toContain('already exchanged successfully');
		expect(flag?.message).not.toContain('ran a second time');
		// The browser's record with the code sent once is no explanation: the re-send is still the guess.
		expect(reused('10:00:00.112', [arrival, pagePost('p1')])?.message).toContain("your app's callback ran a second time for one sign-in");
	});

	it("matches the browser's code to the sandbox log's, which shows it masked but for its tail", () => {
		const masked = (e: RecordedExchange): RecordedExchange => ({ ...e, request: { ...e.request, body: e.request.body!.replace('c-0001-abcdef-0002', '••••••0002') } });
		const flows = flow({ link: LINK, exchanges: [arrival, pagePost('p1'), pagePost('p2'), masked(token('10:00:00.000', 200, 't1')), me, masked(token('10:00:00.112', 400, 't2'))] });
		expect(crossFlags(flows).find((f) => f.id === 'code-reused')?.message).toContain('already exchanged successfully');
	});

	it('is no fault when it came later, as a reload does: the service refused it as specified (diagnose/refused-as-specified.ts)', () => {
		expect(reused('10:00:02.000')).toBeUndefined();
		// A script reloads as soon as the page has loaded: half a second, still no re-send.
		expect(reused('10:00:00.610')).toBeUndefined();
	});
});
