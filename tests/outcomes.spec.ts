/**
 * Outcomes on demand: a rule set through the control API decides how the explorer's own walk ends, once (the
 * consent page says a rule is active); the explorer's route /live/{client}/outcomes sets, lists and clears rules
 * for its session's workspace only; the sandbox panel lists pending rules; the live page of a client sets one with a
 * click and shows it used.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, AUTH_HOST, DEMO_PASSWORD, EXPLORER, STUDENT, authorise, callMe, exchange, open, resetSandbox } from './support/walk';

async function setRule(clientId: string, outcome: string): Promise<void> {
	const response = await fetch(`${ACCOUNTS_HOST}/sandbox/outcomes`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: clientId, outcome })
	});
	expect(response.status, await response.clone().text()).toBe(200);
}

async function rulesOf(clientId: string): Promise<{ pending: { outcome: string }[]; used: { outcome: string; request: string }[] }> {
	return (await fetch(`${ACCOUNTS_HOST}/sandbox/outcomes?client_id=${clientId}`)).json();
}

test.beforeEach(resetSandbox);
test.afterAll(resetSandbox);

test('rules set through the control API decide the walk\'s next outcomes, once each', async ({ page }) => {
	await setRule('demo-client', 'token-invalid-grant');
	await setRule('demo-client', 'me-404');
	await authorise(page);
	const refused = await exchange(page);
	await expect(refused).toHaveAttribute('data-row', 'token-invalid-grant');
	// The code was not consumed: the same code now exchanges.
	await expect(await exchange(page)).toHaveAttribute('data-outcome', 'success');
	await expect(await callMe(page)).toHaveAttribute('data-row', 'me-not-found');
	await expect(await callMe(page)).toHaveAttribute('data-outcome', 'success');

	const { pending, used } = await rulesOf('demo-client');
	expect(pending).toEqual([]);
	expect(used.map((rule) => [rule.outcome, rule.request])).toEqual([
		['me-404', 'GET /api/v3/me.json'],
		['token-invalid-grant', 'POST /oauth/token']
	]);
});

test('authorise-cancel: the consent page says a rule is active, and Authorise comes back as a cancel', async ({ page }) => {
	await setRule('demo-client', 'authorise-cancel');
	await open(page, '/');
	await page.getByTestId('open-link').click();
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	await page.getByLabel('Email').fill(STUDENT);
	await page.getByLabel('Password').fill(DEMO_PASSWORD);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.locator('[data-outcome-rule="authorise-cancel"]')).toBeVisible();
	await page.getByRole('button', { name: 'Authorise' }).click();
	await page.waitForURL((url) => url.origin === EXPLORER);
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'cancel');

	// Used once: the next walk gets its code, and its consent page shows no notice.
	await open(page, '/');
	await page.getByTestId('open-link').click();
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	await expect(page.locator('main[data-page="consent"]')).toBeVisible();
	await expect(page.locator('[data-outcome-rule]')).toHaveCount(0);
	await page.getByRole('button', { name: 'Authorise' }).click();
	await page.waitForURL((url) => url.origin === EXPLORER);
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
});

test('the explorer\'s route sets, lists and clears rules of its workspace\'s clients only; the panel lists them', async ({ page, request }) => {
	const path = '/live/demo-client/outcomes';
	const set = await request.post(path, { data: { outcome: 'me-empty-verifications' } });
	expect(set.status()).toBe(200);
	const { rules } = await set.json();
	expect(rules).toMatchObject({ clientId: 'demo-client', pending: [{ outcome: 'me-empty-verifications', stage: 'me' }], used: [], readOnly: false });
	expect(JSON.stringify(rules)).not.toContain('demo-secret');
	expect((await rulesOf('demo-client')).pending).toEqual([expect.objectContaining({ outcome: 'me-empty-verifications' })]);

	await open(page, '/sandbox');
	await expect(page.getByTestId('clients-table').getByRole('row', { name: /demo-client/ }).first().getByTestId('client-outcomes')).toContainText(
		'me-empty-verifications'
	);

	const bad = await request.post(path, { data: { outcome: 'me-500' } });
	expect(bad.status()).toBe(400);
	expect((await bad.json()).message).toContain('me-group-key');
	expect((await request.post('/live/nobody/outcomes', { data: { outcome: 'me-401' } })).status()).toBe(404);
	const crossSite = await request.post(path, { data: { clear: true }, headers: { origin: 'https://evil.example' } });
	expect(crossSite.status()).toBe(403);
	expect((await rulesOf('demo-client')).pending).toHaveLength(1);

	// A GET only reads.
	const listed = await request.get(path);
	expect((await listed.json()).rules.pending).toHaveLength(1);
	expect((await rulesOf('demo-client')).pending).toHaveLength(1);

	const cleared = await request.post(path, { data: { clear: true } });
	expect((await cleared.json()).rules.pending).toEqual([]);
});

test('a session in its own workspace reaches its own copy of the client, not the default one', async ({ page }) => {
	await open(page, '/');
	await page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
	await expect(page.getByTestId('workspace-id')).toBeVisible();
	const id = (await page.getByTestId('workspace-id').textContent())!;
	const post = (client: string, data: unknown) =>
		page.evaluate(
			async ([url, body]) => {
				const response = await fetch(url as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
				return { status: response.status, body: await response.json() };
			},
			[`/live/${encodeURIComponent(client)}/outcomes`, data]
		);
	const own = await post(`demo-client~${id}`, { outcome: 'me-403' });
	expect(own.status).toBe(200);
	expect((await post('demo-client', { outcome: 'me-403' })).status).toBe(404);
	expect((await rulesOf('demo-client')).pending).toEqual([]);

	// The walk, in the workspace, meets its rule.
	await authorise(page);
	await exchange(page);
	await expect(await callMe(page)).toHaveAttribute('data-row', 'me-forbidden');
});

test('the live page sets a rule with a click, and shows it used once the walk met it', async ({ page, context }) => {
	await open(page, '/live/demo-client');
	await page.getByTestId('outcome-rules').locator('button[data-outcome="me-401"]').click();
	await expect(page.getByTestId('outcome-pending-me')).toHaveAttribute('data-outcome', 'me-401');
	expect((await rulesOf('demo-client')).pending).toEqual([expect.objectContaining({ outcome: 'me-401' })]);

	const walk = await context.newPage();
	await authorise(walk);
	await exchange(walk);
	await expect(await callMe(walk)).toHaveAttribute('data-row', 'me-unauthorized');

	await page.getByTestId('outcome-refresh').click();
	await expect(page.getByTestId('outcome-pending-me')).toHaveCount(0);
	await expect(page.getByTestId('outcome-used')).toContainText('me-401');
});
