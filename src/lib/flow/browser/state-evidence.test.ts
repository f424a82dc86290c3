import { describe, expect, it } from 'vitest';
import { exchange, flow } from '../test-helpers';
import type { RecordedExchange } from '../exchange';
import type { FlowRecord } from '../record';
import { readBrowserSide } from './browser-flags';
import { stateCheckShown } from './state-evidence';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk&state=xyz`;
const at = (e: RecordedExchange, time: string, id: string): RecordedExchange => ({ ...e, startedAt: `2026-01-01T${time}.000Z`, id });
const link = (time: string, id = 'l') => at(exchange('link', { url: LINK }, { status: 302, headers: { Location: '/flow/1' } }), time, id);
const arrive = (status: number, body: string, headers: Record<string, string> = {}) =>
	at(exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status, body, headers }), '10:00:30', 'a1');
const token = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token?code=c-1' }, { status: 200, body: '{}' }, 't1');
const shown = (record: FlowRecord) => stateCheckShown(record, readBrowserSide(record), []);

describe('stateCheckShown: `state` on the link is a finding only on evidence of a failed check', () => {
	it('is not shown by a correct app that ignores the state it sent: its page signed the user in, or refused for its own reason', () => {
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), arrive(200, '<h1>Signed in</h1>')] }))).toBe(false);
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), arrive(403, '<h1>Account closed</h1><p>This account has asked to be deleted.</p>')] }))).toBe(false);
	});

	it('is shown by a failed page that names state: a library\'s mismatch error or the app\'s own words', () => {
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), arrive(500, 'MismatchingStateError: mismatching_state')] }))).toBe(true);
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), arrive(400, 'invalid oauth state')] }))).toBe(true);
	});

	it('is shown by a redirect to a failure naming CSRF (omniauth), and by a page that failed before its code was exchanged', () => {
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), arrive(302, '', { Location: '/auth/failure?message=csrf_detected&strategy=sso' })] }))).toBe(true);
		const crashed = arrive(500, 'Internal Server Error ClientError: invalid response encountered');
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), crashed] }))).toBe(true);
		// The code was exchanged: any state check passed, and the 500 is about something else.
		expect(shown(flow({ link: LINK, exchanges: [link('10:00:00'), crashed, token] }))).toBe(false);
	});

	it('is shown by a code answered with a new sign-in, and by a cancel loop', () => {
		const restarted = flow({ link: LINK, exchanges: [link('10:00:00'), arrive(302, '', { Location: '/login' }), link('10:00:31', 'l2')] });
		expect(shown(restarted)).toBe(true);
		const live = flow({ link: LINK, exchanges: [link('10:00:00')] });
		expect(stateCheckShown(live, readBrowserSide(live), [{ id: 'cancel-loop', severity: 'error', message: '', section: '', fix: '' }])).toBe(true);
	});

	it('with the server\'s side only (no page of the app), is shown by a delivered code never exchanged, not by one exchanged', () => {
		const callback = { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:30.000Z' };
		expect(shown(flow({ link: LINK, callback, exchanges: [] }))).toBe(true);
		expect(shown(flow({ link: LINK, callback, exchanges: [token] }))).toBe(false);
	});
});
