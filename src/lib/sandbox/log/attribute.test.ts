import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../fixtures';
import { DEFAULT_WORKSPACE_POLICY } from '../workspaces';
import { startSandbox, type RunningSandbox, type SandboxWorkspace } from '../index';
import type { LoggedExchange } from '../../http/logged-exchange';

const ORIGIN = 'http://localhost:3000';
const CALLBACK = `${ORIGIN}/callback`;
const APP = { client_id: 'own-app', client_secret: 'own-app-secret', name: 'Own app', redirect_uris: [CALLBACK], countries: ['uk'], verification_key: 'supergroup' } as const;

let running: RunningSandbox | undefined;
afterEach(async () => {
	await running?.close();
	running = undefined;
});

/** A sandbox (public or not) with a workspace of the app's own, holding the app's client and the demo users. */
async function sandboxWithOwnWorkspace(isPublic = false) {
	running = await startSandbox({
		authPort: 0,
		accountsPort: 0,
		explorerOrigin: ORIGIN,
		databasePath: ':memory:',
		controlApi: true,
		workspaces: { ...DEFAULT_WORKSPACE_POLICY, public: isPublic }
	});
	const { workspace } = createWorkspace(running.store, { fixtures: 'demo' }, ORIGIN);
	workspace.upsertClient(APP);
	return { sandbox: running, workspace };
}

/** A code the workspace issued to the app, as its consent page would. */
function codeOf(workspace: SandboxWorkspace): string {
	const user = workspace.getUserByLogin('student@example.com')!;
	return workspace.issueCode({ clientId: APP.client_id, userId: user.id, redirectUri: CALLBACK });
}

/** A request sent with exactly these headers (fetch would add a User-Agent); resolves with the status. */
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

/** The paths and statuses a log holds once it has `count` entries (a request is logged as its response closes). */
async function logged(log: { recentLog(limit: number): { entry: unknown }[] }, count: number): Promise<string[]> {
	for (let i = 0; i < 200 && log.recentLog(50).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
	return log
		.recentLog(50)
		.reverse()
		.map(({ entry }) => {
			const { request, response } = entry as LoggedExchange;
			return `${request.method} ${new URL(request.url).pathname} ${response?.status}`;
		});
}

/** The three requests of issue 24 that used to land in the default workspace's log. */
async function refusedRequests(sandbox: RunningSandbox, workspace: SandboxWorkspace): Promise<void> {
	const exchange = new URLSearchParams({ grant_type: 'authorization_code', code: codeOf(workspace), redirect_uri: CALLBACK, ...APP_CREDENTIALS });
	const issued = await fetch(`${sandbox.accountsUrl}/oauth/token?${exchange}`, { method: 'POST' });
	const { access_token } = (await issued.json()) as { access_token: string };
	expect(await send(`${sandbox.accountsUrl}/api/v3/me.json`, { headers: { authorization: `Bearer ${access_token}` } })).toBe(403);
	const json = JSON.stringify({ grant_type: 'authorization_code', code: codeOf(workspace), redirect_uri: CALLBACK, ...APP_CREDENTIALS });
	expect(await send(`${sandbox.accountsUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })).toBe(400);
	const unknownCode = new URLSearchParams({ grant_type: 'authorization_code', code: 'not-a-code-the-sandbox-issued', redirect_uri: CALLBACK, ...APP_CREDENTIALS });
	expect(await send(`${sandbox.accountsUrl}/oauth/token?${unknownCode}`, { method: 'POST' })).toBe(400);
}

const APP_CREDENTIALS = { client_id: APP.client_id, client_secret: APP.client_secret };
const THE_THREE = ['POST /oauth/token 200', 'GET /api/v3/me.json 403', 'POST /oauth/token 400', 'POST /oauth/token 400'];

describe('attribution: every request in the log of the workspace it names, refused or not', () => {
	it('files me.json without User-Agent, a token request as JSON and one with an unknown code in the client\'s own workspace', async () => {
		const { sandbox, workspace } = await sandboxWithOwnWorkspace();
		await refusedRequests(sandbox, workspace);
		expect(await logged(workspace, 4)).toEqual(THE_THREE);
		expect(await logged(sandbox.store, 0)).toEqual([]);
	});

	it('finds the workspace by what each request carries: Basic credentials, a code or refresh token, a link\'s client_id', async () => {
		const { sandbox, workspace } = await sandboxWithOwnWorkspace();
		const basic = `Basic ${btoa(`${APP.client_id}:wrong-secret`)}`;
		// Credentials in the header (a wrong secret at that), the body a JSON object: refused before the client is looked at.
		await send(`${sandbox.accountsUrl}/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: '{}' });
		// No client at all: the code says whose it is.
		await send(`${sandbox.accountsUrl}/oauth/token?grant_type=authorization_code&code=${codeOf(workspace)}`, { method: 'PUT' });
		// A me.json call presenting a code, and one whose query does not parse.
		await send(`${sandbox.accountsUrl}/api/v3/me.json?access_token=${codeOf(workspace)}`, { headers: { 'user-agent': 'test' } });
		await send(`${sandbox.accountsUrl}/api/v3/me.json?access_token=${codeOf(workspace)}&x=%zz`, { headers: { 'user-agent': 'test' } });
		// A link to an unknown supergroup, by the app's client_id.
		await send(`${sandbox.authUrl}/sso/nobody?client_id=${APP.client_id}&response_type=code`);
		expect(await logged(workspace, 5)).toEqual([
			'POST /oauth/token 400',
			'PUT /oauth/token 405',
			'GET /api/v3/me.json 401',
			'GET /api/v3/me.json 400',
			'GET /sso/nobody 400'
		]);
		expect(await logged(sandbox.store, 0)).toEqual([]);
	});

	it('leaves a request that names nothing the sandbox knows in the default workspace: no client, an unknown one, a forged code', async () => {
		const { sandbox, workspace } = await sandboxWithOwnWorkspace();
		await send(`${sandbox.accountsUrl}/api/v3/me.json`);
		await send(`${sandbox.accountsUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"client_id":"nobody","code":"forged"}' });
		// The app's code with one letter changed is no code the sandbox issued: it attributes nothing.
		const forged = codeOf(workspace).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
		await send(`${sandbox.accountsUrl}/oauth/token?grant_type=authorization_code&code=${forged}`, { method: 'POST' });
		expect(await logged(sandbox.store, 3)).toEqual(['GET /api/v3/me.json 403', 'POST /oauth/token 400', 'POST /oauth/token 401']);
		expect(await logged(workspace, 0)).toEqual([]);
	});

	it('keeps a request that names nothing nowhere in public mode, and the app\'s own in its workspace', async () => {
		const { sandbox, workspace } = await sandboxWithOwnWorkspace(true);
		await send(`${sandbox.accountsUrl}/api/v3/me.json`);
		await refusedRequests(sandbox, workspace);
		expect(await logged(workspace, 4)).toEqual(THE_THREE);
		expect(await logged(sandbox.store, 0)).toEqual([]);
	});
});
