import { describe, expect, it } from 'vitest';
import { APP_CHECKS } from './pure/checks';
import { parseAppCheckArgs } from './options';

describe('npm run app-check options', () => {
	it('needs a start URL; the sandbox follows AUTH_PORT and ACCOUNTS_PORT; every check by default', () => {
		const parsed = parseAppCheckArgs(['--start-url', 'http://localhost:4000/login'], { AUTH_PORT: '11001', ACCOUNTS_PORT: '11002' });
		expect(parsed).toEqual({
			ok: true,
			options: {
				startUrl: 'http://localhost:4000/login',
				click: null,
				junit: null,
				report: null,
				authUrl: 'http://localhost:11001',
				accountsUrl: 'http://localhost:11002',
				workspaceKey: null,
				clientSecret: null,
				checks: [...APP_CHECKS]
			}
		});
		const missing = parseAppCheckArgs([], {});
		expect(missing.ok).toBe(false);
		expect(missing.ok === false && missing.message).toMatch(/^--start-url is required/);
	});

	it('reads the click, outputs, checks and the workspace key (from the environment too)', () => {
		const parsed = parseAppCheckArgs(
			['--start-url', 'http://localhost:4000/', '--click', '#sign-in', '--junit', 'out.xml', '--report', 'out.md', '--only', 'cancel,code-reused', '--auth-url', 'http://sandbox.test:9001/'],
			{ SANDBOX_WORKSPACE_KEY: 'ws.key' }
		);
		expect(parsed.ok).toBe(true);
		if (parsed.ok !== true) return;
		expect(parsed.options).toMatchObject({ click: '#sign-in', junit: 'out.xml', report: 'out.md', authUrl: 'http://sandbox.test:9001', accountsUrl: 'http://localhost:3002', workspaceKey: 'ws.key' });
		expect(parsed.options.checks.map((c) => c.id)).toEqual(['cancel', 'code-reused']);
		const flag = parseAppCheckArgs(['--start-url', 'http://localhost:4000/', '--workspace-key', 'flag.key'], { SANDBOX_WORKSPACE_KEY: 'ws.key' });
		expect(flag.ok === true && flag.options.workspaceKey).toBe('flag.key');
		// The client secret only from the environment (off the process list), for the reports to hide.
		const secret = parseAppCheckArgs(['--start-url', 'http://localhost:4000/'], { APP_CLIENT_SECRET: ' s3cr3t ' });
		expect(secret.ok === true && secret.options.clientSecret).toBe('s3cr3t');
	});

	it('says what is wrong with bad options', () => {
		const message = (argv: string[]) => {
			const parsed = parseAppCheckArgs(argv, {});
			return parsed.ok === false ? parsed.message : null;
		};
		expect(message(['--start-url', 'ftp://x'])).toBe('--start-url must be an http(s) URL such as http://localhost:4000/login, got "ftp://x".');
		expect(message(['--start-url', 'http://u:p@localhost/'])).toBe('--start-url must not carry a user name or password.');
		expect(message(['--start-url', 'http://localhost/', '--only', 'nope'])).toMatch(/^No check "nope"\. Checks: success, cancel,/);
		expect(message(['--start-url', 'http://localhost/', '--bogus'])).toMatch(/Unknown option '--bogus'/);
		expect(parseAppCheckArgs(['--help'], {})).toEqual({ ok: 'help' });
	});
});
