/**
 * Workspaces in the explorer: two people each make their own sandbox workspace in one click, move its clock, add
 * a user and walk the flow, and neither sees the other's clock, users or log, nor changes the default workspace. A
 * colleague joins one through its share link (a GET of which changes nothing); the key is in no response but its
 * member's own pages.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, EXPLORER, authorise, callMe, doLesson, exchange, open } from './support/walk';

interface Person {
	context: BrowserContext;
	page: Page;
	/** Every explorer response this person's browser received, as text. */
	received: { url: string; text: string }[];
}

async function person(browser: Browser): Promise<Person> {
	const context = await browser.newContext();
	const received: Person['received'] = [];
	context.on('response', (response) => {
		if (!response.url().startsWith(EXPLORER)) return;
		void response.text().then(
			(text) => received.push({ url: response.url(), text: `${JSON.stringify(response.headers())}\n${text}` }),
			() => undefined
		);
	});
	return { context, page: await context.newPage(), received };
}

/** One click on the walk page; answers the workspace's id and its share link. */
async function ownWorkspace({ page }: Person): Promise<{ id: string; shareUrl: string; key: string }> {
	await open(page, '/');
	await page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
	await expect(page.getByTestId('workspace-id')).toBeVisible();
	const id = (await page.getByTestId('workspace-id').textContent())!;
	const shareUrl = await page.getByTestId('workspace-share-link').inputValue();
	const key = new URLSearchParams(new URL(shareUrl).hash.slice(1)).get('key')!;
	expect(key.length).toBeGreaterThan(20);
	return { id, shareUrl, key };
}

async function setClock(page: Page, date: string, time: string) {
	await open(page, '/sandbox');
	await page.getByLabel('Date', { exact: true }).fill(date);
	await page.getByLabel('Time', { exact: true }).fill(time);
	await page.getByRole('button', { name: 'Set the clock' }).click();
	await expect(page.getByTestId('sandbox-today')).toHaveText(date);
}

async function addUser(page: Page, login: string) {
	await open(page, '/sandbox');
	const form = page.getByTestId('user-form');
	await form.getByLabel('Login').fill(login);
	await form.getByLabel('Password').fill('secret-pass');
	await form.getByRole('button', { name: 'Create user' }).click();
	await expect(page.getByTestId('users-table').getByRole('row', { name: new RegExp(login.replace('.', '\\.')) })).toBeVisible();
}

async function defaultState(): Promise<{ today: string; users: { login: string }[]; clients: { client_id: string }[] }> {
	return (await fetch(`${ACCOUNTS_HOST}/sandbox/state`)).json();
}

const realToday = () => new Date().toISOString().slice(0, 10);

test('two people, each in a workspace of their own, never see each other; the default workspace is untouched', async ({ browser }) => {
	const a = await person(browser);
	const b = await person(browser);
	const workspaceA = await ownWorkspace(a);
	const workspaceB = await ownWorkspace(b);
	expect(workspaceA.id).not.toBe(workspaceB.id);

	await setClock(a.page, '2001-02-03', '04:05');
	await addUser(a.page, 'alice-only@example.com');
	await setClock(b.page, '2040-06-07', '08:09');
	await addUser(b.page, 'bob-only@example.com');

	// Both walk the flow, each with their workspace's copy of the demo client.
	for (const { page } of [a, b]) {
		await authorise(page);
		await exchange(page);
		await expect(await callMe(page)).toBeVisible();
		await expect(page.getByTestId('sbid-number')).toHaveText('STU0001');
	}

	const panelOf = async ({ page }: Person) => {
		await open(page, '/sandbox');
		return page.locator('.sandbox-panel').innerText();
	};
	const panelA = await panelOf(a);
	await expect(a.page.getByTestId('sandbox-today')).toHaveText('2001-02-03');
	expect(panelA).toContain('alice-only@example.com');
	expect(panelA).not.toContain('bob-only@example.com');
	expect(panelA).toContain(`demo-client~${workspaceA.id}`);
	expect(panelA).not.toContain(workspaceB.id);
	const panelB = await panelOf(b);
	await expect(b.page.getByTestId('sandbox-today')).toHaveText('2040-06-07');
	expect(panelB).toContain('bob-only@example.com');
	expect(panelB).not.toContain('alice-only@example.com');
	expect(panelB).not.toContain(workspaceA.id);
	// Each log holds its own walk only.
	const logA = (await (await a.page.request.get('/sandbox/log.json')).json()) as { entries: { target: string }[] };
	expect(logA.entries.some((e) => e.target.includes(encodeURIComponent(`demo-client~${workspaceA.id}`)) || e.target.includes(`demo-client~${workspaceA.id}`))).toBe(true);
	expect(JSON.stringify(logA)).not.toContain(workspaceB.id);

	const state = await defaultState();
	expect(state.today).toBe(realToday());
	expect(state.users.map((u) => u.login)).not.toContain('alice-only@example.com');
	expect(state.users.map((u) => u.login)).not.toContain('bob-only@example.com');

	// Back to real time on its own: the user stays.
	await open(a.page, '/sandbox');
	await a.page.getByRole('button', { name: 'Reset to real time' }).click();
	await expect(a.page.getByTestId('sandbox-today')).toHaveText(realToday());
	await expect(a.page.getByTestId('users-table')).toContainText('alice-only@example.com');

	// Neither's key reached the other, and a key reached its member only in their own pages' share box.
	for (const [member, other, key] of [[a, b, workspaceA.key], [b, a, workspaceB.key]] as const) {
		expect(other.received.filter((r) => r.text.includes(key)).map((r) => r.url)).toEqual([]);
		const carriers = member.received.filter((r) => r.text.includes(key)).map((r) => new URL(r.url).pathname);
		expect(carriers.length).toBeGreaterThan(0);
		for (const path of carriers) expect(['/', '/sandbox', '/__data.json', '/sandbox/__data.json']).toContain(path);
	}

	// Back to the default workspace: the walk uses the shipped demo client again.
	await a.page.getByRole('button', { name: 'Back to the default workspace' }).click();
	await expect(a.page.getByTestId('workspace-id')).toHaveCount(0);
	await expect(a.page.getByTestId('users-table')).not.toContainText('alice-only@example.com');
	await a.context.close();
	await b.context.close();
});

