/**
 * Live flows (/live/{client}): a walk done in another tab appears as a flow without a reload, annotated; a cancel
 * followed at once by a new link is flagged as the cancel loop; a flow saves as a run whose permalink opens. No
 * secret, token or live code reaches the page or its event stream, and a visitor in another workspace can neither
 * open nor subscribe to this workspace's client.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_SECRET, EXPLORER, STUDENT, authorise, callMe, exchange, hydrated, open, resetSandbox, tamper } from './support/walk';
import { headlessFlow } from './support/headless-flow';


/** Opens the client's live page and waits until its event stream is connected. */
async function watch(page: Page, clientId = 'demo-client'): Promise<void> {
	await open(page, `/live/${clientId}`);
	await expect(page.getByTestId('live-status')).toHaveAttribute('data-connected', 'true');
}

/** What the event stream sends in `ms` milliseconds (from this machine: the default workspace's administrator). */
async function streamFor(ms: number, clientId = 'demo-client'): Promise<{ status: number; type: string | null; text: string }> {
	const controller = new AbortController();
	const response = await fetch(`${EXPLORER}/live/${clientId}/events`, { signal: controller.signal });
	let text = '';
	if (response.ok && response.body) {
		const reader = response.body.getReader();
		const decoder = new TextDecoder();
		const stop = setTimeout(() => controller.abort(), ms);
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				text += decoder.decode(value, { stream: true });
			}
		} catch {
			// aborted: the time is up
		}
		clearTimeout(stop);
	} else text = await response.text();
	return { status: response.status, type: response.headers.get('content-type'), text };
}

test.beforeEach(async () => {
	await resetSandbox();
});

test('a walk in another tab appears as a flow, annotated, without a reload; it saves as a run', async ({ context }) => {
	const live = await context.newPage();
	await watch(live);
	const flowsBefore = await live.getByTestId('live-flow').count();

	const walk = await context.newPage();
	await authorise(walk);
	await exchange(walk);
	await callMe(walk);

	const flow = live.getByTestId('live-flow').first();
	await expect(live.getByTestId('live-flow')).toHaveCount(flowsBefore + 1);
	await expect(flow.getByRole('heading', { level: 3 })).toHaveText('me.json 200');
	await flow.getByTestId('flow-toggle').click(); // one line per flow: its requests open on demand
	await expect(flow.getByTestId('timeline').locator('li[data-step="link"]')).toHaveCount(1);
	await expect(flow.getByTestId('timeline').locator('li[data-step="sign-in"]').first()).toBeVisible();
	await expect(flow.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
	await expect(flow.getByTestId('exchange-token').getByTestId('annotation')).toHaveAttribute('data-outcome', 'success');
	await expect(flow.getByTestId('exchange-me').getByTestId('annotation')).toHaveAttribute('data-outcome', 'success');

	await flow.getByTestId('save-flow').click();
	await live.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
	await hydrated(live);
	await expect(live.getByRole('heading', { level: 1 })).toHaveText('Live flow, demo-client: me.json 200');
	const permalink = live.url();
	const fresh = await (await context.browser()!.newContext()).newPage();
	await fresh.goto(permalink);
	await expect(fresh.getByRole('heading', { level: 1 })).toHaveText('Live flow, demo-client: me.json 200');
	await expect(fresh.getByTestId('exchange-me')).toBeVisible();
});

test('a cancel followed at once by a new link is flagged as the cancel loop', async ({ context }) => {
	const live = await context.newPage();
	await watch(live);
	const walk = await context.newPage();
	await authorise(walk, STUDENT, 'cancel');
	await walk.getByTestId('open-link').click();
	await walk.waitForURL((url) => url.origin !== EXPLORER);

	const loop = live.getByTestId('live-flow').filter({ has: live.getByTestId('follows-cancel') });
	// The feed pushes within a second; a loaded machine (CI's two cores) may take longer.
	await expect(loop).toHaveCount(1, { timeout: 15_000 });
	await expect(loop.getByTestId('flag-cancel-loop')).toContainText('starts the sign-in again');
	// Nothing in this flow shows passport-oauth2 (the explorer's own walk): the advice does not name it.
	await expect(loop.getByTestId('flag-cancel-loop')).not.toContainText('passport-oauth2');
	await expect(live.getByTestId('live-flow').filter({ has: live.getByRole('heading', { name: 'cancelled', exact: true }) })).toHaveCount(1);
});

test('faults across requests are flagged as they happen: a code sent again, a changed redirect_uri, a token used after deletion', async ({ context }) => {
	const live = await context.newPage();
	await watch(live);
	const walk = await context.newPage();
	await authorise(walk, 'deleted@example.com');
	await exchange(walk);
	await tamper(walk, 'Send again');
	await tamper(walk, 'Change redirect_uri');
	await callMe(walk);
	await callMe(walk);

	const flow = live.getByTestId('live-flow').first();
	await expect(flow.getByTestId('flag-token-used-after-deletion')).toHaveCount(1);
	await flow.getByTestId('flow-toggle').click();
	await expect(flow.getByTestId('flag-code-reused').first()).toBeVisible();
	await expect(flow.getByTestId('flag-redirect-uri-differs')).toBeVisible();
	await expect(flow.getByTestId('flag-deletion-requested')).toBeVisible();
	await expect(flow.getByTestId('flag-token-used-after-deletion')).toBeVisible();
	await expect(flow.getByTestId('exchange-me').last().getByTestId('annotation')).toHaveAttribute('data-row', 'me-not-found');
});

test('no secret, token or live code reaches the live page or its event stream', async ({ page }) => {
	const streaming = streamFor(4000);
	const { code, accessToken, refreshToken } = await headlessFlow();
	const stream = await streaming;
	expect(stream.status).toBe(200);
	expect(stream.type).toMatch(/^text\/event-stream/);
	expect(stream.text).toContain('event: flow');
	expect(stream.text).toContain('me.json 200');

	await watch(page);
	await expect(page.getByTestId('live-flow').filter({ hasText: 'me.json 200' })).toHaveCount(1);
	const html = await page.content();
	for (const value of [code, accessToken, refreshToken, DEMO_SECRET]) {
		expect(stream.text).not.toContain(value);
		expect(html).not.toContain(value);
	}
});

test('a visitor of another workspace can neither open nor subscribe to this workspace\'s client', async ({ browser }) => {
	const visitor = await (await browser.newContext()).newPage();
	await open(visitor, '/');
	await visitor.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
	const id = (await visitor.getByTestId('workspace-id').textContent())!;

	await open(visitor, '/live');
	await expect(visitor.getByTestId('live-clients')).toContainText(`demo-client~${id}`);
	await expect(visitor.getByTestId('live-clients')).not.toContainText(/demo-client(?!~)/);
	const page = await visitor.goto('/live/demo-client');
	expect(page?.status()).toBe(404);
	const events = await visitor.request.get('/live/demo-client/events');
	expect(events.status()).toBe(404);
	expect(events.headers()['content-type']).not.toMatch(/event-stream/);
	// Their own copy of the client is theirs to watch.
	await watch(visitor, encodeURIComponent(`demo-client~${id}`));
});
