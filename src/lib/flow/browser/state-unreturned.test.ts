import { describe, expect, it } from 'vitest';
import { exchange, flow } from '../test-helpers';
import { arrivals } from './browser-arrivals';
import { stateCheckLikely } from './state-unreturned';

const REDIRECT = 'https://shop.example.com/cb';
const link = (extra: string) => `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk${extra}`;
const likely = (extra: string, status: number, body = 'Internal Server Error', query = '?code=c-12345678') => {
	const record = flow({ link: link(extra), exchanges: [exchange('arrival', { url: `${REDIRECT}${query}` }, { status, body })] });
	return stateCheckLikely(record, arrivals(record)[0]!);
};

const TRACE = 'Internal Server Error\nClientError: invalid response encountered\n    at Module.authorizationCodeGrant (file:///app/node_modules/openid-client/build/index.js:944:21)';

describe('stateCheckLikely', () => {
	it('holds for a link with `state`, a redirect without it and a 5xx whose trace runs through an OAuth library', () => {
		expect(likely('&state=st4te', 500, TRACE)).toBe(true);
	});

	it('does not hold without `state` on the link, for a page of the app\'s own, a crash in the app\'s code or at me.json, or a page naming another error', () => {
		expect(likely('', 500, TRACE)).toBe(false);
		expect(likely('&state=st4te', 500, '<title>IndexError: list index out of range</title>Traceback (most recent call last): File "/srv/app.py", line 40')).toBe(false);
		expect(likely('&state=st4te', 502, '<title>Sign-in failed</title><p>The service could not tell us who you are (403).</p>')).toBe(false);
		expect(likely('&state=st4te', 500, '<title>HTTPError: 403 Client Error: Forbidden for url: http://accounts/api/v3/me.json</title>File "/usr/lib/python3/dist-packages/requests_oauthlib/oauth2_session.py"')).toBe(false);
		expect(likely('&state=st4te', 200, '<h1>Signed in</h1>')).toBe(false);
		expect(likely('&state=st4te', 400, '<h1>Sign-in link used</h1>')).toBe(false);
		expect(likely('&state=st4te', 500, '{"error":"invalid_client"}')).toBe(false);
		expect(likely('&state=st4te', 500, 'x', '?code=c-12345678&state=st4te')).toBe(false);
	});
});
