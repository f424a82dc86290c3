/**
 * Outcomes on demand over HTTP: each rule answers exactly what the endpoint answers for its table row (compared
 * with the real cause of that row, headers and all), is used once, and touches no other client or workspace; the
 * control API's /sandbox/outcomes calls, their scoping by workspace key and their errors.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTCOME_IDS, type OutcomeId } from '../../protocol';
import { MeResponse, TokenResponse } from '../../protocol/schemas';
import { addDays } from '../../dates';
import { checkAuthorizationRequest, decide } from '../authorize';
import { createWorkspace, fixtureClientId } from '../fixtures';
import { DEFAULT_WORKSPACE_POLICY } from '../workspaces';
import { CALLBACK, DEMO, ORIGIN, accessTokenFor, exchangeParams, issueCode, postToken, startAccounts, type RunningAccounts } from './test-support';

let sandbox: RunningAccounts;
beforeEach(async () => {
	sandbox = await startAccounts();
});
afterEach(() => sandbox.close());

const UA = { 'user-agent': 'outcomes-test/1.0' };
const JSON_TYPE = { 'content-type': 'application/json' };
/** fetch sends its own User-Agent unless told one: an empty one counts as none. */
const NO_UA = { 'user-agent': '' };

function control(method: 'GET' | 'POST', path: string, body?: unknown, key?: string): Promise<Response> {
	return fetch(`${sandbox.url}/sandbox/${path}`, {
		method,
		headers: { ...(body === undefined ? {} : JSON_TYPE), ...(key === undefined ? {} : { 'X-Sandbox-Workspace-Key': key }) },
		body: body === undefined ? undefined : JSON.stringify(body)
	});
}

async function setRule(clientId: string, outcome: OutcomeId, key?: string): Promise<void> {
	const res = await control('POST', 'outcomes', { client_id: clientId, outcome }, key);
	expect(res.status, await res.clone().text()).toBe(200);
}

/** Status, headers (without the connection's own) and body text: what an app sees of an answer. */
/** An answer as the app reads it, but for the header naming the rule (compared on its own below). */
async function seen(res: Response) {
	const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'x-sandbox-outcome-rule'].includes(name)));
	return { status: res.status, headers, body: await res.text() };
}

function me(token: string, headers: Record<string, string> = UA): Promise<Response> {
	return fetch(`${sandbox.url}/api/v3/me.json`, { headers: { ...headers, authorization: `Bearer ${token}` } });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('outcome rules: token endpoint', () => {
	it('token-invalid-grant answers what a code already exchanged gets, once, and the code still exchanges', async () => {
		const used = issueCode(sandbox.store);
		await postToken(sandbox.url, exchangeParams(used));
		const real = await seen(await postToken(sandbox.url, exchangeParams(used)));

		await setRule(DEMO.client_id, 'token-invalid-grant');
		const code = issueCode(sandbox.store);
		const ruled = await seen(await postToken(sandbox.url, exchangeParams(code)));
		expect(ruled).toEqual(real);
		expect(JSON.parse(ruled.body)).toMatchObject({ error: 'invalid_grant' });
		expect(ruled.status).toBe(400);

		const next = await postToken(sandbox.url, exchangeParams(code));
		expect(next.status).toBe(200);
		TokenResponse.parse(await next.json());
	});

	it('token-invalid-client answers what a wrong secret gets, with the challenge when the header carried the credentials', async () => {
		const wrongByParams = await seen(await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store), { client_secret: 'nope' })));
		const headerParams = { grant_type: 'authorization_code', redirect_uri: CALLBACK };
		const wrongByHeader = await seen(
			await postToken(sandbox.url, { ...headerParams, code: issueCode(sandbox.store) }, { headers: { authorization: basic(DEMO.client_id, 'nope') } })
		);
		expect(wrongByHeader.headers['www-authenticate']).toMatch(/^Basic /);

		await setRule(DEMO.client_id, 'token-invalid-client');
		const code = issueCode(sandbox.store);
		expect(await seen(await postToken(sandbox.url, exchangeParams(code)))).toEqual(wrongByParams);
		await setRule(DEMO.client_id, 'token-invalid-client');
		const byHeader = await postToken(sandbox.url, { ...headerParams, code }, { headers: { authorization: basic(DEMO.client_id, DEMO.client_secret) } });
		expect(await seen(byHeader)).toEqual(wrongByHeader);
		expect((await postToken(sandbox.url, exchangeParams(code))).status).toBe(200);
	});

	it('waits for a code exchange that reaches the code: a wrong secret, a missing code or a refresh leaves it set', async () => {
		const first = TokenResponse.parse(await (await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)))).json());
		await setRule(DEMO.client_id, 'token-invalid-grant');
		expect((await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store), { client_secret: 'nope' }))).status).toBe(401);
		const { code: _code, ...withoutCode } = exchangeParams('x');
		expect((await postToken(sandbox.url, withoutCode)).status).toBe(400);
		const refresh = { grant_type: 'refresh_token', refresh_token: first.refresh_token, ...DEMO };
		expect((await postToken(sandbox.url, refresh)).status).toBe(200);
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'token')).toBe('token-invalid-grant');

		expect((await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)))).status).toBe(400);
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'token')).toBeNull();
		expect((await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)))).status).toBe(200);
	});

	it('touches only its own client: another client exchanges as usual', async () => {
		await setRule(DEMO.client_id, 'token-invalid-client');
		const group = sandbox.store.getClient('group-key-client')!;
		const code = issueCode(sandbox.store, { clientId: group.client_id, login: 'key-worker@example.com', supergroup: 'key-worker' });
		const res = await postToken(sandbox.url, exchangeParams(code, { client_id: group.client_id, client_secret: group.client_secret }));
		expect(res.status).toBe(200);
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'token')).toBe('token-invalid-client');
	});
});

