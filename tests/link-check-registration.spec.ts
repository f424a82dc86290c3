/**
 * Issue 27, point 1: a link to the built-in sandbox is checked against what the sandbox has registered (unknown
 * client, unregistered redirect URI, country off the plan), in the walk's step 1 and on /check, before anything is
 * opened, with the registered values shown; the sandbox's error page links back to the step that made the link.
 */
import { expect, test } from '@playwright/test';
import { AUTH_HOST, EXPLORER, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

const REGISTERED = `${EXPLORER}/callback`;
const sandboxLink = (params: Record<string, string>) =>
	`${AUTH_HOST}/sso/student?${new URLSearchParams({ response_type: 'code', client_id: 'demo-client', redirect_uri: REGISTERED, country: 'uk', ...params })}`;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('step 1 checks the link against the sandbox registration before it is opened, and the error page leads back', async ({ page }) => {
			await open(page, '/');
			const link = page.locator('#step-link');
			await expect(link.getByText('No findings')).toBeVisible();

			await page.getByLabel('Country').fill('jp');
			const country = link.getByTestId('finding-country-not-on-plan');
			await expect(country).toContainText("The country jp is not on demo-client's plan, which covers: uk, ie, fr, de, us.");
			await page.getByLabel('Country').fill('uk');

			await page.getByLabel('Redirect URI').fill(`${EXPLORER}/callbak`);
			await expect(link.getByTestId('finding-redirect-uri-not-registered')).toContainText(`Registered: ${REGISTERED}.`);
			await page.getByLabel('Redirect URI').fill(REGISTERED);

			await page.getByLabel('Client ID').fill('demo-clinet');
			const unknown = link.getByTestId('finding-client-not-registered');
			await expect(unknown).toContainText('No client demo-clinet is registered in the sandbox workspace “Default”.');
			await expect(unknown).toContainText('Client authentication failed due to unknown client');
			await expect(unknown).toContainText('demo-client, group-key-client');
			expect(await seriousViolations(page)).toEqual([]);

			// Opened anyway (a person may want to see the 7.1 page): the sandbox's page links back to step 1.
			await page.getByTestId('open-link').click();
			await page.waitForURL((url) => url.origin === AUTH_HOST);
			await expect(page.locator('[data-error="auth-invalid-client"]')).toBeVisible();
			expect(await seriousViolations(page)).toEqual([]);
			await page.getByTestId('back-to-link-step').click();
			await page.waitForURL(`${EXPLORER}/#step-link`);
			await expect(page.locator('#step-link').getByTestId('finding-client-not-registered')).toBeVisible();
			await page.getByLabel('Client ID').fill('demo-client');
			await page.getByRole('button', { name: 'Save client settings' }).click();
			await expect(page.locator('#step-link').getByText('No findings')).toBeVisible();
		});

		test('/check checks a sandbox link against the registration, with the registered values', async ({ page }) => {
			await open(page, `/check#link=${encodeURIComponent(sandboxLink({ client_id: 'nobody', country: 'uk' }))}`);
			const result = page.getByTestId('check-result');
			await expect(result.getByTestId('finding-client-not-registered')).toContainText('demo-client, group-key-client');

			await open(page, `/check#link=${encodeURIComponent(sandboxLink({ redirect_uri: 'https://app.example/cb', country: 'br' }))}`);
			await expect(result.getByTestId('finding-redirect-uri-not-registered')).toContainText(`Registered: ${REGISTERED}.`);
			await expect(result.getByTestId('finding-country-not-on-plan')).toContainText('uk, ie, fr, de, us');
			expect(await seriousViolations(page)).toEqual([]);

			// Another target's registration is not known: its link is not checked against the sandbox's.
			const elsewhere = sandboxLink({ client_id: 'nobody' }).replace(AUTH_HOST, 'https://auth.example');
			await open(page, `/check#link=${encodeURIComponent(elsewhere)}`);
			await expect(result).toContainText('No findings');
		});
	});
}
