import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseHostRule, type ExplorerConfig } from './config';

function ok(env: Record<string, string>): ExplorerConfig {
	const result = loadConfig(env);
	if (!result.ok) throw new Error(result.message);
	return result.config;
}

function problem(env: Record<string, string>): string {
	const result = loadConfig(env);
	if (result.ok) throw new Error('expected an invalid configuration');
	return result.message;
}

describe('loadConfig', () => {
	it('needs no variables: ports 3000-3002, the sandbox as its own origins, nothing else allowed, 10 s timeout, 2 GB of runs', () => {
		expect(ok({})).toEqual({
			port: 3000,
			authPort: 3001,
			accountsPort: 3002,
			publicOrigin: 'http://localhost:3000',
			sandbox: { authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
			sandboxService: {
				enabled: true,
				controlApi: true,
				adminToken: null,
				workspaces: { public: false, idleHours: 24, creationsPerAddressPerHour: 20 },
				databasePath: join('data', 'sandbox.db')
			},
			runsDatabasePath: join('data', 'explorer.db'),
			savedRunsMaxMb: 2048,
			allowedHosts: [],
			allowPrivateTargets: false,
			targetRule: 'public-https',
			outboundTimeoutMs: 10_000,
			host: '127.0.0.1',
			allowedHostNames: [],
			slowClients: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 },
			addressHeader: null
		});
	});

	it('takes SAVED_RUNS_MAX_MB as a whole number of megabytes, and names it when it is not one', () => {
		expect(ok({ SAVED_RUNS_MAX_MB: '512' }).savedRunsMaxMb).toBe(512);
		const refused = loadConfig({ SAVED_RUNS_MAX_MB: '1.5GB' });
		expect(refused.ok).toBe(false);
		if (!refused.ok) expect(refused.message).toContain('SAVED_RUNS_MAX_MB');
	});

	it('listens on HOST, answers ALLOWED_HOST_NAMES (normalised), and bounds slow clients as set', () => {
		const config = ok({ HOST: '0.0.0.0', ALLOWED_HOST_NAMES: ' Support-Box , explorer.example.com,[::1] ', HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1500' });
		expect(config).toMatchObject({
			host: '0.0.0.0',
			allowedHostNames: ['support-box', 'explorer.example.com', '[::1]'],
			slowClients: { headersTimeoutMs: 500, requestTimeoutMs: 1500 }
		});
	});

	it('refuses a host name with a scheme, port or path, and a headers bound longer than the request bound', () => {
		expect(problem({ ALLOWED_HOST_NAMES: 'https://explorer.example.com' })).toContain('ALLOWED_HOST_NAMES');
		expect(problem({ ALLOWED_HOST_NAMES: 'explorer.example.com:8443' })).toContain('not a host name');
		expect(problem({ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' })).toContain('HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS');
		expect(problem({ REQUEST_TIMEOUT_MS: '10' })).toContain('REQUEST_TIMEOUT_MS');
	});

	it('reads ADDRESS_HEADER (adapter-node\'s) as a lower-case header name, and names it when it is not one', () => {
		expect(ok({ ADDRESS_HEADER: ' X-Forwarded-For ' }).addressHeader).toBe('x-forwarded-for');
		expect(ok({ ADDRESS_HEADER: '' }).addressHeader).toBeNull();
		expect(problem({ ADDRESS_HEADER: 'X-Forwarded-For: 1' })).toContain('ADDRESS_HEADER: must be an HTTP header name');
	});

	it('derives the public origin and sandbox origins from the ports', () => {
		const config = ok({ PORT: '8080', AUTH_PORT: '8081', ACCOUNTS_PORT: '8082' });
		expect(config.publicOrigin).toBe('http://localhost:8080');
		expect(config.sandbox).toMatchObject({ authUrl: 'http://localhost:8081', accountsUrl: 'http://localhost:8082' });
	});

	it('takes PUBLIC_ORIGIN as an origin, without a trailing slash', () => {
		expect(ok({ PUBLIC_ORIGIN: 'https://Explorer.example.com/' }).publicOrigin).toBe('https://explorer.example.com');
	});

	it('refuses a PUBLIC_ORIGIN with a path or another scheme, naming the variable', () => {
		expect(problem({ PUBLIC_ORIGIN: 'https://example.com/app' })).toContain('PUBLIC_ORIGIN');
		expect(problem({ PUBLIC_ORIGIN: 'ftp://example.com' })).toContain('http(s) origin');
	});

	it('refuses a port that is not a number from 1 to 65535', () => {
		expect(problem({ PORT: 'abc' })).toMatch(/PORT: must be a port number .* got "abc"/);
		expect(problem({ AUTH_PORT: '70000' })).toContain('AUTH_PORT');
		expect(problem({ ACCOUNTS_PORT: '0' })).toContain('ACCOUNTS_PORT');
	});

	it('parses EXPLORER_ALLOWED_HOSTS: hosts, host:port and *.domain, comma-separated, blanks ignored', () => {
		expect(ok({ EXPLORER_ALLOWED_HOSTS: ' API.example.com, accounts.test:8443 ,, *.corp.example ' }).allowedHosts).toEqual([
			{ host: 'api.example.com', port: null, subdomains: false },
			{ host: 'accounts.test', port: 8443, subdomains: false },
			{ host: 'corp.example', port: null, subdomains: true }
		]);
	});

	it('refuses every wrong EXPLORER_ALLOWED_HOSTS entry, each named', () => {
		const message = problem({ EXPLORER_ALLOWED_HOSTS: 'https://a.example, b.example/path, ok.example, user@c.example' });
		expect(message).toContain('"https://a.example"');
		expect(message).toContain('"b.example/path"');
		expect(message).toContain('"user@c.example"');
		expect(message).not.toContain('"ok.example"');
	});

	it('EXPLORER_ALLOW_PRIVATE_TARGETS is off unless "on"; other words are refused', () => {
		expect(ok({ EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' }).allowPrivateTargets).toBe(true);
		expect(ok({ EXPLORER_ALLOW_PRIVATE_TARGETS: 'off' }).allowPrivateTargets).toBe(false);
		expect(problem({ EXPLORER_ALLOW_PRIVATE_TARGETS: 'yes' })).toContain('must be "on" or "off"');
	});

	it('OUTBOUND_TIMEOUT_MS is a whole number of milliseconds within bounds', () => {
		expect(ok({ OUTBOUND_TIMEOUT_MS: '2500' }).outboundTimeoutMs).toBe(2500);
		expect(problem({ OUTBOUND_TIMEOUT_MS: '10s' })).toContain('OUTBOUND_TIMEOUT_MS');
		expect(problem({ OUTBOUND_TIMEOUT_MS: '0' })).toContain('OUTBOUND_TIMEOUT_MS');
	});
});

describe('parseHostRule', () => {
	it('normalises hosts the way target URLs are parsed (IPv4 spellings, IPv6 brackets, case)', () => {
		expect(parseHostRule('2130706433')).toEqual({ host: '127.0.0.1', port: null, subdomains: false });
		expect(parseHostRule('[0:0::1]:8080')).toEqual({ host: '[::1]', port: 8080, subdomains: false });
		expect(parseHostRule('Example.COM:80')).toEqual({ host: 'example.com', port: 80, subdomains: false });
	});

	it('refuses a wildcard on an IP address and a bare wildcard', () => {
		expect(parseHostRule('*.10.0.0.1')).toBeTypeOf('string');
		expect(parseHostRule('*')).toBeTypeOf('string');
		expect(parseHostRule('*.')).toBeTypeOf('string');
	});
});

/** The sandbox's settings, parsed by the same one parser (they were a second parser in sandbox/index.ts). */
describe('loadConfig: the sandbox', () => {
	it('SANDBOX is on or off, like every switch: SANDBOX=no is refused, not taken as on', () => {
		expect(ok({ SANDBOX: 'off' }).sandboxService.enabled).toBe(false);
		expect(ok({ SANDBOX: 'ON' }).sandboxService.enabled).toBe(true);
		expect(problem({ SANDBOX: 'no' })).toContain('SANDBOX: must be "on" or "off", got "no"');
	});
	it('takes SANDBOX_ADMIN_TOKEN, refusing one short enough to guess', () => {
		expect(ok({ SANDBOX_ADMIN_TOKEN: 'a-long-enough-admin-token' }).sandboxService.adminToken).toBe('a-long-enough-admin-token');
		expect(ok({ SANDBOX_ADMIN_TOKEN: '' }).sandboxService.adminToken).toBeNull();
		expect(problem({ SANDBOX_ADMIN_TOKEN: 'short' })).toMatch(/SANDBOX_ADMIN_TOKEN: must be at least 16 characters/);
		expect(problem({ SANDBOX_ADMIN_TOKEN: 'has spaces in it, not allowed' })).toMatch(/SANDBOX_ADMIN_TOKEN: must be printable ASCII/);
	});
	it('follows SANDBOX_PUBLIC and the workspace limits, and names bad ones', () => {
		const config = ok({ SANDBOX_PUBLIC: 'on', SANDBOX_WORKSPACE_IDLE_HOURS: '0.5', SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: '3' });
		expect(config.sandboxService.workspaces).toEqual({ public: true, idleHours: 0.5, creationsPerAddressPerHour: 3 });
		const message = problem({ SANDBOX_PUBLIC: 'yes', SANDBOX_WORKSPACE_IDLE_HOURS: '0', SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: '1.5' });
		expect(message).toContain('SANDBOX_PUBLIC: must be "on" or "off"');
		expect(message).toContain('SANDBOX_WORKSPACE_IDLE_HOURS: must be a number greater than 0');
		expect(message).toContain('SANDBOX_WORKSPACES_PER_ADDRESS_PER_HOUR: must be a whole number greater than 0');
	});
	it('follows PORT, DATA_DIR and SANDBOX_CONTROL_API', () => {
		const config = ok({ PORT: '8080', DATA_DIR: '/tmp/x', SANDBOX_CONTROL_API: 'off' });
		expect(config).toMatchObject({ publicOrigin: 'http://localhost:8080', runsDatabasePath: '/tmp/x/explorer.db' });
		expect(config.sandboxService).toMatchObject({ databasePath: '/tmp/x/sandbox.db', controlApi: false });
	});
	it('names every bad variable', () => {
		const message = problem({ AUTH_PORT: 'abc', ACCOUNTS_PORT: '70000', SANDBOX_CONTROL_API: 'no' });
		for (const name of ['AUTH_PORT', 'ACCOUNTS_PORT', 'SANDBOX_CONTROL_API']) expect(message).toContain(`${name}: `);
	});
});
