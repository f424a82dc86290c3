import { describe, expect, it } from 'vitest';
import { diagnoseFlow } from './diagnose-flow';
import { exchange, flow } from './test-helpers';
import { flowVerdict } from './verdict';

const AUTH = 'http://localhost:4174';
const LINK = `${AUTH}/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent('http://127.0.0.1:5000/callback')}&country=uk&state=xyz`;
/** The sandbox's 7.1 page (auth/pages.ts, requestErrorPage), as a browser HAR records it. */
const PAGE = `<!doctype html><html><head><title>Sign-in error</title><style>body{}</style></head><body><main>
<h1>Sign-in link not valid</h1>
<div class="alert" role="alert" data-error="auth-invalid-redirect-uri"><p>The redirect URI included is not valid.</p></div>
<p class="lead">You have not been sent back to the application, because the request could not be trusted.
Go back to the application and try again, or contact its developer.</p>
<details open><summary>For developers</summary><dl>
<dt>What was wrong</dt><dd><code>http://127.0.0.1:5000/callback</code> is not registered for Shop. Registered: http://localhost:5000/callback. Scheme, authority and path must match exactly.</dd>
<dt>How to fix it</dt><dd>Use a redirect URI registered for the client.</dd>
<dt>Interface</dt><dd>Table 7.1, row <code>auth-invalid-redirect-uri</code></dd>
</dl></details></main></body></html>`;

describe('a 7.1 page in the evidence', () => {
	it('is the flow\'s verdict: its row, the page\'s own detail and the cause it names, not `state` or "rows matched: none"', () => {
		const har = flow({
			target: { kind: 'sandbox', authUrl: AUTH, accountsUrl: 'http://localhost:4175' },
			link: LINK,
			exchanges: [exchange('link', { url: LINK }, { status: 400, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: PAGE }, 'l')]
		});
		const verdict = flowVerdict(har, diagnoseFlow(har));
		expect(verdict).toMatchObject({ severity: 'error', reference: { kind: 'row', rowId: 'auth-invalid-redirect-uri' }, exchange: { id: 'l', n: 1 } });
		expect(verdict.what).toBe('The authorisation page (exchange 1) refused the link and showed the user: The redirect URI included is not valid.');
		expect(verdict.cause).toBe('The page says: http://127.0.0.1:5000/callback is not registered for Shop. Registered: http://localhost:5000/callback. Scheme, authority and path must match exactly.');
		expect(verdict.fix).toMatch(/^Use a redirect URI registered for the client/);
	});

	it('is not read from the app\'s own page at the redirect URI', () => {
		const arrival = exchange('arrival', { url: 'http://127.0.0.1:5000/callback?code=c' }, { status: 400, body: '<p>The redirect URI included is not valid.</p>' }, 'a');
		const record = flow({ link: LINK, callback: { url: 'http://127.0.0.1:5000/callback?code=c', receivedAt: '2026-01-01T10:00:00.000Z' }, exchanges: [arrival] });
		expect(flowVerdict(record, diagnoseFlow(record)).reference).not.toMatchObject({ rowId: 'auth-invalid-redirect-uri' });
	});
});
