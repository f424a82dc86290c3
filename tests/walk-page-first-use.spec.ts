/**
 * The walk page as a first-time user meets it, at a laptop's size and a phone's: the clock, the diagram, the layout,
 * the first screen and focus after a step.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, authorise, callMe, exchange, open, resetSandbox, tamper } from './support/walk';

const SIZES = [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 }
];

/** How many lines a piece of text takes on the page (its line boxes' distinct tops). */
async function lineCount(locator: Locator): Promise<number> {
	return locator.evaluate((element) => {
		const range = document.createRange();
		range.selectNodeContents(element);
		return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
	});
}

/** Opens every closed <details> on the page the way a person does, by its summary. */
async function openEveryDetails(page: Page): Promise<number> {
	const closed = page.locator('details:not([open]) > summary');
	let opened = 0;
	while ((await closed.count()) > 0) {
		await closed.first().click();
		opened++;
	}
	return opened;
}

const pageOverflow = (page: Page) =>
	page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** "1:59:58" in the countdown, as seconds. */
async function countdownSeconds(page: Page): Promise<number> {
	const text = await page.getByTestId('code-validity').locator('.left').innerText();
	const [h, m, s] = text.split(':').map(Number);
	return h! * 3600 + m! * 60 + s!;
}

async function moveSandboxClock(seconds: number): Promise<void> {
	const response = await fetch(`${ACCOUNTS_HOST}/sandbox/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_seconds: seconds })
	});
	expect(response.status).toBe(200);
}

for (const size of SIZES) {
	test.describe(`at ${size.width}×${size.height}`, () => {
		test.use({ viewport: size });

		test('6: the link and its Open button are on the first screen', async ({ page }) => {
			await open(page, '/');
			await expect(page.getByTestId('auth-link')).toBeInViewport();
			await expect(page.getByTestId('open-link')).toBeInViewport({ ratio: 1 });
			// The settings the link is built from are one click away.
			await page.getByRole('link', { name: 'Target and client' }).click();
			await expect(page.getByLabel('Client ID')).toBeInViewport();
		});

		test.describe('with the sandbox clock moved', () => {
			// From real time (another spec may have left the clock moved), and back to it for the next.
			test.beforeEach(resetSandbox);
			test.afterEach(resetSandbox);

			test('1: the code countdown runs on the sandbox clock, and says so', async ({ page }) => {
				// Three hours ahead: on the browser's clock the code would seem valid for five hours.
				await moveSandboxClock(3 * 3600);
				await authorise(page);
				const validity = page.getByTestId('code-validity');
				await expect(validity).toContainText('on the sandbox clock');
				const left = await countdownSeconds(page);
				expect(left).toBeLessThanOrEqual(2 * 3600);
				expect(left).toBeGreaterThan(2 * 3600 - 120);
				await expect(page.getByTestId('callback-result')).toContainText('on the sandbox clock');

				// The exchange agrees: the code is fresh on the clock that issued it.
				const annotation = await exchange(page);
				await expect(annotation).toHaveAttribute('data-outcome', 'success');
				const meta = page.getByTestId('exchange-token').locator('header .meta');
				await expect(meta).toContainText('on the sandbox clock');
				// Its start, shown on the sandbox clock, is three hours after real time (give or take a minute).
				const started = (await meta.locator('time').innerText()).slice(0, 8);
				const real = new Date().toISOString().slice(11, 19);
				const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
				expect((minutes(started) - minutes(real) + 1440) % 1440).toBeGreaterThanOrEqual(179);
				expect((minutes(started) - minutes(real) + 1440) % 1440).toBeLessThanOrEqual(181);
			});
		});

		test('2: every exchange has its arrows, each opens its exchange, and the saved run shows them too', async ({ page }) => {
			await authorise(page);
			await exchange(page);
			await tamper(page, 'Send again');
			await tamper(page, 'Wrong secret');
			await callMe(page);
			const arrows = page.getByRole('button', { name: /Show the exchange\.$/ });
			// A request and a response for each of the four exchanges.
			await expect(arrows).toHaveCount(8);

			// The response of the second token attempt opens the second token exchange.
			await arrows.nth(3).click();
			const second = page.getByTestId('exchange-token').nth(1);
			await expect(second).toBeFocused();
			await expect(second).toBeInViewport();
			await expect(arrows.nth(3)).toHaveAccessibleName(/400 token response.*failed/);

			// The me.json request opens the me.json exchange.
			await arrows.nth(6).click();
			await expect(page.getByTestId('exchange-me')).toBeFocused();

			if (size.width < 540) {
				// On a phone the diagram is also a list, whose Show buttons open the same exchanges.
				const show = page.getByRole('button', { name: /^Show exchange of step/ });
				await expect(show).toHaveCount(8);
				await show.nth(0).click();
				await expect(page.getByTestId('exchange-token').nth(0)).toBeFocused();
				await expect(page.getByTestId('exchange-token').nth(0)).toBeInViewport();
			}

			await page.getByTestId('run-permalink').click();
			await page.waitForURL(/\/runs\//);
			const diagram = page.getByTestId('run-diagram');
			const runArrows = diagram.getByRole('button', { name: /Show the exchange\.$/ });
			await expect(runArrows).toHaveCount(8);
			await runArrows.nth(7).click();
			await expect(page.getByTestId('exchange-me')).toBeFocused();
			await expect(page.getByTestId('exchange-me')).toBeInViewport();
			const { violations } = await new AxeBuilder({ page }).analyze();
			expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
		});

		test('3: nothing widens the page, tables keep their words whole, code scrolls inside its block', async ({ page }) => {
			await authorise(page);
			await exchange(page);
			await callMe(page);
			expect(await openEveryDetails(page)).toBeGreaterThanOrEqual(5); // parts, accounts, tamper, two curl blocks
			expect(await pageOverflow(page), 'the walk page, every block open').toBeLessThanOrEqual(0);

			// The curl command is wider than its block: the block scrolls, the page does not.
			const curl = page.getByTestId('exchange-token').locator('.curl pre');
			expect(await curl.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);

			// The link's parts and the fields, explained: names and headings on one line each.
			const parts = page.locator('#step-link table');
			expect(await lineCount(parts.getByRole('rowheader', { name: 'supergroup' }).locator('code'))).toBe(1);
			const fields = page.getByTestId('exchange-token').locator('table.fields');
			expect(await lineCount(fields.getByRole('columnheader', { name: 'Value' }))).toBe(1);
			expect(await lineCount(fields.getByRole('rowheader', { name: 'access_token' }).locator('code'))).toBe(1);
			expect(await lineCount(fields.getByRole('rowheader', { name: 'token_type' }).locator('code'))).toBe(1);

			// No button wraps its label.
			for (const button of await page.locator('main button:visible').all()) {
				expect(await lineCount(button), await button.innerText()).toBe(1);
			}

			await page.getByTestId('run-permalink').click();
			await page.waitForURL(/\/runs\//);
			await openEveryDetails(page);
			expect(await pageOverflow(page), 'the saved run').toBeLessThanOrEqual(0);
		});

		test('9: after Exchange and Call me.json, focus moves to the new result, which is announced', async ({ page }) => {
			await authorise(page);
			const announcement = page.getByTestId('walk-announcement');

			await exchange(page);
			const token = page.getByTestId('exchange-token').last();
			await expect(token).toBeFocused();
			await expect(token).toBeInViewport();
			await expect(announcement).toContainText(/New exchange, exchange the code .*: 200/);

			// A second attempt: focus goes to the newest, not the first.
			await tamper(page, 'Send again');
			await expect(page.getByTestId('exchange-token').nth(1)).toBeFocused();
			await expect(announcement).toContainText(/New exchange, tamper: send the same exchange again .*: 400/);

			await callMe(page);
			const me = page.getByTestId('exchange-me').last();
			await expect(me).toBeFocused();
			await expect(me).toBeInViewport();
			await expect(announcement).toContainText(/New exchange, .*: 200/);
			// The keyboard goes on from there: the next Tab is inside the new result.
			await page.keyboard.press('Tab');
			expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="exchange-me"]') !== null)).toBe(true);
		});
	});
}