describe('outcome rules: the answer names its rule', () => {
	it('marks an answer a rule produced with X-Sandbox-Outcome-Rule, and no other answer', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		await setRule(DEMO.client_id, 'me-group-key');
		expect((await me(token)).headers.get('x-sandbox-outcome-rule')).toBe('me-group-key');
		expect((await me(token)).headers.get('x-sandbox-outcome-rule')).toBeNull();
		await setRule(DEMO.client_id, 'token-invalid-client');
		const refused = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)));
		expect(refused.headers.get('x-sandbox-outcome-rule')).toBe('token-invalid-client');
		expect((await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)))).headers.get('x-sandbox-outcome-rule')).toBeNull();
	});
});

describe('outcome rules: me.json', () => {
	it('me-401 answers what an unknown token gets; the token works again after', async () => {
		const real = await seen(await me('A'.repeat(43)));
		const token = await accessTokenFor(sandbox, 'student@example.com');
		await setRule(DEMO.client_id, 'me-401');
		expect(await seen(await me(token))).toEqual(real);
		expect(real.status).toBe(401);
		expect((await me(token)).status).toBe(200);
	});

	it('me-403 answers what a request without User-Agent gets', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const real = await seen(await me(token, NO_UA));
		await setRule(DEMO.client_id, 'me-403');
		expect(await seen(await me(token))).toEqual(real);
		expect(real).toMatchObject({ status: 403, body: '' });
		expect((await me(token)).status).toBe(200);
	});

	it('me-404 answers what a user who asked for deletion gets', async () => {
		const real = await seen(await me(await accessTokenFor(sandbox, 'deleted@example.com')));
		const token = await accessTokenFor(sandbox, 'student@example.com');
		await setRule(DEMO.client_id, 'me-404');
		expect(await seen(await me(token))).toEqual(real);
		expect(real.status).toBe(404);
		expect((await me(token)).status).toBe(200);
	});

	it('me-empty-verifications answers 200 with the sbid_number and no verifications', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const normal = MeResponse.parse(await (await me(token)).json());
		await setRule(DEMO.client_id, 'me-empty-verifications');
		const ruled = await me(token);
		expect(ruled.status).toBe(200);
		expect(ruled.headers.get('cache-control')).toBe('no-store');
		expect(MeResponse.parse(await ruled.json())).toEqual({ sbid_number: normal.sbid_number, verifications: [] });
		expect(MeResponse.parse(await (await me(token)).json())).toEqual(normal);
	});

	it('me-expired-verification lists the user\'s supergroups ended yesterday, with the client\'s key', async () => {
		const token = await accessTokenFor(sandbox, 'multi@example.com');
		const user = sandbox.store.getUserByLogin('multi@example.com')!;
		await setRule(DEMO.client_id, 'me-expired-verification');
		const body = MeResponse.parse(await (await me(token)).json());
		const yesterday = addDays(sandbox.store.today(), -1);
		expect(body).toEqual({ sbid_number: user.sbid_number, verifications: user.verifications.map((v) => ({ supergroup: v.supergroup, expires_on: yesterday })) });

		const groupToken = await accessTokenFor(sandbox, 'key-worker@example.com', 'group-key-client');
		await setRule('group-key-client', 'me-expired-verification');
		expect(MeResponse.parse(await (await me(groupToken)).json()).verifications).toEqual([{ group: 'key-worker', expires_on: yesterday }]);
	});

	it('me-group-key answers the usual verifications keyed `group`', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const normal = MeResponse.parse(await (await me(token)).json());
		await setRule(DEMO.client_id, 'me-group-key');
		const ruled = MeResponse.parse(await (await me(token)).json());
		expect(ruled).toEqual({
			sbid_number: normal.sbid_number,
			verifications: normal.verifications.map((v) => ({ group: 'supergroup' in v ? v.supergroup : v.group, expires_on: v.expires_on }))
		});
		expect(MeResponse.parse(await (await me(token)).json())).toEqual(normal);
	});

	it('waits for a valid token of its client: requests refused before the token, and other clients, leave it set', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const other = await accessTokenFor(sandbox, 'key-worker@example.com', 'group-key-client');
		await setRule(DEMO.client_id, 'me-404');
		expect((await me(token, NO_UA)).status).toBe(403);
		expect((await me('A'.repeat(43))).status).toBe(401);
		expect((await me(other)).status).toBe(200);
		expect((await me(token)).status).toBe(404);
		expect((await me(token)).status).toBe(200);
	});
});

