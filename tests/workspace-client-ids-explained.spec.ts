/**
 * Issue 27, point 8: in one's own sandbox workspace the client id is `demo-client~<id>`. The walk says so, and why,
 * where the workspace is chosen beside Target and client; the sandbox's consent page says it where it shows the id;
 * and a workspace's key, masked in a scenario's exchanges, is named as such rather than as a client secret.
 */
import { expect, test, type Page } from '@playwright/test';
import { AUTH_HOST, DEMO_PASSWORD, STUDENT, hydrated, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

/** From the link's Open button to the sandbox's consent page, signing in (and proving) as asked. */
async function toConsent(page: Page): Promise<void> {
	await page.getByTestId('open-link').click();
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	for (let step = 0; step < 3; step++) {
		const kind = await page.locator('main[data-page]').getAttribute('data-page');
		if (kind === 'consent') return;
		if (kind === 'login') {
			await page.getByLabel('Email').fill(STUDENT);
			await page.getByLabel('Password').fill(DEMO_PASSWORD);
			await page.getByRole('button', { name: 'Sign in' }).click();
		} else if (kind === 'verify') {
			await page.getByRole('button', { name: 'Submit proof' }).click();
		} else throw new Error(`Unexpected sandbox page "${kind}"`);
		await page.waitForLoadState('domcontentloaded');
	}
	await expect(page.locator('main[data-page="consent"]')).toBeVisible();
}

// axe on a busy machine takes long.
test.describe.configure({ timeout: 120_000 });

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test("one's own workspace says what its client ids are and why, beside the client settings and on the consent page", async ({ page }) => {
			await open(page, '/');
			await page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
			await page.waitForURL((url) => url.pathname === '/');
			await hydrated(page);
			const id = (await page.getByTestId('workspace-id').innerText()).trim();
			const said = page.getByTestId('workspace-client-ids');
			await expect(said).toContainText(`Its clients' ids end in ~${id}: the demo client here is demo-client~${id}.`);
			await expect(said).toContainText('teams sharing one deployment do not collide');
			await expect(page.getByLabel('Client ID')).toHaveValue(`demo-client~${id}`);
			expect(await seriousViolations(page)).toEqual([]);

			await toConsent(page);
			const note = page.getByTestId('workspace-client-note');
			await expect(note).toContainText(`This client is in the sandbox workspace ${id}.`);
			await expect(note).toContainText('so teams sharing one sandbox never collide');
			expect(await seriousViolations(page)).toEqual([]);
		});

		test('the default workspace says nothing of suffixes: its ids are the shipped ones', async ({ page }) => {
			await open(page, '/');
			await expect(page.getByTestId('workspace-client-ids')).toHaveCount(0);
			await expect(page.getByLabel('Client ID')).toHaveValue('demo-client');
			await toConsent(page);
			await expect(page.getByTestId('workspace-client-note')).toHaveCount(0);
		});

		test("a scenario's workspace key is masked as a workspace key, not as a client secret", async ({ page }) => {
			await open(page, '/scenarios?run=success');
			const scenario = page.getByTestId('scenario-success');
			await scenario.getByRole('button', { name: /^Run / }).click();
			await expect(scenario.getByTestId('scenario-result')).toHaveAttribute('data-passed', 'true');
			const authorise = scenario.locator('[data-testid="scenario-step"][data-kind="authorise"]');
			const masked = authorise.getByRole('list', { name: 'Masked values' });
			await expect(masked).toContainText('sandbox workspace key or admin token masked');
			await expect(masked).toContainText(/x-sandbox-workspace-key/i);
			await expect(masked).not.toContainText('client secret masked');
			expect(await seriousViolations(page)).toEqual([]);
		});
	});
}
