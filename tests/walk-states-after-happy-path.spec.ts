/**
 * Issue 27, point 7: the walk's states say what is true after the happy path. After a cancel, exchanging is not the
 * primary action; an expired code is no longer a green "Authorised", its expiry is said in words (no missing-glyph
 * box) and the exchange's diagnosis says it expired; the link never silently differs from the saved settings; an
 * exchange under way says so.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, STUDENT, annotationOf, authorise, exchange, open } from './support/walk';
import { VIEWPORTS, seriousViolations } from './support/viewports';

async function sandboxClock(body: object): Promise<void> {
	const response = await fetch(`${ACCOUNTS_HOST}/sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	expect(response.status).toBe(200);
}

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test('after a cancel, exchanging the code is not the primary action', async ({ page }) => {
			await authorise(page, STUDENT, 'cancel');
			await expect(page.getByTestId('exchange')).not.toHaveClass(/primary/);
			await expect(page.getByTestId('open-link')).toHaveClass(/primary/);
			await authorise(page);
			await expect(page.getByTestId('exchange')).toHaveClass(/primary/);
		});

		test('an expired code is no longer "Authorised", its expiry is said in words, and the diagnosis says it expired', async ({ page }) => {
			await authorise(page);
			try {
				await sandboxClock({ advance_seconds: 2 * 3600 + 60 });
				await page.reload();
				const result = page.getByTestId('callback-result');
				await expect(result).toHaveAttribute('data-expired', 'true');
				await expect(result).toContainText('The grant code has expired');
				await expect(result).not.toContainText('Authorised');
				const validity = page.getByTestId('code-validity');
				await expect(validity).toContainText('Expired at');
				expect(await validity.innerText()).not.toContain('⌛');
				expect(await seriousViolations(page)).toEqual([]);

				const annotation = await exchange(page);
				await expect(annotation).toHaveAttribute('data-row', 'token-invalid-grant');
				await expect(annotation).toContainText(/The code arrived 2 h 1 min ago: it expired 1 min ago \(a code is valid for 2 h\)/);
			} finally {
				await sandboxClock({ reset: true });
			}
		});

		test('unsaved edits show in the link as unsaved, and copying or opening it saves them', async ({ page }) => {
			await open(page, '/');
			await page.getByLabel('Country').fill('fr');
			await expect(page.getByTestId('auth-link')).toContainText('country=fr');
			await expect(page.getByTestId('link-unsaved')).toContainText('has unsaved changes (country)');
			expect(await seriousViolations(page)).toEqual([]);
			// Left unsaved, a reload shows the saved settings, in the form and in the link alike.
			await page.reload();
			await expect(page.getByLabel('Country')).toHaveValue('uk');
			await expect(page.getByTestId('auth-link')).toContainText('country=uk');
			await expect(page.getByTestId('link-unsaved')).toHaveCount(0);

			// Copied, the link's settings are saved first: the link taken away is the walk's.
			await page.getByLabel('Country').fill('fr');
			await page.getByRole('button', { name: 'Copy link' }).click();
			await expect(page.getByTestId('link-unsaved')).toHaveCount(0);
			await page.reload();
			await expect(page.getByLabel('Country')).toHaveValue('fr');
			await expect(page.getByTestId('auth-link')).toContainText('country=fr');

			// After a walk, a link edited since is not passed off as the one the code came from.
			await page.getByLabel('Country').fill('uk');
			await page.getByRole('button', { name: 'Save client settings' }).click();
			await authorise(page);
			await page.getByLabel('Country').fill('ie');
			await expect(page.getByTestId('link-used')).toContainText('country=uk');
		});

		test('while the exchange is under way, the step says so', async ({ page }) => {
			await authorise(page);
			let release: () => void = () => {};
			const held = new Promise<void>((resolve) => (release = resolve));
			await page.route('**/api/walk/exchange', async (route) => {
				await held;
				await route.continue();
			});
			const pending = page.getByTestId('token-pending');
			await expect(pending).toHaveAttribute('role', 'status');
			await expect(pending).toBeEmpty();
			await page.getByTestId('exchange').click();
			await expect(pending).toBeVisible();
			await expect(pending).toContainText('is waiting for the answer');
			release();
			await expect(annotationOf(page, 'token', 0)).toBeVisible();
			await expect(pending).toBeEmpty();
		});
	});
}
