import { defineConfig } from '@playwright/test';

// Browser tests run against the built explorer (`npm start`'s servers) on their own ports and a throwaway database.
const PORT = 4173;
const AUTH_PORT = 4174;
const ACCOUNTS_PORT = 4175;

export default defineConfig({
	testDir: 'tests',
	fullyParallel: false,
	workers: 1,
	timeout: 60_000,
	reporter: [['list']],
	use: {
		baseURL: `http://localhost:${PORT}`,
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
		}
	},
	webServer: {
		command: 'node scripts/start.js',
		url: `http://localhost:${PORT}/health`,
		reuseExistingServer: false,
		timeout: 180_000,
		env: {
			PORT: String(PORT),
			AUTH_PORT: String(AUTH_PORT),
			ACCOUNTS_PORT: String(ACCOUNTS_PORT),
			DATA_DIR: `${process.env.TMPDIR ?? '/tmp'}/sso-flow-explorer-e2e-${process.pid}`,
			EXPLORER_ALLOWED_HOSTS: 'unreachable.invalid,127.0.0.1:9'
		}
	}
});
