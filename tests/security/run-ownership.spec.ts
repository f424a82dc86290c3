/**
 * Saved runs belong to the session that made them. A walk is saved at the callback, before its code is exchanged:
 * another visitor (no cookie, or a session of their own) must not find the run in /runs, and one holding its
 * permalink must not read the still-usable code from the page or any export, which would let them exchange it and
 * read the user's me.json. The owner sees everything; once the code is exchanged, the permalink shows it too.
 */
import { expect, test } from '@playwright/test';
import { ExplorerSession, sandboxCode } from './support/explorer';
import { ACCOUNTS_HOST, AUTH_HOST, EXPLORER } from './support/ports';

const EXPORTS = ['har', 'markdown', 'shell'] as const;

/** What a cookieless visitor (a fresh request each time) gets for a path. */
async function anonymous(path: string): Promise<{ status: number; text: string }> {
	const response = await fetch(new URL(path, EXPLORER), { redirect: 'manual' });
	return { status: response.status, text: await response.text() };
}

async function read(session: ExplorerSession, path: string): Promise<{ status: number; text: string }> {
	const response = await session.request(path);
	return { status: response.status, text: await response.text() };
}

/** The run page (HTML and its data) and every export, as one text per place. */
async function everyView(get: (path: string) => Promise<{ status: number; text: string }>, runId: string) {
	const paths = [`/runs/${runId}`, `/runs/${runId}/__data.json`, ...EXPORTS.map((f) => `/runs/${runId}/export/${f}`)];
	return Promise.all(paths.map(async (path) => ({ path, ...(await get(path)) })));
}

