import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../protocol';
import { MeErrorBody, MeResponse } from '../../protocol/schemas';
import { addDays } from '../../dates';
import { accessTokenFor, issueCode, startAccounts, type RunningAccounts } from './test-support';

let sandbox: RunningAccounts;
beforeEach(async () => {
	sandbox = await startAccounts();
});
afterEach(() => sandbox.close());

const UA = { 'user-agent': 'sandbox-test/1.0' };

function me(init: { token?: string; query?: string; headers?: Record<string, string> } = {}): Promise<Response> {
	const headers: Record<string, string> = { ...UA, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers };
	return fetch(`${sandbox.url}/api/v3/me.json${init.query ? `?${init.query}` : ''}`, { headers });
}

/** Sends a raw request and returns the status line and body, for requests fetch cannot make. */
function rawRequest(port: number, text: string): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => socket.write(text));
		let data = '';
		socket.on('data', (chunk) => (data += chunk.toString('utf8')));
		socket.on('end', () => {
			const [head = '', body = ''] = data.split('\r\n\r\n');
			resolve({ status: Number(head.split(' ')[1]), body });
		});
		socket.on('error', reject);
	});
}

async function expectMessage(res: Response, status: number, pattern: RegExp): Promise<void> {
	expect(res.status).toBe(status);
	expect(MeErrorBody.parse(await res.json()).message).toMatch(pattern);
}

describe('me.json: success (2.4)', () => {
	it('answers exactly the user verification object, key `supergroup` by default', async () => {
		const res = await me({ token: await accessTokenFor(sandbox, 'student@example.com') });
		expect(res.status).toBe(200);
		const body = MeResponse.parse(await res.json());
		expect(body).toEqual({ sbid_number: 'STU0001', verifications: [{ supergroup: 'student', expires_on: expect.any(String) }] });
	});
	it('emits the key `group` for a client with that setting', async () => {
		const body = MeResponse.parse(await (await me({ token: await accessTokenFor(sandbox, 'key-worker@example.com', 'group-key-client') })).json());
		expect(body.verifications).toEqual([{ group: 'key-worker', expires_on: expect.any(String) }]);
	});
	it('lists several groups at once', async () => {
		const body = MeResponse.parse(await (await me({ token: await accessTokenFor(sandbox, 'multi@example.com') })).json());
		expect(body.verifications).toHaveLength(3);
	});
	it('accepts the token in the access_token query parameter', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		expect((await me({ query: `access_token=${token}` })).status).toBe(200);
	});
	it('lists only active verifications: expires_on today is not listed, tomorrow is', async () => {
		const user = sandbox.store.getUserByLogin('new@example.com')!;
		const today = sandbox.store.today();
		sandbox.store.upsertUser({
			login: user.login,
			password: 'password',
			verifications: [
				{ supergroup: 'student', expires_on: today },
				{ supergroup: 'graduate', expires_on: addDays(today, 1) },
				{ supergroup: 'key-worker', expires_on: addDays(today, -3) }
			]
		});
		const code = issueCode(sandbox.store, { login: user.login, supergroup: 'graduate' });
		const token = await (async () => {
			const res = await fetch(`${sandbox.url}/oauth/token?${new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:3000/callback', client_id: 'demo-client', client_secret: 'demo-secret-change-me' })}`, { method: 'POST' });
			return ((await res.json()) as { access_token: string }).access_token;
		})();
		const body = MeResponse.parse(await (await me({ token })).json());
		expect(body.verifications).toEqual([{ supergroup: 'graduate', expires_on: addDays(today, 1) }]);
	});
	it('an expired verification fixture is not listed (verifications is always present)', async () => {
		const token = await accessTokenFor(sandbox, 'expired@example.com');
		expect(MeResponse.parse(await (await me({ token })).json())).toEqual({ sbid_number: 'EXP0007', verifications: [] });
	});
	it('judges activity on the sandbox clock', async () => {
		sandbox.store.advanceClock(30 * 86400); // social-assistance was set to expire in 30 days
		const token = await accessTokenFor(sandbox, 'multi@example.com');
		const body = MeResponse.parse(await (await me({ token })).json());
		expect(body.verifications.map((v) => ('supergroup' in v ? v.supergroup : v.group)).sort()).toEqual(['graduate', 'key-worker']);
	});
	it('answers the same token afresh after the day, the user or the client changed (answers are reused only while all three hold)', async () => {
		const token = await accessTokenFor(sandbox, 'multi@example.com');
		const supergroups = async () =>
			MeResponse.parse(await (await me({ token })).json()).verifications.map((v) => ('supergroup' in v ? `supergroup:${v.supergroup}` : `group:${v.group}`)).sort();
		const three = ['supergroup:graduate', 'supergroup:key-worker', 'supergroup:social-assistance'];
		expect(await supergroups()).toEqual(three);
		const user = sandbox.store.getUserByLogin('multi@example.com')!;
		sandbox.store.addVerification(user.id, 'student', addDays(sandbox.store.today(), 1));
		expect(await supergroups()).toEqual([...three, 'supergroup:student']);
		sandbox.store.advanceClock(86400);
		expect(await supergroups()).toEqual(three);
		sandbox.store.upsertClient({ ...sandbox.store.getClient('demo-client')!, verification_key: 'group' });
		expect(await supergroups()).toEqual(['group:graduate', 'group:key-worker', 'group:social-assistance']);
	});
});

