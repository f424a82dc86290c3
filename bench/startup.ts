/**
 * The time from starting the packaged command (`node bin/sso-flow-explorer.js`, what `npx sso-flow-explorer` runs,
 * against the built explorer) to all three hosts answering `/health`, in an empty data directory each time, as a
 * first `npx` in an empty folder starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PORT, stopExplorer } from './explorer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Clear of the ports the load runs' server holds (PORT to PORT+2). */
const STARTUP_PORT = PORT + 10;
const STARTS = 3;
const POLL_MS = 10;
const GIVE_UP_MS = 60_000;

async function answers(url: string): Promise<boolean> {
	try {
		return (await fetch(url)).ok;
	} catch {
		return false; // not listening yet
	}
}

/** This process's environment without the settings the command's own options should decide. */
function commandEnvironment(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const name of ['PORT', 'AUTH_PORT', 'ACCOUNTS_PORT', 'ORIGIN', 'DATA_DIR']) delete env[name];
	return env;
}

/** Milliseconds from the spawn to every host's /health answering 2xx. */
async function timeOneStart(): Promise<number> {
	const dataDir = mkdtempSync(join(tmpdir(), 'sso-bench-startup-'));
	const started = performance.now();
	const server: ChildProcess = spawn('node', ['bin/sso-flow-explorer.js', '--port', String(STARTUP_PORT), '--data-dir', dataDir], {
		cwd: ROOT,
		env: commandEnvironment(),
		stdio: ['ignore', 'ignore', 'inherit']
	});
	try {
		const waiting = new Set([0, 1, 2].map((offset) => `http://localhost:${STARTUP_PORT + offset}/health`));
		while (waiting.size > 0) {
			if (server.exitCode !== null) throw new Error(`bin/sso-flow-explorer.js exited (${server.exitCode}) before its hosts answered`);
			if (performance.now() - started > GIVE_UP_MS) throw new Error(`not every host answered within ${GIVE_UP_MS / 1000} s: ${[...waiting].join(', ')}`);
			for (const url of [...waiting]) if (await answers(url)) waiting.delete(url);
			if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}
		return performance.now() - started;
	} finally {
		await stopExplorer(server);
		rmSync(dataDir, { recursive: true, force: true });
	}
}

/** The median of STARTS starts, and every one. */
export async function timeStartup(): Promise<{ medianMs: number; eachMs: number[] }> {
	const eachMs: number[] = [];
	for (let i = 0; i < STARTS; i++) eachMs.push(await timeOneStart());
	return { medianMs: [...eachMs].sort((a, b) => a - b)[Math.floor(STARTS / 2)]!, eachMs };
}
