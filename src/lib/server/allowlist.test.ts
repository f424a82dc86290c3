import { describe, expect, it } from 'vitest';
import { permissionFor } from './allowlist';
import { testConfig } from './testConfig';

const config = testConfig({ EXPLORER_ALLOWED_HOSTS: 'auth.example.com,accounts.example.com:8443,*.corp.example' });

describe('permissionFor', () => {
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
