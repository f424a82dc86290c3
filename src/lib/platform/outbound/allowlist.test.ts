import { describe, expect, it } from 'vitest';
import { permissionFor, targetRuleText } from './allowlist';
import { testConfig } from '../test-config';

const ALLOWED = 'auth.example.com,accounts.example.com:8443,*.corp.example';
/** A shared deployment (bound to every interface): only the sandbox and the listed hosts. */
const config = testConfig({ EXPLORER_ALLOWED_HOSTS: ALLOWED, HOST: '0.0.0.0' });

describe('permissionFor on a shared deployment', () => {
	const permission = (url: string) => permissionFor(new URL(url), config);

	it('allows the sandbox by exact origin only, not by "it is localhost"', () => {
		expect(permission('http://localhost:3001/sso/student')).toBe('sandbox');
		expect(permission('http://localhost:3002/oauth/token')).toBe('sandbox');
		expect(permission('http://localhost:3003/')).toBeNull();
		expect(permission('http://127.0.0.1:3002/')).toBeNull();
		expect(permission('https://localhost:3002/')).toBeNull();
	});

	it('matches a listed host on any port, and host:port on that port only (default ports count)', () => {
		expect(permission('https://auth.example.com/')).toBe('allowlist');
		expect(permission('http://auth.example.com:9999/')).toBe('allowlist');
		expect(permission('https://accounts.example.com:8443/')).toBe('allowlist');
		expect(permission('https://accounts.example.com/')).toBeNull();
	});

	it('matches *.domain for subdomains, not the domain itself nor look-alikes', () => {
		expect(permission('https://a.corp.example/')).toBe('allowlist');
		expect(permission('https://a.b.corp.example/')).toBe('allowlist');
		expect(permission('https://corp.example/')).toBeNull();
		expect(permission('https://evilcorp.example/')).toBeNull();
		expect(permission('https://auth.example.com.evil.test/')).toBeNull();
	});

	it('allows only http and https', () => {
		expect(permission('ftp://auth.example.com/')).toBeNull();
		expect(permission('file:///etc/passwd')).toBeNull();
	});
});

describe("permissionFor on one person's machine (bound to loopback)", () => {
	const local = testConfig({ EXPLORER_ALLOWED_HOSTS: ALLOWED });
	const permission = (url: string) => permissionFor(new URL(url), local);

	it('allows any https host (the SSRF guard keeps private addresses out), but not plain http', () => {
		expect(local.targetRule).toBe('public-https');
		expect(permission('https://sso.customer.example/')).toBe('public-https');
		expect(permission('http://sso.customer.example/')).toBeNull();
		expect(permission('https://auth.example.com/')).toBe('allowlist');
		expect(permission('http://localhost:3001/sso/student')).toBe('sandbox');
	});

	it('is the rule for every loopback spelling, and only for those', () => {
		for (const HOST of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(testConfig({ HOST }).targetRule).toBe('public-https');
		for (const HOST of ['0.0.0.0', '::', '192.168.1.10']) expect(testConfig({ HOST }).targetRule).toBe('allowlist');
	});

	it('is said in a sentence the target form shows before anything is sent', () => {
		expect(targetRuleText(local)).toContain('any https deployment on a public address is allowed');
		expect(targetRuleText(local)).toContain('private, loopback and other internal addresses stay refused');
		expect(targetRuleText(testConfig({ HOST: '0.0.0.0' }))).toContain('no other host is listed');
		expect(targetRuleText(config)).toContain('auth.example.com');
	});
});
