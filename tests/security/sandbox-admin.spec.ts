/**
 * Every door to sandbox administration follows one switch and one token. SANDBOX_CONTROL_API=off closes the
 * control API and the explorer's /sandbox page, its actions and /sandbox/log.json alike. With SANDBOX_ADMIN_TOKEN
 * set, nothing is shown or changed without the token: the control API wants it in a header, the panel asks for it
 * once per session; the explorer's own scenarios still run (they send it server-side). Each case starts an
 * explorer of its own.
 */
import { expect, test } from '@playwright/test';
import { ExplorerSession } from './support/explorer';
import { EXTRA_EXPLORER_PORTS } from './support/ports';
import { explorerPerTest, readSandboxDatabase, spawnExplorer } from './support/servers';

const PORT = EXTRA_EXPLORER_PORTS.sandboxAdmin;
const EXPLORER = `http://localhost:${PORT}`;
const ACCOUNTS = `http://localhost:${PORT + 2}`;
const TOKEN = 'shared-deployment-admin-token-42';
const DEMO_SECRET = 'demo-secret-change-me';

const spawned = explorerPerTest('sfe-admin-');

async function start(env: Record<string, string>): Promise<void> {
	spawned.server = spawnExplorer({ port: PORT, dataDir: spawned.dataDir, env });
	await spawned.server.ready;
}

/** A form action as the panel's page posts it (same origin, so only the admin rules can refuse it). */
function action(session: ExplorerSession, name: string, fields: Record<string, string>) {
	return session.request(`/sandbox?/${name}`, {
		method: 'POST',
		headers: { origin: EXPLORER, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString()
	});
}

const HIJACK = {
	client_id: 'demo-client',
	client_secret: 'attacker-secret',
	redirect_uris: `${EXPLORER}/callback\nhttps://attacker.example/steal`,
	countries: 'uk',
	verification_key: 'supergroup'
};

/** The demo client's secret and redirect URIs, and the clock offset, as the sandbox's database holds them. */
function sandboxRecord() {
	return readSandboxDatabase(spawned.dataDir, (db) => ({
		demo: db.prepare("SELECT client_secret, redirect_uris FROM clients WHERE client_id = 'demo-client'").get(),
		clock: db.prepare("SELECT clock_offset_ms FROM workspaces WHERE id = 'default'").get()
	}));
}

/** Every attempt an unauthorised visitor could make on the panel, with its status. */
async function tryEveryDoor(session: ExplorerSession): Promise<Record<string, number>> {
	const statuses: Record<string, number> = {};
	const record = async (name: string, response: Promise<Response>) => {
		const r = await response;
		await r.text();
		statuses[name] = r.status;
	};
	await record('saveClient', action(session, 'saveClient', HIJACK));
	await record('advanceBy', action(session, 'advanceBy', { seconds: '86400' }));
	await record('reset', action(session, 'reset', { confirm: 'on' }));
	await record('log.json', session.request('/sandbox/log.json'));
	await record('control clients', fetch(`${ACCOUNTS}/sandbox/clients`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ ...HIJACK, redirect_uris: HIJACK.redirect_uris.split('\n'), countries: ['uk'] })
	}));
	await record('control state', fetch(`${ACCOUNTS}/sandbox/state`));
	return statuses;
}

test('SANDBOX_CONTROL_API=off closes the panel page, its actions, log.json and the control API', async () => {
	await start({ SANDBOX_CONTROL_API: 'off' });
	const before = sandboxRecord();
	const visitor = await new ExplorerSession(EXPLORER).open();
	const page = await visitor.request('/sandbox');
	expect(page.status).toBe(404);
	expect(await page.text()).toContain('SANDBOX_CONTROL_API=off');
	const statuses = await tryEveryDoor(visitor);
	for (const [door, status] of Object.entries(statuses)) expect(status, door).toBe(404);
	expect(sandboxRecord()).toEqual(before);
	// The sandbox itself still serves the interface.
	expect((await fetch(`${ACCOUNTS}/health`)).status).toBe(200);
});

test('SANDBOX_ADMIN_TOKEN: nothing is shown or changed without it; the panel asks once; scenarios still run', async ({ browser }) => {
	await start({ SANDBOX_ADMIN_TOKEN: TOKEN });
	const before = sandboxRecord();
	expect(before.demo).toMatchObject({ client_secret: DEMO_SECRET });

	const visitor = await new ExplorerSession(EXPLORER).open();
	const page = await visitor.request('/sandbox');
	expect(page.status).toBe(200);
	const html = await page.text();
	expect(html).toContain('data-testid="admin-login"');
	expect(html).not.toContain('clients-table');
	expect(html).not.toContain('student@example.com');
	const statuses = await tryEveryDoor(visitor);
	expect(statuses).toEqual({ saveClient: 403, advanceBy: 403, reset: 403, 'log.json': 403, 'control clients': 401, 'control state': 401 });
	const wrong = await (await action(visitor, 'login', { token: `${TOKEN}-not` })).text();
	expect(wrong).toContain('That is not the admin token');
	expect(wrong).not.toContain('clients-table');
	expect((await action(visitor, 'saveClient', HIJACK)).status).toBe(403);
	expect(sandboxRecord()).toEqual(before);

	// The control API with the token, in either header.
	expect((await fetch(`${ACCOUNTS}/sandbox/state`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
	expect((await fetch(`${ACCOUNTS}/sandbox/state`, { headers: { 'x-sandbox-admin-token': TOKEN } })).status).toBe(200);

	// The panel in a browser: the token once, then the panel as before.
	const context = await browser.newContext({ baseURL: EXPLORER });
	const tab = await context.newPage();
	await tab.goto('/sandbox');
	await tab.getByLabel('Admin token').fill('wrong-token-wrong-token');
	await tab.getByRole('button', { name: 'Continue' }).click();
	await expect(tab.getByRole('alert')).toContainText('not the admin token');
	await tab.getByLabel('Admin token').fill(TOKEN);
	await tab.getByRole('button', { name: 'Continue' }).click();
	await expect(tab.getByTestId('clients-table')).toBeVisible();
	expect((await tab.request.get('/sandbox/log.json')).status()).toBe(200);
	await tab.getByRole('button', { name: 'Advance 2 hours' }).click();
	await expect.poll(() => (sandboxRecord().clock as { clock_offset_ms: number }).clock_offset_ms).toBeGreaterThan(0);
	await context.close();

	// A scenario sets up its client, user and clock through the control API, with the token, server-side.
	const scenario = await visitor.request('/api/scenarios/success', { method: 'POST', headers: { origin: EXPLORER } });
	const lines = (await scenario.text()).trim().split('\n').map((line) => JSON.parse(line) as { type: string; passed?: boolean });
	expect(lines.at(-1)).toMatchObject({ type: 'result', passed: true });
	const streamed = lines.map((line) => JSON.stringify(line)).join('\n');
	expect(streamed, 'the admin token never reaches the browser').not.toContain(TOKEN);
});
