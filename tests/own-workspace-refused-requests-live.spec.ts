/**
 * Issue 24, point 1, in Chromium: an app in a workspace of its own sees on its live page the requests the sandbox
 * refuses at its first checks (me.json without User-Agent, a token request sent as JSON) and a token request with
 * an unknown code, as it sees its successful exchange: each is filed in its workspace before it is judged.
 */
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { createSandboxWorkspace, registerClient, type SandboxClient, type SandboxWorkspace } from './apps/sandbox-client';
import { ACCOUNTS_HOST, EXPLORER, STUDENT, hydrated } from './support/walk';

const REDIRECT = 'http://app.test/callback';

/** A request with exactly these headers (fetch would add a User-Agent); resolves with the status. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode!));
		});
		req.on('error', reject);
		req.end(options.body);
	});
}

/** A code the workspace issues to the client for the student, through the control API. */
async function codeFor(workspace: SandboxWorkspace, client: SandboxClient): Promise<string> {
	const body = { supergroup: 'student', response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, country: 'uk', login: STUDENT, decision: 'authorize' };
	const { location } = (await workspace.control('POST', '/sandbox/authorize', body)) as { location: string };
	return new URL(location).searchParams.get('code')!;
}

test('an app in its own workspace sees its refused requests on its live page: me.json without User-Agent, a JSON token request, an unknown code', async ({ browser }) => {
	const workspace = await createSandboxWorkspace('attribution test');
	try {
		const client = await registerClient(workspace, [REDIRECT]);
		const credentials = { client_id: client.clientId, client_secret: client.clientSecret, redirect_uri: REDIRECT, grant_type: 'authorization_code' };

		const live = await (await browser.newContext()).newPage();
		await live.goto(`${EXPLORER}/workspaces/${workspace.id}`);
		await live.getByLabel('Workspace key').fill(workspace.key);
		await live.getByRole('button', { name: 'Join workspace' }).click();
		await expect(live.getByTestId('workspace-id')).toHaveText(workspace.id);
		await live.goto(`${EXPLORER}/live/${encodeURIComponent(client.clientId)}`);
		await hydrated(live);
		await expect(live.getByTestId('live-status')).toHaveAttribute('data-connected', 'true');

		const exchanged = await fetch(`${ACCOUNTS_HOST}/oauth/token?${new URLSearchParams({ ...credentials, code: await codeFor(workspace, client) })}`, { method: 'POST' });
		const { access_token } = (await exchanged.json()) as { access_token: string };
		expect(await send(`${ACCOUNTS_HOST}/api/v3/me.json`, { headers: { authorization: `Bearer ${access_token}` } })).toBe(403);
		const json = JSON.stringify({ ...credentials, code: await codeFor(workspace, client) });
		expect(await send(`${ACCOUNTS_HOST}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })).toBe(400);
		const unknownCode = new URLSearchParams({ ...credentials, code: 'not-a-code-the-sandbox-issued' });
		expect(await send(`${ACCOUNTS_HOST}/oauth/token?${unknownCode}`, { method: 'POST' })).toBe(400);

		/** The live page's timeline rows of one step that were answered with `status`. */
		const rows = (step: string, status: string) => live.locator(`[data-testid="timeline"] li[data-step="${step}"]`).filter({ has: live.locator('.status', { hasText: status }) });
		await expect(rows('me', '403')).toHaveCount(1, { timeout: 15_000 });
		await expect(rows('token', '400')).toHaveCount(2);
		await expect(rows('token', '200')).toHaveCount(1);
		expect(await live.content()).not.toContain(client.clientSecret);
	} finally {
		await workspace.remove();
	}
});
