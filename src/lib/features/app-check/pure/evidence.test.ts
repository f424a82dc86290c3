import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { excerpt, findStackTrace, fingerprint, htmlToText, pageTemplate, redact } from './evidence';

/** Express's default error page in development, as passport-oauth2's TokenError reaches it. */
const EXPRESS_500 = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Error</title></head>
<body><pre>TokenError: The grant code is not valid<br> &nbsp; &nbsp;at OAuth2Strategy.parseErrorResponse (/app/node_modules/passport-oauth2/lib/strategy.js:373:12)<br> &nbsp; &nbsp;at OAuth2Strategy._createOAuthError (/app/node_modules/passport-oauth2/lib/strategy.js:420:16)<br> &nbsp; &nbsp;at /app/node_modules/passport-oauth2/lib/strategy.js:177:45</pre></body></html>`;

describe('reading the app\'s pages', () => {
	it('turns HTML into lines of text, entities decoded', () => {
		const text = htmlToText(EXPRESS_500);
		expect(text).toContain('TokenError: The grant code is not valid\n');
		expect(text).toContain('    at OAuth2Strategy.parseErrorResponse (/app/node_modules/passport-oauth2/lib/strategy.js:373:12)');
		expect(htmlToText('a &lt;b&gt; &amp; &#39;c&#39; &#x41;<script>var x = "<p>"</script>')).toBe("a <b> & 'c' A");
	});

	it('finds the stack trace lines of an Express error page', () => {
		const lines = findStackTrace(htmlToText(EXPRESS_500));
		expect(lines).toEqual([
			'at OAuth2Strategy.parseErrorResponse (/app/node_modules/passport-oauth2/lib/strategy.js:373:12)',
			'at OAuth2Strategy._createOAuthError (/app/node_modules/passport-oauth2/lib/strategy.js:420:16)',
			'at /app/node_modules/passport-oauth2/lib/strategy.js:177:45'
		]);
	});

	it('finds other servers\' traces, and none on an ordinary page', () => {
		expect(findStackTrace('Traceback (most recent call last):\n  File "/app/views.py", line 12, in callback\nKeyError')).toHaveLength(2);
		expect(findStackTrace('java.lang.IllegalStateException\n\tat com.shop.Callback.handle(Callback.java:42)')).toHaveLength(1);
		expect(findStackTrace('app/controllers/sso.rb:18:in `callback\'')).toHaveLength(1);
		expect(findStackTrace('Welcome back! You are verified as a student.\nSign-in was cancelled at 10:42:07.')).toEqual([]);
		expect(findStackTrace('Meet us at Building 5 (floor 2:30:1)')).toEqual([]);
	});

	it('fingerprints a page so two loads of it compare equal, and cuts excerpts', () => {
		expect(fingerprint('Signed in at 10:42\n\n  as STU0001')).toBe(fingerprint('Signed in at 11:07 as STU0001'));
		expect(fingerprint('Verified: student')).not.toBe(fingerprint('Not verified'));
		expect(excerpt('a  b\n c', 3)).toBe('a b…');
	});
});

describe('redaction', () => {
	it('hides secret parameters in URLs, forms and JSON, and credentials after Bearer or Basic', () => {
		const text = redact(
			'GET /callback?code=abc123&next=/x client_secret=s3cr3t {"access_token": "tok", "name": "x"} Authorization: Bearer eyJhbGciOi.x Basic ZGVtbzpzZWNyZXQ='
		);
		expect(text).toBe(
			`GET /callback?code=${MASK}&next=/x client_secret=${MASK} {"access_token": "${MASK}", "name": "x"} Authorization: Bearer ${MASK} Basic ${MASK}`
		);
	});

	it('hides known values wherever they are, and long credential-like runs', () => {
		const key = 'k3j9x2mabc.Zm9vYmFyYmF6';
		const token = 'Qm5pY2VfdG9rZW4tMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u';
		expect(redact(`key ${key} in a page, token ${token}.`, [key])).toBe(`key ${MASK} in a page, token ${MASK}.`);
		// Ordinary words and paths stay.
		expect(redact('/app/node_modules/passport-oauth2/lib/strategy.js:373:12')).toBe('/app/node_modules/passport-oauth2/lib/strategy.js:373:12');
	});

	it('hides a known value in the forms a page echoes it in: URL-encoded, HTML-escaped, base64', () => {
		const secret = 'p&ss+w/rd=1';
		const page = `next=${encodeURIComponent(secret)} <b>p&amp;ss+w/rd=1</b> ${Buffer.from(secret).toString('base64')}`;
		expect(redact(page, [secret])).toBe(`next=${MASK} <b>${MASK}</b> ${MASK}`);
	});
});

describe('pageTemplate', () => {
	it("takes the user's values out where they stand as words, so a page with them and the same page without compare equal", () => {
		const shown = ['STU0001', 'student', 'uk'];
		expect(pageTemplate('Signed in\nAccount STU0001: student.', shown)).toBe(pageTemplate('Signed in\nAccount : .', []));
		// Not inside other words: "uk" stays in "ukulele".
		expect(pageTemplate('ukulele club', shown)).toBe(fingerprint('ukulele club'));
		expect(pageTemplate('Signed in: STU0001 (student)', shown)).not.toBe(pageTemplate('Error: The service could not tell us who you are (401).', []));
	});
});
