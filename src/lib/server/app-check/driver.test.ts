import { describe, expect, it } from 'vitest';
import { testConfig } from '../testConfig';
import { AppCheckRefusedError, runAppCheck } from './driver';

describe('the CLI\'s run', () => {
	it('refuses a start URL that reaches the sandbox it was told of (--auth-url), under any name, before opening anything', async () => {
		const run = runAppCheck({
			startUrl: 'http://127.0.0.1:5001/sso/student',
			click: null,
			authUrl: 'http://localhost:5001',
			accountsUrl: 'http://localhost:5002',
			workspaceKey: null,
			adminToken: null,
			checks: [],
			config: testConfig()
		});
		await expect(run).rejects.toThrow(AppCheckRefusedError);
		await expect(run).rejects.toThrow(/^http:\/\/127\.0\.0\.1:5001 is the sandbox itself \(its authorisation host\), http:\/\/localhost:5001;/);
	});
});