describe('outcome rules: authorisation', () => {
	function authorise(decision: 'authorize' | 'cancel' = 'authorize') {
		const query = new URLSearchParams({ response_type: 'code', client_id: DEMO.client_id, redirect_uri: `${CALLBACK}?shop=1`, country: 'uk' });
		const check = checkAuthorizationRequest(sandbox.store, 'student', query);
		if (!check.ok) throw new Error(check.error.message);
		return decide(check.request, sandbox.store.getUserByLogin('student@example.com')!.id, decision, 'test').location;
	}

	it('authorise-cancel makes the next Authorise redirect as a cancel; a user\'s own cancel leaves it set', async () => {
		await setRule(DEMO.client_id, 'authorise-cancel');
		const cancelled = authorise('cancel');
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'authorise')).toBe('authorise-cancel');
		expect(authorise()).toBe(cancelled);
		expect(cancelled).toBe(`${CALLBACK}?shop=1`);
		expect(new URL(authorise()).searchParams.get('code')).toMatch(/^[\w-]{43}$/);
	});

	it('POST /sandbox/authorize follows it too', async () => {
		await setRule(DEMO.client_id, 'authorise-cancel');
		const body = { supergroup: 'student', response_type: 'code', client_id: DEMO.client_id, redirect_uri: CALLBACK, country: 'uk', login: 'student@example.com', decision: 'authorize' };
		expect(await (await control('POST', 'authorize', body)).json()).toEqual({ location: CALLBACK });
		const listed = (await (await control('GET', `outcomes?client_id=${DEMO.client_id}`)).json()) as { used: { outcome: string; request: string }[] };
		expect(listed.used).toEqual([expect.objectContaining({ outcome: 'authorise-cancel', request: 'POST /sandbox/authorize' })]);
	});
});

