/**
 * Issue 26.7: a walk shows only the clock of a workspace its session may read. A workspace's clock is set far in
 * the past; a visitor who is not its member names the workspace's private client in the walk and brings a code
 * back: neither the walk's view, its callback's time nor its saved run shows that clock. Its member's walk does.
 */
import { expect, test } from '@playwright/test';
import { ExplorerSession } from './support/explorer';
import { ACCOUNTS_HOST, EXPLORER } from './support/ports';

const PRIVATE_DAY = '2001-02-03';

interface Workspace {
	id: string;
	key: string;
}

async function control(method: string, path: string, key: string | undefined, body?: unknown): Promise<unknown> {
	const response = await fetch(`${ACCOUNTS_HOST}${path}`, {
		method,
		headers: { 'content-type': 'application/json', ...(key ? { 'x-sandbox-workspace-key': key } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
	return text ? JSON.parse(text) : undefined;
}

let workspace: Workspace;
test.beforeAll(async () => {
	workspace = (await control('POST', '/sandbox/workspaces', undefined, { fixtures: 'demo', name: 'private clock' })) as Workspace;
	await control('POST', '/sandbox/clock', workspace.key, { set: `${PRIVATE_DAY}T04:05:06Z` });
});
test.afterAll(async () => {
	await control('DELETE', `/sandbox/workspaces/${workspace.id}`, workspace.key);
});

/** The workspace's copy of the demo client (fixtures.ts `fixtureClientId`). */
const privateClient = () => `demo-client~${workspace.id}`;

/** Names the private client in the walk, brings a code back, and answers everything the session was shown. */
async function walkWithPrivateClient(session: ExplorerSession): Promise<{ texts: string[]; sandboxNow: string | null }> {
	const view = (await session.walk('view')).body as unknown as { view: { client: Record<string, unknown> } };
	const { secret: _, ...client } = view.view.client;
	const saved = await session.walk('client', { ...client, target: { kind: 'sandbox' }, clientId: privateClient() });
	expect(saved.status, saved.text).toBe(200);
	const link = `http://localhost/sso/student?response_type=code&client_id=${encodeURIComponent(privateClient())}&redirect_uri=x&country=uk`;
	const started = await session.walk('start', { link });
	expect(started.status, started.text).toBe(200);
	expect(await session.callback('code=x')).toBe(303);
	const whole = await session.walk('view');
	const runId = (whole.body as unknown as { view: { runId: string } }).view.runId;
	const run = await session.request(`/runs/${runId}`);
	const texts = [saved.text, started.text, whole.text, await run.text()];
	return { texts, sandboxNow: (whole.body as unknown as { view: { sandboxNow: string | null } }).view.sandboxNow };
}

test("a non-member's walk naming another workspace's private client shows none of that workspace's clock", async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	const { texts, sandboxNow } = await walkWithPrivateClient(session);
	for (const text of texts) expect(text).not.toContain(PRIVATE_DAY);
	expect(Math.abs(Date.parse(sandboxNow!) - Date.now()), 'the default workspace’s clock, which follows real time').toBeLessThan(60_000);
});

test("the workspace's member walks its private client on the workspace's clock", async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	const joined = await session.request(`/workspaces/${workspace.id}`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: EXPLORER },
		body: new URLSearchParams({ key: workspace.key }).toString()
	});
	expect(joined.status).toBe(303);
	const { sandboxNow } = await walkWithPrivateClient(session);
	expect(sandboxNow?.slice(0, 10)).toBe(PRIVATE_DAY);
});
