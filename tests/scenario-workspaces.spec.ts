/**
 * Issue 15: every scenario runs in a throwaway workspace of its own. Running "Code used after 2 hours" from
 * /scenarios leaves the sandbox panel's clock where it was and a walk's code valid, and two `npm run scenarios` runs in parallel against
 * one running sandbox both pass, leaving the default workspace (its clock, clients, users) as it was and no
 * workspace behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, EXTRA_EXPLORER_PORTS } from './security/support/ports';
import { readSandboxDatabase, spawnExplorer } from './security/support/servers';
import { authorise, exchange } from './support/walk';

/** How far the sandbox panel's clock (the default workspace's) stands ahead of real time. */
async function panelClockAheadMs(page: Page): Promise<number> {
	await page.goto('/sandbox');
	const now = await page.getByTestId('sandbox-now').getAttribute('datetime');
	return Date.parse(now ?? '') - Date.now();
}

/** The default workspace as its control API shows it: clients and users, and its clock against real time. */
async function defaultWorkspace(accounts: string) {
	const state = (await (await fetch(`${accounts}/sandbox/state`)).json()) as { now: string; clients: { client_id: string }[]; users: { login: string }[] };
	return { aheadMs: Date.parse(state.now) - Date.now(), clients: state.clients.map((c) => c.client_id), users: state.users.map((u) => u.login) };
}

test('"Code used after 2 hours" from /scenarios moves its own clock: not the panel\'s, not a walk\'s code', async ({ page, context }) => {
	const before = await panelClockAheadMs(page);
	const defaultBefore = await defaultWorkspace(ACCOUNTS_HOST);
	// A walk holds a fresh code, its countdown running.
	await authorise(page);
	await expect(page.locator('.countdown')).toHaveAttribute('data-state', 'left');

	const scenarios = await context.newPage();
	await scenarios.goto('/scenarios?run=code-after-two-hours'); // the page lists a few at a time: the link lists this one
	const scenario = scenarios.getByTestId('scenario-code-after-two-hours');
	await scenario.getByRole('button', { name: /^Run / }).click();
	await expect(scenario.getByTestId('scenario-result')).toHaveAttribute('data-passed', 'true');
	await expect(scenario.getByTestId('scenario-step').filter({ hasText: "The workspace's clock moves forward" })).toHaveCount(1);

	// The walk's code is still valid: its countdown runs on, and it exchanges.
	await expect(page.locator('.countdown')).toHaveAttribute('data-state', 'left');
	await expect(await exchange(page)).toHaveAttribute('data-outcome', 'success');

	const after = await panelClockAheadMs(scenarios);
	expect(Math.abs(after - before), 'the panel clock moved by').toBeLessThan(10_000);
	const defaultAfter = await defaultWorkspace(ACCOUNTS_HOST);
	expect({ clients: defaultAfter.clients, users: defaultAfter.users }).toEqual({ clients: defaultBefore.clients, users: defaultBefore.users });
});

/** `npm run scenarios` against a running sandbox with its control API; resolves with its exit code and output. */
function runScenariosCli(authUrl: string, accountsUrl: string): Promise<{ code: number | null; output: string }> {
	const child = spawn(process.execPath, [join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs'), join('scripts', 'scenarios.ts'), '--auth-url', authUrl, '--accounts-url', accountsUrl, '--control'], {
		cwd: process.cwd(),
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

test('two `npm run scenarios` runs in parallel against one sandbox both pass, and leave the default workspace as it was', async () => {
	test.setTimeout(180_000);
	const port = EXTRA_EXPLORER_PORTS.parallelScenarios;
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-parallel-scenarios-'));
	const server = spawnExplorer({ port, dataDir });
	try {
		await server.ready;
		const auth = `http://localhost:${port + 1}`;
		const accounts = `http://localhost:${port + 2}`;
		const before = await defaultWorkspace(accounts);

		const runs = await Promise.all([runScenariosCli(auth, accounts), runScenariosCli(auth, accounts)]);
		for (const run of runs) {
			expect(run.output).toContain('each in a throwaway workspace of its own');
			expect(run.output).toMatch(/^\d+ passed, 0 failed, 0 skipped$/m);
			expect(run.code, run.output).toBe(0);
		}

		const after = await defaultWorkspace(accounts);
		expect(Math.abs(before.aheadMs), 'the default clock before').toBeLessThan(10_000);
		expect(Math.abs(after.aheadMs), 'the default clock after both runs').toBeLessThan(10_000);
		expect({ clients: after.clients, users: after.users }).toEqual({ clients: before.clients, users: before.users });
		// Every scenario's workspace was removed, with its clients and users.
		const left = readSandboxDatabase(dataDir, (db) => ({
			workspaces: db.prepare('SELECT id FROM workspaces').all(),
			scenarioClients: db.prepare("SELECT count(*) AS n FROM clients WHERE client_id LIKE 'scenario-%'").get()
		}));
		expect(left).toEqual({ workspaces: [{ id: 'default' }], scenarioClients: { n: 0 } });
	} finally {
		server.process.kill('SIGTERM');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
});