test('a colleague joins through the share link; a plain GET of it changes nothing', async ({ browser }) => {
	const a = await person(browser);
	const c = await person(browser);
	const { id, shareUrl, key } = await ownWorkspace(a);
	await addUser(a.page, 'shared-user@example.com');

	await c.page.goto(shareUrl);
	await expect(c.page.getByRole('heading', { name: `Join sandbox workspace ${id}` })).toBeVisible();
	await expect(c.page.getByLabel('Workspace key')).toHaveValue(key);
	expect(c.page.url()).not.toContain('#');
	// Only looking: still in the default workspace.
	await open(c.page, '/sandbox');
	await expect(c.page.getByTestId('workspace-id')).toHaveCount(0);
	await expect(c.page.getByTestId('users-table')).not.toContainText('shared-user@example.com');

	// A wrong key joins nothing.
	await c.page.goto(`/workspaces/${id}`);
	await c.page.getByLabel('Workspace key').fill(`${id}.not-the-key`);
	await c.page.getByRole('button', { name: 'Join workspace' }).click();
	await expect(c.page.getByRole('alert')).toContainText('does not open this workspace');

	await c.page.goto(shareUrl);
	await expect(c.page.getByLabel('Workspace key')).toHaveValue(key);
	await c.page.getByRole('button', { name: 'Join workspace' }).click();
	await expect(c.page.getByTestId('workspace-id')).toHaveText(id);
	await open(c.page, '/sandbox');
	await expect(c.page.getByTestId('users-table')).toContainText('shared-user@example.com');
	// The lesson walks the joined workspace too: its requests are in that workspace's log, which A sees.
	await doLesson(c.page);
	const logA = (await (await a.page.request.get('/sandbox/log.json')).json()) as { entries: { target: string }[] };
	expect(logA.entries.some((e) => e.target.includes(`demo-client~${id}`) || e.target.includes(encodeURIComponent(`demo-client~${id}`)))).toBe(true);
	// The key never travelled in a request's URL.
	expect(c.received.filter((r) => r.url.includes(key))).toEqual([]);
	await a.context.close();
	await c.context.close();
});

test('a workspace form posted from another origin is refused', async () => {
	for (const path of ['/workspaces', '/workspaces/leave']) {
		const response = await fetch(`${EXPLORER}${path}`, {
			method: 'POST',
			headers: { origin: 'http://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
			body: 'return_to=%2F',
			redirect: 'manual'
		});
		expect(response.status).toBe(403);
	}
});

test('a member whose workspace was removed is told so, not moved silently to the default workspace', async ({ browser }) => {
	const alice = await person(browser);
	const { id, key } = await ownWorkspace(alice);
	const deleted = await fetch(`${ACCOUNTS_HOST}/sandbox/workspaces/${id}`, { method: 'DELETE', headers: { 'X-Sandbox-Workspace-Key': key } });
	expect(deleted.status).toBe(200);
	await open(alice.page, '/');
	await expect(alice.page.getByTestId('workspace-removed')).toContainText(`Your workspace ${id} no longer exists`);
	await expect(alice.page.getByTestId('workspace-id')).toHaveCount(0);
	// Making a new one ends the notice.
	await alice.page.getByRole('button', { name: 'Use my own sandbox workspace' }).click();
	await expect(alice.page.getByTestId('workspace-id')).toBeVisible();
	await expect(alice.page.getByTestId('workspace-removed')).toHaveCount(0);
	await alice.context.close();
});