test("a victim's walk, saved at the callback: others cannot list it or read its live code; the owner can", async () => {
	const victim = await new ExplorerSession(EXPLORER).open();
	await victim.walk('reset');
	// The walk opens the authorisation page (its start): the redirect that follows is the one it saves as it arrives.
	const started = await victim.walk('start', { link: `${AUTH_HOST}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk` });
	expect(started.status, started.text).toBe(200);
	const code = await sandboxCode(ACCOUNTS_HOST, `${EXPLORER}/callback`);
	expect(await victim.callback(`code=${encodeURIComponent(code)}`)).toBe(303);
	const runId = (await victim.walk('view')).body.view?.runId;
	expect(runId).toBeTruthy();
	// Permalinks are capabilities: long random ids (a UUID's 122 random bits), not counters.
	expect(runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

	// Another person: no cookie at all, or a session of their own.
	const other = await new ExplorerSession(EXPLORER).open();
	for (const [who, get] of [['cookieless', anonymous], ['another session', (p: string) => read(other, p)]] as const) {
		const list = await get('/runs');
		expect(list.status).toBe(200);
		expect(list.text, `${who}: /runs`).not.toContain(runId);
		expect((await get(`/runs?q=${encodeURIComponent(code.slice(0, 12))}`)).text, `${who}: search`).not.toContain(runId);
		for (const view of await everyView(get, runId!)) {
			expect(view.status, `${who}: ${view.path}`).toBe(200);
			expect(view.text, `${who}: ${view.path} shows the live code`).not.toContain(code);
		}
	}

	// The owner lists it and sees the code everywhere it is (the shell script has no request yet to carry it).
	expect((await read(victim, '/runs')).text).toContain(runId);
	for (const view of await everyView((p) => read(victim, p), runId!)) {
		expect(view.status, view.path).toBe(200);
		if (!view.path.endsWith('/shell')) expect(view.text, `owner: ${view.path}`).toContain(code);
	}

	// Exchanged, the code can no longer be used: the permalink shows it to its holder, everywhere.
	const exchanged = await victim.walk('exchange', { transport: 'query' });
	expect(exchanged.status).toBe(200);
	// (The shell script never carries it: it asks the sandbox for a fresh code, the recorded one being used up.)
	for (const view of await everyView(anonymous, runId!)) if (!view.path.endsWith('/shell')) expect(view.text, `after the exchange: ${view.path}`).toContain(code);
	// Still not listed to anyone else.
	expect((await anonymous('/runs')).text).not.toContain(runId);
});

test("an import belongs to the importer: listed to them only", async () => {
	const importer = await new ExplorerSession(EXPLORER).open();
	const curl = `curl -X POST 'http://localhost:3002/oauth/token?grant_type=authorization_code&code=ImportedCode123456&client_id=demo-client&client_secret=s3cret&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback'`;
	const imported = await importer.post<{ id: string }>('/api/import', { kind: 'curl', text: curl });
	expect(imported.status).toBe(200);
	expect((await read(importer, '/runs')).text).toContain(imported.body.id);
	expect((await anonymous('/runs')).text).not.toContain(imported.body.id);
	const other = await new ExplorerSession(EXPLORER).open();
	expect((await read(other, '/runs')).text).not.toContain(imported.body.id);
	// The code was never exchanged in it and the run is new: only the importer sees it.
	expect((await read(importer, `/runs/${imported.body.id}/export/har`)).text).toContain('ImportedCode123456');
	expect((await anonymous(`/runs/${imported.body.id}/export/har`)).text).not.toContain('ImportedCode123456');
});

test('only the owner deletes a run: another session, a cookieless visitor and a GET delete nothing', async () => {
	const owner = await new ExplorerSession(EXPLORER).open();
	const curl = `curl -X POST 'http://localhost:3002/oauth/token?grant_type=authorization_code&code=DeletedCode123456&client_id=demo-client&client_secret=s3cret&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback'`;
	const id = (await owner.post<{ id: string }>('/api/import', { kind: 'curl', text: curl })).body.id;
	/** The run page's Delete form, posted as a browser on the explorer's own page posts it. */
	const deleteAs = (post: (path: string, init: RequestInit) => Promise<Response>) =>
		post(`/runs/${id}?/delete`, { method: 'POST', headers: { origin: EXPLORER, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
	const other = await new ExplorerSession(EXPLORER).open();
	expect((await deleteAs((path, init) => other.request(path, init))).status).toBe(403);
	expect((await deleteAs((path, init) => fetch(new URL(path, EXPLORER), { ...init, redirect: 'manual' }))).status).toBe(403);
	expect((await anonymous(`/runs/${id}?/delete`)).status).toBe(200);
	expect((await read(owner, `/runs/${id}`)).status).toBe(200);

	const deleted = await deleteAs((path, init) => owner.request(path, init));
	expect(deleted.status).toBe(303);
	expect(deleted.headers.get('location')).toBe('/runs?deleted=1');
	expect((await read(owner, `/runs/${id}`)).status).toBe(404);
	expect((await read(owner, '/runs')).text).not.toContain(id);
});

test("deleting the listed runs removes the session's own only: another session's id in a forged form is left alone", async () => {
	const curl = (code: string) => `curl -X POST 'http://localhost:3002/oauth/token?grant_type=authorization_code&code=${code}&client_id=demo-client&client_secret=s3cret&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback'`;
	const owner = await new ExplorerSession(EXPLORER).open();
	const other = await new ExplorerSession(EXPLORER).open();
	const mine = [];
	for (const code of ['ListedCodeOne123', 'ListedCodeTwo123']) mine.push((await owner.post<{ id: string }>('/api/import', { kind: 'curl', text: curl(code) })).body.id);
	const theirs = (await other.post<{ id: string }>('/api/import', { kind: 'curl', text: curl('TheirCode1234567') })).body.id;
	const form = new URLSearchParams([...mine, theirs].map((id) => ['id', id]));
	const deleted = await owner.request('/runs?/deleteListed', {
		method: 'POST',
		headers: { origin: EXPLORER, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
		body: form.toString()
	});
	expect(deleted.status).toBe(303);
	expect(deleted.headers.get('location')).toBe('/runs?deleted=2');
	for (const id of mine) expect((await read(owner, `/runs/${id}`)).status).toBe(404);
	expect((await read(other, `/runs/${theirs}`)).status).toBe(200);
	expect((await read(other, '/runs')).text).toContain(theirs);
});
