import { describe, expect, it } from 'vitest';
import { resolveTarget } from './targets';
import { testConfig } from '../test-config';

/** A shared deployment: only the listed hosts (on one person's machine any https host is allowed, allowlist.test.ts). */
const config = testConfig({ EXPLORER_ALLOWED_HOSTS: 'auth.example.com,accounts.example.com:8443,*.corp.example', HOST: '0.0.0.0' });
const custom = (authUrl: string, accountsUrl = 'https://accounts.example.com:8443') =>
	resolveTarget({ kind: 'custom', authUrl, accountsUrl }, config);

describe('resolveTarget', () => {
	it('the sandbox target is the sandbox’s two origins', () => {
		expect(resolveTarget({ kind: 'sandbox' }, config)).toEqual({
			ok: true,
			target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' }
		});
	});

	it('accepts allowed custom URLs, trimmed, without trailing slashes, keeping a base path', () => {
		expect(custom(' https://auth.example.com/base/ ', 'https://accounts.example.com:8443/')).toEqual({
			ok: true,
			target: { kind: 'custom', authUrl: 'https://auth.example.com/base', accountsUrl: 'https://accounts.example.com:8443' }
		});
	});

	it('refuses a host that is not listed, saying where the list is', () => {
		const result = custom('https://elsewhere.test');
		expect(result).toEqual({ ok: false, message: expect.stringContaining('EXPLORER_ALLOWED_HOSTS') });
		expect(result.ok || result.message).toContain('elsewhere.test is not an allowed target');
	});

	it('refuses loopback written any way when it is not the sandbox origin', () => {
		for (const url of ['http://127.1:3002', 'http://2130706433:3002', 'http://[::1]:3002', 'http://0x7f000001:3002']) {
			expect(custom(url).ok, url).toBe(false);
		}
	});

	it('refuses other schemes, credentials in the URL, a query or fragment, and non-URLs', () => {
		expect(custom('javascript:alert(1)')).toEqual({ ok: false, message: 'auth_url must use http or https, not javascript' });
		expect(custom('https://user:pw@auth.example.com')).toEqual({ ok: false, message: expect.stringContaining('user name or password') });
		expect(custom('https://auth.example.com/?x=1')).toEqual({ ok: false, message: expect.stringContaining('without ? or #') });
		expect(custom('auth.example.com')).toEqual({ ok: false, message: expect.stringContaining('is not a URL') });
	});

	it('checks accounts_url as well, naming it', () => {
		expect(custom('https://auth.example.com', 'https://accounts.example.com')).toEqual({
			ok: false,
			message: expect.stringMatching(/^accounts_url: accounts.example.com is not an allowed target/)
		});
	});
});
