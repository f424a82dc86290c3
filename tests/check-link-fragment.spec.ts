/**
 * Issue 27, point 9: /check keeps the pasted link (and any client_secret in it) in the address's fragment, which the
 * browser never sends, and checks it in the browser; an old ?link= address still works, moved to the fragment. The
 * reference page's curl scripts read CLIENT_SECRET, and the page shows the demo client's (public) secret beside them.
 */
import { expect, test } from '@playwright/test';
import { AUTH_HOST, DEMO_SECRET, EXPLORER, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const LEAKY = `${AUTH_HOST}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk&client_secret=a-real-secret-42`;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('a checked link stays in the fragment: no request to the server carries it', async ({ page }) => {
			await open(page, '/check');
			const sent: string[] = [];
			page.on('request', (request) => sent.push(`${request.url()} ${request.postData() ?? ''}`));
			await page.getByLabel('Authorisation link').fill(LEAKY);
			await page.getByRole('button', { name: 'Check the link' }).click();
			await expect(page.getByTestId('check-result').getByTestId('finding-client-secret-parameter')).toBeVisible();
			expect(new URL(page.url()).search).toBe('');
			expect(new URL(page.url()).hash).toContain('client_secret%3Da-real-secret-42');
			await expect(page.locator('#check-result')).toBeFocused();
			// A shared address reproduces the check, still without sending the link.
			await page.reload();
			await expect(page.getByTestId('check-result').getByTestId('finding-client-secret-parameter')).toBeVisible();
			await expect(page.getByLabel('Authorisation link')).toHaveValue(LEAKY);
			expect(sent.filter((s) => s.includes('a-real-secret-42'))).toEqual([]);
			expect(await seriousViolations(page)).toEqual([]);
		});

		test('an old ?link= address moves the link to the fragment and shows the same check', async ({ page }) => {
			const response = await page.request.get(`/check?link=${encodeURIComponent(LEAKY)}`, { maxRedirects: 0 });
			expect(response.status()).toBe(308);
			expect(response.headers()['location']).toBe(`/check#${new URLSearchParams({ link: LEAKY })}`);
			await open(page, `/check?link=${encodeURIComponent(LEAKY)}`);
			expect(new URL(page.url()).search).toBe('');
			await expect(page.getByTestId('check-result').getByTestId('finding-client-secret-parameter')).toBeVisible();
		});

		test('the reference page shows the demo secret where the curl scripts read CLIENT_SECRET', async ({ page }) => {
			await open(page, '/reference');
			const shown = page.getByTestId('demo-secret');
			await expect(shown).toContainText(`For demo-client it is ${DEMO_SECRET}, a public test value`);
			await expect(page.locator('#curl pre.setup')).toHaveText(`export CLIENT_SECRET='${DEMO_SECRET}'`);
			const example = page.getByTestId('curl-example').first();
			await example.locator('summary').click();
			await example.getByRole('link', { name: 'shown above the scripts' }).click();
			await expect(shown).toBeInViewport();
			expect(await seriousViolations(page)).toEqual([]);
		});
	});
}
