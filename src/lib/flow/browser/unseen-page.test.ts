import { describe, expect, it } from 'vitest';
import { exchange, flow } from '../test-helpers';
import { pageUnseen } from './unseen-page';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`;
const callback = { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:00.000Z' };

describe('pageUnseen', () => {
	it('holds for the service\'s log alone', () => {
		expect(pageUnseen(flow({ link: LINK, callback, serviceSideOnly: true }))).toBe(true);
	});

	it('does not hold for a record of no stated side (a walk: the explorer is the app)', () => {
		expect(pageUnseen(flow({ link: LINK, callback }))).toBe(false);
	});

	it('does not hold once the browser\'s arrival at the app was added to the log', () => {
		const arrival = exchange('arrival', { url: `${REDIRECT}?code=c-1` }, { status: 200, body: '<h1>Signed in</h1>' });
		expect(pageUnseen(flow({ link: LINK, callback, serviceSideOnly: true, exchanges: [arrival] }))).toBe(false);
	});
});
