import { describe, expect, it } from 'vitest';
import { FIXTURE_CLIENTS } from './fixtures';
import { adminTokenMatches, controlAccess, isLoopbackAddress, presentedAdminToken } from './admin-access';
import { startAccounts } from './accounts/test-support';

const TOKEN = 'a-long-admin-token-0123456789';
const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('who may administer the sandbox', () => {
	it('with no admin token: this machine only (loopback addresses)', () => {
		for (const address of ['127.0.0.1', '127.4.5.6', '::1', '::ffff:127.0.0.1']) {
			expect(isLoopbackAddress(address), address).toBe(true);
			expect(controlAccess(null, { remoteAddress: address, header: headers({}) })).toEqual({ ok: true });
		}
		for (const address of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', '2001:db8::1', undefined]) {
			expect(isLoopbackAddress(address), String(address)).toBe(false);
			expect(controlAccess(null, { remoteAddress: address, header: headers({}) })).toMatchObject({ ok: false, status: 403 });
		}
	});

	it('with an admin token: only requests that carry it, from anywhere, loopback included', () => {
		const from = (address: string, values: Record<string, string>) => controlAccess(TOKEN, { remoteAddress: address, header: headers(values) });
		expect(from('127.0.0.1', {})).toMatchObject({ ok: false, status: 401 });
		expect(from('10.0.0.5', { authorization: `Bearer ${TOKEN}` })).toEqual({ ok: true });
		expect(from('10.0.0.5', { 'x-sandbox-admin-token': TOKEN })).toEqual({ ok: true });
		expect(from('127.0.0.1', { authorization: `Bearer ${TOKEN}x` })).toMatchObject({ ok: false, status: 401 });
		expect(from('127.0.0.1', { authorization: `Basic ${TOKEN}` })).toMatchObject({ ok: false, status: 401 });
		expect(from('127.0.0.1', { 'x-sandbox-admin-token': '' })).toMatchObject({ ok: false, status: 401 });
	});

	it('compares tokens whatever their lengths, and reads them from either header', () => {
		expect(adminTokenMatches(TOKEN, TOKEN)).toBe(true);
		expect(adminTokenMatches(TOKEN, TOKEN.slice(0, -1))).toBe(false);
		expect(adminTokenMatches(TOKEN, null)).toBe(false);
		expect(presentedAdminToken(headers({ authorization: 'bearer abc' }))).toBe('abc');
		expect(presentedAdminToken(headers({ 'x-sandbox-admin-token': 'def' }))).toBe('def');
	});
});

describe('the control API with an admin token', () => {
	it('refuses every call without the token, changing nothing, and answers with it', async () => {
		const sandbox = await startAccounts({ adminToken: TOKEN });
		try {
			const demo = FIXTURE_CLIENTS[0]!;
			const hijack = { client_id: demo.client_id, client_secret: 'attacker', redirect_uris: ['https://evil.example/cb'], countries: ['uk'] };
			const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
				fetch(`${sandbox.url}/sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) });
			for (const [path, body] of [['clients', hijack], ['clock', { advance_seconds: 86_400 }], ['reset', {}]] as const) {
				const refused = await post(path, body);
				expect(refused.status, path).toBe(401);
				expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
			}
			expect((await fetch(`${sandbox.url}/sandbox/state`)).status).toBe(401);
			expect((await fetch(`${sandbox.url}/sandbox/log`)).status).toBe(401);
			expect(sandbox.store.getClient(demo.client_id)?.client_secret).toBe(demo.client_secret);

			expect((await post('clock', { advance_seconds: 60 }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
			expect((await fetch(`${sandbox.url}/sandbox/state`, { headers: { 'x-sandbox-admin-token': TOKEN } })).status).toBe(200);
			// The token never shows in the request log.
			const log = await (await fetch(`${sandbox.url}/sandbox/log`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
			expect(log).not.toContain(TOKEN);
		} finally {
			await sandbox.close();
		}
	});
});
