import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenResponse } from '../../protocol/schemas';
import { CALLBACK, DEMO, exchangeParams, postToken, startAccounts, type RunningAccounts } from './test-support';

let sandbox: RunningAccounts;
beforeEach(async () => {
	sandbox = await startAccounts();
});
afterEach(() => sandbox.close());

function control(path: string, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Response> {
	return fetch(`${sandbox.url}/sandbox/${path}`, {
		method: 'POST',
		headers,
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
	});
}

async function state() {
	return (await (await fetch(`${sandbox.url}/sandbox/state`)).json()) as {
		today: string;
		now: string;
		clients: Record<string, unknown>[];
		users: { login: string; sbid_number: string; verifications: unknown[] }[];
	};
}

/** Clients and users, without the clock, which moves on its own. */
async function data() {
	const { clients, users } = await state();
	return { clients, users };
}

async function expectBadRequest(res: Response, pattern: RegExp): Promise<void> {
	expect(res.status).toBe(400);
	expect(((await res.json()) as { error: string }).error).toMatch(pattern);
}

const newClient = {
	client_id: 'my-app',
	client_secret: 'my-secret',
	redirect_uris: ['https://my-app.example/cb'],
	countries: ['uk', 'fr']
};

const authorizeBody = {
	supergroup: 'student',
	response_type: 'code',
	client_id: 'demo-client',
	redirect_uri: `${CALLBACK}?shop=1`,
	country: 'uk',
	login: 'student@example.com',
	decision: 'authorize'
};

describe('control API: clients', () => {
	it('creates a client and answers without its secret', async () => {
		const res = await control('clients', newClient);
		expect(res.status).toBe(200);
		const body = (await res.json()) as Record<string, unknown>;
		expect(body).toMatchObject({ client_id: 'my-app', verification_key: 'supergroup', countries: ['uk', 'fr'] });
		expect(body).not.toHaveProperty('client_secret');
		expect(sandbox.store.authenticateClient('my-app', 'my-secret').ok).toBe(true);
	});
	it('replaces an existing client, including the group-key setting', async () => {
		await control('clients', newClient);
		await control('clients', { ...newClient, client_secret: 'other', verification_key: 'group' });
		expect(sandbox.store.getClient('my-app')).toMatchObject({ client_secret: 'other', verification_key: 'group' });
	});
	it('refuses invalid input with a clear 400 and changes nothing', async () => {
		const before = await data();
		await expectBadRequest(await control('clients', { ...newClient, redirect_uris: ['/cb'] }), /redirect_uris\.0: must be an absolute URI/);
		await expectBadRequest(await control('clients', { ...newClient, redirect_uris: ['https://a.example/cb?x=1'] }), /without `\?`/);
		await expectBadRequest(await control('clients', { ...newClient, countries: ['gb'] }), /`uk`, not `gb`/);
		await expectBadRequest(await control('clients', { ...newClient, redirect_uris: [] }), /at least one redirect URI/);
		await expectBadRequest(await control('clients', { ...newClient, redirect_uri: 'x' }), /redirect_uri/);
		await expectBadRequest(await control('clients', { client_id: 'x' }), /client_secret/);
		expect(await data()).toEqual(before);
	});
});

describe('control API: users', () => {
	const user = { login: 'me@example.com', password: 'pw', verifications: [{ supergroup: 'graduate', expires_on: '2099-12-31' }] };

	it('creates a user and answers with its sbid_number, never the password', async () => {
		const res = await control('users', user);
		expect(res.status).toBe(200);
		const body = (await res.json()) as Record<string, unknown>;
		expect(body).toMatchObject({ login: 'me@example.com', verifications: user.verifications, deletion_requested: false });
		expect(body.sbid_number).toMatch(/^[A-Za-z0-9]{7}$/);
		expect(JSON.stringify(body)).not.toContain('pw');
	});
	it('updates the user with that login, keeping its sbid_number', async () => {
		const created = (await (await control('users', user)).json()) as { sbid_number: string };
		const updated = (await (await control('users', { ...user, verifications: [], deletion_requested: true })).json()) as Record<string, unknown>;
		expect(updated).toMatchObject({ sbid_number: created.sbid_number, verifications: [], deletion_requested: true });
	});
	it('refuses invalid input with a clear 400 and changes nothing', async () => {
		const before = await data();
		await expectBadRequest(await control('users', { ...user, verifications: [{ supergroup: 'students', expires_on: '2099-01-01' }] }), /supergroup/);
		await expectBadRequest(await control('users', { ...user, verifications: [{ supergroup: 'student', expires_on: '2099-02-30' }] }), /real calendar date/);
		await expectBadRequest(
			await control('users', { ...user, verifications: [{ supergroup: 'student', expires_on: '2099-01-01' }, { supergroup: 'student', expires_on: '2099-01-02' }] }),
			/one verification per supergroup/
		);
		await expectBadRequest(await control('users', { login: 'x@example.com' }), /password/);
		expect(await data()).toEqual(before);
	});
});

describe('control API: clock', () => {
	it('moves the sandbox clock forward and answers with its now', async () => {
		const res = await control('clock', { advance_seconds: 7200 });
		const body = (await res.json()) as { now: string };
		expect(Date.parse(body.now) - Date.now()).toBeGreaterThan(7190_000);
	});
	it('refuses moving backwards or a non-number', async () => {
		await expectBadRequest(await control('clock', { advance_seconds: -1 }), /forward/);
		await expectBadRequest(await control('clock', { advance_seconds: '60' }), /advance_seconds/);
		expect(Math.abs(sandbox.store.now().getTime() - Date.now())).toBeLessThan(1000);
	});
});

describe('control API: reset', () => {
	it('goes back to the shipped fixtures and real time', async () => {
		await control('clients', newClient);
		await control('users', { login: 'me@example.com', password: 'pw', verifications: [] });
		await control('users', { login: 'student@example.com', password: 'changed', verifications: [] });
		await control('clock', { advance_seconds: 86400 });
		const res = await control('reset');
		expect(res.status).toBe(200);
		const after = await state();
		expect(after.clients.map((c) => c.client_id)).toEqual(['demo-client', 'group-key-client']);
		expect(after.users.map((u) => u.login)).not.toContain('me@example.com');
		expect(sandbox.store.authenticateUser('student@example.com', 'password')?.verifications).toHaveLength(1);
		expect(Math.abs(Date.parse(after.now) - Date.now())).toBeLessThan(1000);
	});
});

describe('control API: authorize (the page\'s rules, headless)', () => {
	it('authorise: answers the redirect with a code that exchanges', async () => {
		const res = await control('authorize', authorizeBody);
		expect(res.status).toBe(200);
		const { location } = (await res.json()) as { location: string };
		const url = new URL(location);
		expect(url.searchParams.get('shop')).toBe('1');
		const code = url.searchParams.get('code')!;
		const token = await postToken(sandbox.url, exchangeParams(code, { redirect_uri: `${CALLBACK}?shop=1` }));
		TokenResponse.parse(await token.json());
	});
	it('cancel: answers the redirect without a code', async () => {
		const res = await control('authorize', { ...authorizeBody, decision: 'cancel' });
		expect(await res.json()).toEqual({ location: `${CALLBACK}?shop=1` });
	});
	it('answers a 7.1 row with its message', async () => {
		const res = await control('authorize', { ...authorizeBody, redirect_uri: 'https://evil.example/cb' });
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({ error: 'The redirect URI included is not valid.', row: 'auth-invalid-redirect-uri' });
		const missing = await control('authorize', { ...authorizeBody, response_type: undefined });
		expect(await missing.json()).toMatchObject({ error: 'The authorization server does not support this response type.' });
	});
	it('answers a sandbox choice with its message', async () => {
		const res = await control('authorize', { ...authorizeBody, country: 'es' });
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({ choice: 'country-outside-plan' });
	});
	it('refuses an unknown login (404) and an unverified user (409)', async () => {
		expect((await control('authorize', { ...authorizeBody, login: 'nobody@example.com' })).status).toBe(404);
		const res = await control('authorize', { ...authorizeBody, login: 'new@example.com' });
		expect(res.status).toBe(409);
		expect(((await res.json()) as { error: string }).error).toMatch(/verify/);
	});
	it('refuses an invalid decision', async () => {
		await expectBadRequest(await control('authorize', { ...authorizeBody, decision: 'yes' }), /decision/);
	});
});

describe('control API: transport', () => {
	it('requires Content-Type: application/json, so web pages cannot post to it', async () => {
		const res = await control('reset', undefined, { 'content-type': 'application/x-www-form-urlencoded' });
		expect(res.status).toBe(415);
		expect((await control('reset', undefined, {})).status).toBe(415);
	});
	it('refuses a body that is not JSON', async () => {
		await expectBadRequest(await control('clients', '{nope'), /not valid JSON/);
	});
	it('answers unknown endpoints and wrong methods', async () => {
		expect((await fetch(`${sandbox.url}/sandbox/nope`)).status).toBe(404);
		expect((await fetch(`${sandbox.url}/sandbox/reset`)).status).toBe(405);
	});
	it('state shows clients without secrets', async () => {
		const text = JSON.stringify(await state());
		expect(text).toContain('demo-client');
		expect(text).not.toContain(DEMO.client_secret);
	});
	it('is absent when turned off', async () => {
		const off = await startAccounts({ controlApi: false });
		try {
			expect((await fetch(`${off.url}/sandbox/state`)).status).toBe(404);
			expect((await fetch(`${off.url}/sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(404);
			expect((await fetch(`${off.url}/health`)).status).toBe(200);
		} finally {
			await off.close();
		}
	});
});
