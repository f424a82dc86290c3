/** Cross-site writes to the explorer's API are refused; the explorer's own pages are not. */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, EXPLORER, authorise, open } from './support/walk';

const WRITES = ['/api/walk/client', '/api/walk/start', '/api/walk/exchange', '/api/walk/me', '/api/walk/reveal', '/api/walk/reset', '/api/lesson'];

test('a POST with a foreign Origin is refused with 403 on every route that changes state', async ({ request }) => {
	for (const path of WRITES) {
		const response = await request.post(path, { headers: { origin: 'http://evil.example' }, data: {} });
		expect(response.status(), path).toBe(403);
		expect(((await response.json()) as { message: string }).message).toContain('Cross-site request refused');
	}
});

test('a POST marked cross-site by Sec-Fetch-Site, without Origin, is refused', async ({ request }) => {
	const response = await request.post('/api/walk/exchange', { headers: { 'sec-fetch-site': 'cross-site' }, data: {} });
	expect(response.status()).toBe(403);
});

test('the same POST from the explorer\'s own origin is accepted', async ({ request }) => {
	const response = await request.post('/api/walk/reset', { headers: { origin: EXPLORER }, data: {} });
	expect(response.status()).toBe(200);
});

test('a page on another origin cannot reset a walk behind the user\'s back', async ({ page }) => {
	await authorise(page);
	// Another origin on the same site (cookies ignore ports, so the explorer's session cookie goes along): the
	// sandbox's accounts host, whose JSON answers carry no CSP that would stop the page's fetch.
	await page.goto(`${ACCOUNTS_HOST}/sandbox/state`);
	const status = await page.evaluate(async (target) => {
		try {
			const response = await fetch(`${target}/api/walk/reset`, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '{}' });
			return response.type;
		} catch (error) {
			return String(error);
		}
	}, EXPLORER);
	expect(status).toBe('opaque');
	await open(page, '/');
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
});
