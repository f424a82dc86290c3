/**
 * Issue 17, points 4 and 5: evidence joined to a saved run (a curl command of the token exchange, sent from the
 * run for its answer, the sandbox's log of the client in one click) becomes one timeline of front and back
 * channel that the cross-request checks read whole; the verdict leads the run page and the Markdown report; only
 * the run's owner adds evidence; no secret reaches the page or the export.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, DEMO_SECRET, EXPLORER, authorise, open } from './support/walk';

/** The link and the grant code of the run, from its Markdown report (the owner sees the live code). */
async function linkAndCode(page: Page, permalink: string): Promise<{ link: URL; code: string }> {
	const markdown = await (await page.request.get(`${permalink}/export/markdown`)).text();
	const link = /- Authorisation link: `([^`]+)`/.exec(markdown)?.[1];
	const code = /- Redirect back: `[^`]*[?&]code=([^&`]+)/.exec(markdown)?.[1];
	expect(link, 'the report names the link').toBeTruthy();
	expect(code, 'the report names the code').toBeTruthy();
	return { link: new URL(link!), code: decodeURIComponent(code!) };
}

const verdictFirst = (page: Page) =>
	page.evaluate(() => {
		const verdict = document.querySelector('[data-testid="verdict"]');
		const others = [...document.querySelectorAll('main section, main .card')].filter((s) => s !== verdict);
		return verdict !== null && others.every((s) => (verdict.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
	});

test('evidence joins the run: a curl of the token exchange, sent from the run, then the sandbox log; the verdict leads', async ({ page, browser }) => {
	await authorise(page);
	const permalink = await page.getByTestId('run-permalink').getAttribute('href');
	expect(permalink).toMatch(/^\/runs\/[\w-]+$/);
	const { link, code } = await linkAndCode(page, permalink!);
	const clientId = link.searchParams.get('client_id')!;
	const redirectUri = link.searchParams.get('redirect_uri')!;

	await open(page, permalink!);
	// A code and nothing after it: never "succeeded" for an exchange nobody saw.
	await expect(page.getByTestId('verdict')).toHaveAttribute('data-severity', 'warning');
	await expect(page.getByTestId('verdict-what')).toContainText('the token exchange and the me.json call were not observed');
	expect(await verdictFirst(page)).toBe(true);

	// The integrator's server sent another redirect_uri than the link's: only the two channels together show it.
	const curl = `curl -X POST '${ACCOUNTS_HOST}/oauth/token' -H 'User-Agent: shop-server/1.0' -d grant_type=authorization_code -d code=${code} -d client_id=${clientId} -d client_secret=${DEMO_SECRET} --data-urlencode redirect_uri=${redirectUri}/extra`;
	await page.getByTestId('evidence-kind').selectOption('curl');
	await page.getByTestId('evidence-text').fill(curl);
	await page.getByTestId('evidence-add').click();
	await expect(page.getByTestId('evidence-message')).toContainText('added 1 exchange');
	const token = page.locator('[data-testid^="timeline-"][data-step="token"]');
	await expect(token).toHaveCount(1);
	await expect(token).toHaveAttribute('data-channel', 'back');
	await expect(token).toContainText('from a pasted curl command, matched by grant code');
	await expect(token).toContainText('no answer yet');
	await expect(page.getByTestId('flag-redirect-uri-differs')).toBeVisible();
	await expect(page.getByTestId('verdict')).toHaveAttribute('data-severity', 'error');
	await expect(page.getByTestId('verdict-what')).toContainText('token exchange (exchange 1)');

	// Sent from the run (the sandbox's client secret is put back on the server): the sandbox answers.
	await token.getByRole('button', { name: 'Send' }).click();
	await expect(page.getByTestId('evidence-message')).toContainText('added 0 exchanges, 1 answered');
	await expect(token).toContainText('400');
	await expect(token).toContainText('from a request sent from the run');
	await expect(page.getByTestId('verdict-what')).toContainText('failed: 400 invalid_grant');
	await expect(page.getByTestId('verdict-row')).toHaveAttribute('href', '/reference#token-invalid-grant');
	await expect(page.getByTestId('verdict-cause')).toContainText('redirect_uri');

	// The sandbox's log of the client, one click: its link joins the front channel; the token exchange is already there.
	await page.getByTestId('evidence-sandbox-log').click();
	await expect(page.getByTestId('evidence-message')).toContainText('already in the run');
	const link_ = page.locator('[data-testid^="timeline-"][data-step="link"]');
	await expect(link_.first()).toContainText("from the sandbox's log, placed by time");
	await expect(link_.first()).toHaveAttribute('data-channel', 'front');
	await expect(page.locator('[data-testid^="timeline-"][data-step="token"]')).toHaveCount(1);

	const html = await page.content();
	expect(html).not.toContain(DEMO_SECRET);
	expect(await verdictFirst(page)).toBe(true);

	const markdown = await (await page.request.get(`${permalink}/export/markdown`)).text();
	const lines = markdown.split('\n');
	expect(lines[0]).toMatch(/^# /);
	expect(lines[2]).toMatch(/^\*\*What went wrong:\*\* The token exchange \(exchange \d\) failed: 400 invalid_grant/);
	// The verdict ends with the permalink, which the report gives once.
	const verdict = markdown.slice(0, markdown.indexOf('- Exports:'));
	expect(verdict).toContain(`${EXPLORER}/reference#token-invalid-grant`);
	expect(verdict).toContain(`- Permalink: ${EXPLORER}${permalink}\n`);
	expect(markdown).toContain('back channel, added from a request sent from the run');
	expect(markdown).not.toContain(DEMO_SECRET);

	// Someone else, with the permalink: reads the run, may not add to it.
	const other = await browser.newContext();
	const otherPage = await other.newPage();
	await open(otherPage, permalink!);
	await expect(otherPage.getByTestId('verdict')).toBeVisible();
	await expect(otherPage.getByTestId('add-evidence')).toHaveCount(0);
	const refused = await otherPage.request.post(`${permalink}/evidence`, { data: { kind: 'curl', text: curl } });
	expect(refused.status()).toBe(403);
	expect((await refused.json()).message).toContain('Only the person who saved this run');
	await other.close();
});

test('a pasted curl sent at once is added with its answer, a server-side HAR joins by time, and an unknown kind is a clear 400', async ({ page }) => {
	await authorise(page);
	const permalink = (await page.getByTestId('run-permalink').getAttribute('href'))!;
	const { link, code } = await linkAndCode(page, permalink);
	await open(page, permalink);
	const curl = `curl -X POST '${ACCOUNTS_HOST}/oauth/token' -H 'User-Agent: shop-server/1.0' -d grant_type=authorization_code -d code=${code} -d client_id=${link.searchParams.get('client_id')} -d client_secret=${DEMO_SECRET} --data-urlencode redirect_uri=${link.searchParams.get('redirect_uri')}`;
	await page.getByTestId('evidence-text').fill(curl);
	await page.getByTestId('evidence-send-now').check();
	await page.getByTestId('evidence-add').click();
	await expect(page.getByTestId('evidence-message')).toContainText('added 1 exchange');
	const token = page.locator('[data-testid^="timeline-"][data-step="token"]');
	await expect(token).toContainText('200');
	// The exchange went through; me.json was never read, and the verdict says so rather than "succeeded".
	await expect(page.getByTestId('verdict')).toHaveAttribute('data-severity', 'warning');
	await expect(page.getByTestId('verdict-what')).toContainText('the me.json call was not observed');
	const html = await page.content();
	expect(html).not.toContain(DEMO_SECRET);
	// A server-side HAR, uploaded: its exchanges join by time, labelled with where they came from.
	await page.getByTestId('evidence-har-file').setInputFiles('src/lib/features/runs/pure/har/fixtures/wrong-secret.har.json');
	await page.getByTestId('evidence-har-chosen').getByRole('button', { name: 'Add wrong-secret.har.json' }).click();
	await expect(page.getByTestId('evidence-message')).toContainText(/added \d+ exchange/);
	await expect(page.locator('[data-testid^="timeline-"]', { hasText: 'from a HAR' }).first()).toBeVisible();
	expect(await page.content()).not.toContain('Sh0p-Secret-4f8a9b2c1d');
	const bad = await page.request.post(`${permalink}/evidence`, { data: { kind: 'fax' } });
	expect(bad.status()).toBe(400);
	expect((await bad.json()).message).toMatch(/^No evidence added/);
});

test("the sandbox's log of a workspace the session has left is refused; the run page with its evidence panel is accessible", async ({ page }) => {
	await open(page, '/');
	await page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
	await expect(page.getByTestId('workspace-id')).toBeVisible();
	await authorise(page);
	const permalink = (await page.getByTestId('run-permalink').getAttribute('href'))!;

	await open(page, permalink);
	await page.getByTestId('evidence-sandbox-log').click();
	await expect(page.getByTestId('evidence-message')).toContainText('added 1 exchange');
	const { violations } = await new AxeBuilder({ page }).analyze();
	expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

	await open(page, '/');
	await page.getByRole('button', { name: 'Back to the default workspace' }).click();
	await expect(page.getByTestId('workspace-id')).toHaveCount(0);
	await open(page, permalink);
	await page.getByTestId('evidence-sandbox-log').click();
	await expect(page.getByTestId('evidence-message')).toContainText('You may not read the log of the sandbox workspace');
});
