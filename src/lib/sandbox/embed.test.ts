import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { OutcomeId } from '../protocol';
import { SandboxControlError, startSandbox, type SandboxHosts, type OutcomeRule } from './embed';

const CLIENT = { client_id: 'embedded-test-app', client_secret: 'embedded-test-secret', redirect_uris: ['http://127.0.0.1:9/callback'], countries: ['uk'] };
const STUDENT = 'student@example.com';

let sandbox: SandboxHosts;
beforeAll(async () => {
	sandbox = await startSandbox();
	await sandbox.clients.register(CLIENT);
});
afterAll(() => sandbox?.close());

/** The app's server side of a sign-in: the exchange, then me.json with the token. */
async function exchange(code: string): Promise<Response> {
	const query = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CLIENT.redirect_uris[0]!, client_id: CLIENT.client_id, client_secret: CLIENT.client_secret });
	return fetch(`${sandbox.accountsUrl}/oauth/token?${query}`, { method: 'POST' });
}

async function me(token: string): Promise<Response> {
	return fetch(`${sandbox.accountsUrl}/api/v3/me.json`, { headers: { authorization: `Bearer ${token}` } });
}

describe('startSandbox (embedded)', () => {
	it('serves both hosts on free loopback ports', () => {
		expect(sandbox.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sandbox.accountsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sandbox.authUrl).not.toBe(sandbox.accountsUrl);
	});

	it('authorises headlessly, and the code exchanges for a token me.json answers', async () => {
		const { code, location } = await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student' });
		expect(location.startsWith(`${CLIENT.redirect_uris[0]}?code=`)).toBe(true);
		const token = (await (await exchange(code!)).json()) as { access_token: string };
		const answer = await me(token.access_token);
		expect(answer.status).toBe(200);
		expect(JSON.stringify(await answer.json())).toContain('student');
	});

	it('applies an outcome rule once, and lists it as used', async () => {
		await sandbox.outcomes.set(CLIENT.client_id, 'token-invalid-grant');
		const { code } = await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student' });
		const refused = await exchange(code!);
		expect(refused.status).toBe(400);
		expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
		const rules = await sandbox.outcomes.list(CLIENT.client_id);
		expect(rules.pending).toEqual([]);
		expect(rules.used.map((r) => r.outcome)).toEqual(['token-invalid-grant']);
	});

	it('a cancel, by the user or by the authorise-cancel rule, redirects without a code', async () => {
		expect((await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student', decision: 'cancel' })).code).toBeNull();
		await sandbox.outcomes.set(CLIENT.client_id, 'authorise-cancel');
		expect((await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student' })).code).toBeNull();
	});

	it('moves the sandbox clock: a code older than two hours is refused', async () => {
		const { code } = await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student' });
		const moved = await sandbox.clock.advance(3 * 3600);
		expect(Date.parse(moved.now) - Date.now()).toBeGreaterThan(2.9 * 3600 * 1000);
		expect((await exchange(code!)).status).toBe(400);
		const back = await sandbox.clock.reset();
		expect(Math.abs(Date.parse(back.now) - Date.now())).toBeLessThan(60_000);
		expect((await sandbox.clock.set(new Date('2030-01-02T03:04:05Z'))).today).toBe('2030-01-02');
		await sandbox.clock.reset();
	});

	it('registers users with their verifications', async () => {
		const user = await sandbox.users.register({ login: 'grad@example.test', password: 'pw', verifications: [{ supergroup: 'graduate', expires_on: '2099-01-01' }] });
		expect(user).toMatchObject({ login: 'grad@example.test', verifications: [{ supergroup: 'graduate', expires_on: '2099-01-01' }] });
		expect((await sandbox.users.list()).map((u) => u.login)).toContain('grad@example.test');
		expect((await sandbox.clients.list()).find((c) => c.client_id === CLIENT.client_id)).not.toHaveProperty('client_secret');
	});

	it("throws the control API's message on bad input", async () => {
		const bad = sandbox.clients.register({ ...CLIENT, client_id: 'x y' });
		await expect(bad).rejects.toBeInstanceOf(SandboxControlError);
		await expect(sandbox.clients.register({ ...CLIENT, redirect_uris: ['http://a.test/cb?x=1'] })).rejects.toThrow(/400: redirect_uris.0: register it without `\?`/);
	});

	it('gives the requests it received, masked, without the helpers\' own control calls', async () => {
		await sandbox.reset();
		await sandbox.clients.register(CLIENT);
		const { code } = await sandbox.authorize({ client_id: CLIENT.client_id, login: STUDENT, supergroup: 'student' });
		await exchange(code!);
		const seen = await sandbox.requests();
		expect(seen.map((r) => `${r.host} ${r.request.method} ${new URL(r.request.url, 'http://x').pathname} ${r.response?.status}`)).toEqual(['accounts POST /oauth/token 200']);
		const text = JSON.stringify(seen);
		expect(text).not.toContain(CLIENT.client_secret);
		expect(text).not.toContain(code);
	});

	it('stops both hosts on close', async () => {
		const other = await startSandbox();
		await other.close();
		await expect(fetch(`${other.accountsUrl}/sandbox/state`)).rejects.toThrow();
	});

	it("names exactly the sandbox's outcome rules", () => {
		expectTypeOf<OutcomeRule>().toEqualTypeOf<OutcomeId>();
	});
});
