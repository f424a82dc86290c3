/**
 * Where the servers of this run listen. playwright.config.ts moves every port with E2E_PORT, so every spec reads
 * them from here (tests/support/walk.ts re-exports them).
 */
export const PORT = Number(process.env.E2E_PORT ?? 4173);
export const EXPLORER = `http://localhost:${PORT}`;
export const AUTH_HOST = `http://localhost:${PORT + 1}`;
export const ACCOUNTS_HOST = `http://localhost:${PORT + 2}`;
/** Allowed by the config (127.0.0.1:PORT+7), with private targets on: the specs start their own target there. */
export const HOSTILE_PORT = PORT + 7;
/**
 * Base ports of the extra explorers some specs start themselves (each uses base, base+1, base+2); they move with
 * E2E_PORT like everything else, so two runs can share a machine.
 */
export const EXTRA_EXPLORER_PORTS = {
	serverLog: PORT + 317,
	kill: PORT + 321,
	privateTargets: PORT + 324,
	logFlood: PORT + 327,
	slowClients: PORT + 330,
	damagedDatabase: PORT + 333,
	sandboxAdmin: PORT + 336,
	parallelScenarios: PORT + 339,
	publicWorkspaces: PORT + 342,
	packaged: PORT + 351,
	ciRecipe: PORT + 354,
	httpsOrigin: PORT + 348
} as const;
export const HOSTILE_ORIGIN = `http://127.0.0.1:${HOSTILE_PORT}`;
/** The data directory of the server the config starts (sandbox.db, explorer.db). */
export const DATA_DIR = process.env.E2E_DATA_DIR!;
/** The config's OUTBOUND_TIMEOUT_MS. */
export const OUTBOUND_TIMEOUT_MS = 3000;

/** The demo client as the sandbox ships it (src/lib/sandbox/fixtures.ts). */
export const DEMO_CLIENT_ID = 'demo-client';
export const DEMO_SECRET = 'demo-secret-change-me';
export const DEMO_PASSWORD = 'password';
export const STUDENT = 'student@example.com';