describe('me.json: 7.3 rows', () => {
	it('400 with no body when Host is missing (HTTP/1.0)', async () => {
		const port = Number(new URL(sandbox.url).port);
		const { status, body } = await rawRequest(port, 'GET /api/v3/me.json HTTP/1.0\r\nUser-Agent: raw/1.0\r\n\r\n');
		expect(status).toBe(400);
		expect(body).toBe('');
	});
	it('403 with no body when User-Agent is missing', async () => {
		const port = Number(new URL(sandbox.url).port);
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const { status, body } = await rawRequest(port, `GET /api/v3/me.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
		expect(status).toBe(403);
		expect(body).toBe('');
	});
	it('401 {message}: no token', async () => {
		await expectMessage(await me(), 401, /No access token/);
	});
	it('401 {message}: malformed token or Authorization scheme', async () => {
		await expectMessage(await me({ token: 'short' }), 401, /malformed/);
		await expectMessage(await me({ headers: { authorization: 'Basic abc' } }), 401, /Bearer/);
	});
	it('401 {message}: unknown token', async () => {
		await expectMessage(await me({ token: 'A'.repeat(43) }), 401, /not valid/);
	});
	it('401 {message}: a grant code instead of a token, said so', async () => {
		await expectMessage(await me({ token: issueCode(sandbox.store) }), 401, /grant code/);
	});
	it('401 {message}: a refresh token instead of an access token, said so', async () => {
		const code = issueCode(sandbox.store);
		const res = await fetch(`${sandbox.url}/oauth/token?${new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:3000/callback', client_id: 'demo-client', client_secret: 'demo-secret-change-me' })}`, { method: 'POST' });
		const { refresh_token } = (await res.json()) as { refresh_token: string };
		await expectMessage(await me({ token: refresh_token }), 401, /refresh token/);
	});
	it('401 {message}: token expired after expires_in on the sandbox clock', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		sandbox.store.advanceClock(LIMITS.accessTokenExpiresIn - 10);
		expect((await me({ token })).status).toBe(200);
		sandbox.store.advanceClock(20);
		await expectMessage(await me({ token }), 401, /expired/);
	});
	it('404 {message} for a user who asked for account deletion', async () => {
		await expectMessage(await me({ token: await accessTokenFor(sandbox, 'deleted@example.com') }), 404, /deleted/);
	});
	it('404 once a user asks for deletion after the token was granted', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		sandbox.store.upsertUser({ login: 'student@example.com', password: 'password', verifications: [], deletion_requested: true });
		expect((await me({ token })).status).toBe(404);
	});
});

describe('me.json: sandbox choices', () => {
	it('checks Host, then User-Agent, then the token', async () => {
		const port = Number(new URL(sandbox.url).port);
		expect((await rawRequest(port, 'GET /api/v3/me.json HTTP/1.0\r\n\r\n')).status).toBe(400);
		expect((await rawRequest(port, 'GET /api/v3/me.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(403);
	});
	it('uses the header when both header and query carry a token', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		expect((await me({ token, query: 'access_token=bogus' })).status).toBe(200);
	});
	it('answers a malformed query string with 400 and no body', async () => {
		const res = await me({ query: 'access_token=%zz' });
		expect(res.status).toBe(400);
		expect(await res.text()).toBe('');
	});
	it('answers other methods with 405 and a message', async () => {
		const res = await fetch(`${sandbox.url}/api/v3/me.json`, { method: 'POST', headers: UA });
		await expectMessage(res, 405, /GET/);
	});
});

describe('me.json: the hot path', () => {
	it('looks the presented token up once: the attribution\'s finding serves the answer', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const lookups: string[] = [];
		const find = sandbox.store.findAccessToken.bind(sandbox.store);
		sandbox.store.findAccessToken = (presented) => (lookups.push(presented), find(presented));
		expect((await me({ token })).status).toBe(200);
		expect(lookups).toEqual([token]);
	});
});
