import { defineConfig } from '@playwright/test';
import { requireChromium } from './src/lib/chromium';

// Browser tests run against the built explorer (`npm start`'s servers) on their own ports and a throwaway database.
// E2E_PORT moves the three ports (PORT, PORT+1, PORT+2), so two runs can share a machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const AUTH_PORT = PORT + 1;
const ACCOUNTS_PORT = PORT + 2;
/** A hostile or broken target the security and fault tests start themselves; allowed like a custom deployment. */
export const HOSTILE_TARGET_PORT = PORT + 7;
// The server's throwaway data directory. Set once by the runner; its workers (which load this file again) inherit
// it, so a spec can read the sandbox's database (tests/security/support/ports.ts).
process.env.E2E_DATA_DIR ??= `${process.env.TMPDIR ?? '/tmp'}/sso-flow-explorer-e2e-${process.pid}`;

export default defineConfig({
	testDir: 'tests',
	fullyParallel: false,
	workers: 1,
	timeout: 60_000,
	reporter: [['list']],
	use: {
		baseURL: `http://localhost:${PORT}`,
		launchOptions: {
			// The Chromium `npm test` checked for first (scripts/ensure-chromium.ts); none: its one-line message.
			executablePath: requireChromium(),
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
			DATA_DIR: process.env.E2E_DATA_DIR,
			EXPLORER_ALLOWED_HOSTS: `unreachable.invalid,127.0.0.1:9,127.0.0.1:${HOSTILE_TARGET_PORT}`,
			EXPLORER_ALLOW_PRIVATE_TARGETS: 'on',
			OUTBOUND_TIMEOUT_MS: '3000'
		}
	}
});
