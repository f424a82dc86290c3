/**
 * Issue 24, point 4: the one-click sandbox log joins any run whose hosts are this sandbox's, imported or not. A
 * browser's HAR recorded against the sandbox (the link, and the app's callback that failed) is imported; the
 * sandbox's log of its client adds what the browser never saw: the app's server's token exchange of that code.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, AUTH_HOST, EXPLORER, STUDENT, open } from './support/walk';

const REDIRECT = `${EXPLORER}/callback`;
const LINK = `${AUTH_HOST}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;

/** One HAR entry of a GET, as a browser saves it. */
function entry(url: string, at: Date, status: number, body: string) {
	return {
		startedDateTime: at.toISOString(),
		time: 5,
		request: { method: 'GET', url, httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'Accept', value: 'text/html' }], queryString: [], headersSize: -1, bodySize: 0 },
		response: {
			status,
			statusText: '',
			httpVersion: 'HTTP/1.1',
			cookies: [],
			headers: [{ name: 'Content-Type', value: 'text/html' }],
			content: { size: body.length, mimeType: 'text/html', text: body },
			redirectURL: '',
			headersSize: -1,
			bodySize: body.length
		},
		cache: {},
		timings: { send: 0, wait: 5, receive: 0 }
	};
}

test("an imported HAR recorded against this sandbox joins the sandbox's log in one click: the app's server's exchange appears", async ({ page }) => {
	// The browser opens the link; the user authorises (the control API stands in for the sign-in pages).
	const linkAt = new Date();
	const linkStatus = (await fetch(LINK, { redirect: 'manual' })).status;
	expect(linkStatus).toBeLessThan(400);
	const authorised = await fetch(`${ACCOUNTS_HOST}/sandbox/authorize`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: REDIRECT, country: 'uk', login: STUDENT, decision: 'authorize' })
	});
	const code = new URL(((await authorised.json()) as { location: string }).location).searchParams.get('code')!;
	const callbackAt = new Date();
	// The app's server exchanges the code with a redirect_uri that is not the link's: the browser's HAR cannot see it.
	const token = await fetch(`${ACCOUNTS_HOST}/oauth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'shop-server/1.0' },
		body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'demo-client', client_secret: 'not-the-secret', redirect_uri: `${REDIRECT}?next=1` })
	});
	expect(token.status).toBe(401);

	const har = {
		log: {
			version: '1.2',
			creator: { name: 'Chromium', version: '130' },
			entries: [entry(LINK, linkAt, linkStatus, ''), entry(`${REDIRECT}?code=${encodeURIComponent(code)}`, callbackAt, 500, '<p>Something went wrong</p>')]
		}
	};
	const imported = await page.request.post('/api/import', { data: { kind: 'har', text: JSON.stringify(har) } });
	expect(imported.status(), await imported.text()).toBe(200);
	const permalink = `/runs/${((await imported.json()) as { id: string }).id}`;

	await open(page, permalink);
	await expect(page.locator('[data-testid^="timeline-"][data-step="token"]')).toHaveCount(0);
	const title = page.getByRole('heading', { level: 1 });
	await expect(title).not.toContainText('token 401');
	await page.getByTestId('evidence-sandbox-log').click();
	// The link the sandbox logged is the HAR's own; the token exchange is what the browser never saw.
	await expect(page.getByTestId('evidence-message')).toContainText('added 1 exchange, 1 already in the run');
	const joined = page.locator('[data-testid^="timeline-"][data-step="token"]');
	await expect(joined).toHaveCount(1);
	await expect(joined).toContainText("from the sandbox's log, placed by time");
	await expect(joined).toHaveAttribute('data-channel', 'back');
	await expect(joined).toContainText('401');
	// The import's title names its verdict: it follows what the evidence shows, here and in the list.
	await expect(title).toContainText('Imported HAR, demo-client: error, token 401');
	await page.goto('/runs');
	await expect(page.getByTestId('run-list').locator(`a[href="${permalink}"]`)).toContainText('error, token 401');
});

test("a sanitised HAR's run says why the sandbox's log adds no token exchange, instead of a bare 'added 0'", async ({ page }) => {
	// The client's log holds a token exchange; nothing in the run can say whether it is this flow's.
	const logged = await fetch(`${ACCOUNTS_HOST}/oauth/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'shop-server/1.0' },
		body: new URLSearchParams({ grant_type: 'authorization_code', code: 'A'.repeat(43), client_id: 'demo-client', client_secret: 'not-the-secret', redirect_uri: REDIRECT })
	});
	expect(logged.status).toBeGreaterThanOrEqual(400);
	const linkAt = new Date();
	const har = {
		log: {
			version: '1.2',
			creator: { name: 'Chromium', version: '130' },
			entries: [entry(LINK, linkAt, 200, ''), entry(`${REDIRECT}?code=[REDACTED]`, new Date(linkAt.getTime() + 5_000), 500, '<p>Something went wrong</p>')]
		}
	};
	const imported = await page.request.post('/api/import', { data: { kind: 'har', text: JSON.stringify(har) } });
	expect(imported.status(), await imported.text()).toBe(200);
	await open(page, `/runs/${((await imported.json()) as { id: string }).id}`);
	await page.getByTestId('evidence-sandbox-log').click();
	const message = page.getByTestId('evidence-message');
	await expect(message).toContainText("this run's grant code was replaced by a sanitiser ([REDACTED]), so none can be told to be this flow's");
	await expect(page.locator('[data-testid^="timeline-"][data-step="token"]')).toHaveCount(0);
});