describe('control API: /sandbox/outcomes', () => {
	it('sets, lists pending and used, and clears', async () => {
		const set = await control('POST', 'outcomes', { client_id: DEMO.client_id, outcome: 'me-403' });
		expect(set.status).toBe(200);
		expect(await set.json()).toEqual({
			client_id: DEMO.client_id,
			pending: [{ outcome: 'me-403', stage: 'me', label: expect.any(String), set_at: expect.any(String) }],
			used: []
		});
		await me(await accessTokenFor(sandbox, 'student@example.com'));
		await setRule(DEMO.client_id, 'token-invalid-grant');
		await setRule(DEMO.client_id, 'me-401');
		const listed = await (await control('GET', `outcomes?client_id=${DEMO.client_id}`)).json();
		expect(listed).toMatchObject({
			pending: [{ outcome: 'token-invalid-grant' }, { outcome: 'me-401' }],
			used: [{ outcome: 'me-403', stage: 'me', used_at: expect.any(String), request: 'GET /api/v3/me.json' }]
		});
		const one = await (await control('POST', 'outcomes/clear', { client_id: DEMO.client_id, outcome: 'me-401' })).json();
		expect(one).toMatchObject({ cleared: 1, pending: [{ outcome: 'token-invalid-grant' }] });
		const all = await (await control('POST', 'outcomes/clear', { client_id: DEMO.client_id })).json();
		expect(all).toMatchObject({ cleared: 1, pending: [], used: [{ outcome: 'me-403' }] });
	});

	it('refuses an unknown outcome listing the valid ids, an unknown client, and a missing client_id', async () => {
		const bad = await control('POST', 'outcomes', { client_id: DEMO.client_id, outcome: 'me-500' });
		expect(bad.status).toBe(400);
		const { error } = (await bad.json()) as { error: string };
		expect(error).toContain('`me-500` is not an outcome');
		for (const id of OUTCOME_IDS) expect(error).toContain(id);
		expect((await control('POST', 'outcomes', { client_id: DEMO.client_id })).status).toBe(400);
		expect((await control('POST', 'outcomes', { client_id: DEMO.client_id, outcome: 'me-401', extra: 1 })).status).toBe(400);

		const unknown = await control('POST', 'outcomes', { client_id: 'nobody', outcome: 'me-401' });
		expect(unknown.status).toBe(404);
		expect(((await unknown.json()) as { error: string }).error).toMatch(/No client `nobody` in this workspace/);
		expect((await control('POST', 'outcomes/clear', { client_id: 'nobody' })).status).toBe(404);
		expect((await control('GET', 'outcomes?client_id=nobody')).status).toBe(404);
		expect((await control('GET', 'outcomes')).status).toBe(400);
		const wrongMethod = await fetch(`${sandbox.url}/sandbox/outcomes`, { method: 'DELETE' });
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
	});

	it('acts in the key\'s workspace only: another workspace\'s client is unknown, its rules unseen and untouched', async () => {
		const mine = createWorkspace(sandbox.store, { fixtures: 'demo' }, ORIGIN);
		const theirs = createWorkspace(sandbox.store, { fixtures: 'demo' }, ORIGIN);
		const myClient = fixtureClientId(DEMO.client_id, mine.workspace.id);
		const theirClient = fixtureClientId(DEMO.client_id, theirs.workspace.id);
		await setRule(myClient, 'me-404', mine.key);
		await setRule(theirClient, 'me-401', theirs.key);

		for (const [path, body] of [
			['outcomes', { client_id: theirClient, outcome: 'me-403' }],
			['outcomes/clear', { client_id: theirClient }]
		] as const) {
			expect((await control('POST', path, body, mine.key)).status).toBe(404);
		}
		expect((await control('GET', `outcomes?client_id=${theirClient}`, undefined, mine.key)).status).toBe(404);
		// Without a key: the default workspace, which holds neither.
		expect((await control('GET', `outcomes?client_id=${myClient}`)).status).toBe(404);
		expect((await control('POST', 'outcomes', { client_id: myClient, outcome: 'me-403' }, 'default.wrong-key')).status).toBe(403);

		expect(theirs.workspace.pendingOutcome(theirClient, 'me')).toBe('me-401');
		const listed = (await (await control('GET', `outcomes?client_id=${myClient}`, undefined, mine.key)).json()) as { pending: { outcome: string }[] };
		expect(listed.pending.map((r) => r.outcome)).toEqual(['me-404']);
	});

	it('a reset of the workspace removes its rules', async () => {
		await setRule(DEMO.client_id, 'me-404');
		expect((await control('POST', 'reset', {})).status).toBe(200);
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'me')).toBeNull();
	});

	it('is read-only on the default workspace in public mode', async () => {
		await sandbox.close();
		sandbox = await startAccounts({ workspaces: { ...DEFAULT_WORKSPACE_POLICY, public: true } });
		expect((await control('POST', 'outcomes', { client_id: DEMO.client_id, outcome: 'me-404' })).status).toBe(403);
		expect((await control('GET', `outcomes?client_id=${DEMO.client_id}`)).status).toBe(200);
		expect(sandbox.store.pendingOutcome(DEMO.client_id, 'me')).toBeNull();
	});
});
