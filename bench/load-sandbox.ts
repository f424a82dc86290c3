/**
 * Ours under load as `npm start` runs it: the built explorer and both sandbox hosts in one process
 * (`node scripts/start.js`, request log on), its database prepared first with the fixtures, the me.json token and
 * the grant codes, then as many workspaces as it holds, created through the control API.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFixtures, FIXTURE_CLIENTS } from '../src/lib/sandbox/fixtures';
import { openStore } from '../src/lib/sandbox/store';
import { WORKSPACE_LIMITS } from '../src/lib/sandbox/workspaces';
import { buildExplorer, EXPLORER, PORT, startExplorer, stopExplorer } from './explorer';

export const BENCH_CLIENT = FIXTURE_CLIENTS[0]!;
/** The fixtures register `{explorerOrigin}/callback`. */
export const BENCH_REDIRECT_URI = `${EXPLORER}/callback`;
/** The accounts host by address: the load runs stay on 127.0.0.1. */
export const ACCOUNTS_URL = `http://127.0.0.1:${PORT + 2}`;
/** As many as the sandbox holds: its limit counts the default workspace. */
export const WORKSPACES = WORKSPACE_LIMITS.workspaces - 1;
/** Workspace creations in flight at once. */
const CREATION_CONCURRENCY = 8;

export interface StartedSandbox {
	accountsUrl: string;
	accessToken: string;
	/** Grant codes issued in the database before the start, each to be exchanged once. */
	codes: string[];
	stop(): Promise<void>;
}

/**
 * The sandbox's database as `npm start` would make it (fixtures of the default workspace), plus an access token
 * for me.json and `codeCount` grant codes, issued through the store in transactions of 5,000.
 */
function prepareDatabase(dataDir: string, codeCount: number): { accessToken: string; codes: string[] } {
	mkdirSync(dataDir, { recursive: true });
	const store = openStore(join(dataDir, 'sandbox.db'));
	try {
		applyFixtures(store, EXPLORER);
		const user = store.getUserByLogin('student@example.com');
		if (!user) throw new Error('the fixtures have no student@example.com');
		const issue = () => store.issueCode({ clientId: BENCH_CLIENT.client_id, userId: user.id, redirectUri: BENCH_REDIRECT_URI });
		const exchanged = store.exchangeCode(issue(), BENCH_CLIENT.client_id, BENCH_REDIRECT_URI);
		if (!exchanged.ok) throw new Error(`could not exchange a code for the me.json token: ${exchanged.cause}`);
		const codes: string[] = [];
		while (codes.length < codeCount) store.transaction(() => {
			for (let i = 0; i < 5000 && codes.length < codeCount; i++) codes.push(issue());
		});
		return { accessToken: exchanged.tokens.access_token, codes };
	} finally {
		store.close();
	}
}

/** `POST /sandbox/workspaces` from this machine (which administers the sandbox when no admin token is set). */
async function createWorkspaces(count: number): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const name = `bench ${++next}`;
			const res = await fetch(`${ACCOUNTS_URL}/sandbox/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
			if (res.status !== 201) throw new Error(`creating workspace "${name}" answered ${res.status}: ${await res.text()}`);
		}
	};
	await Promise.all(Array.from({ length: CREATION_CONCURRENCY }, worker));
}

export async function startSandboxAsNpmStart(codeCount: number, log: (line: string) => void): Promise<StartedSandbox> {
	buildExplorer(log);
	const dir = mkdtempSync(join(tmpdir(), 'sso-bench-load-'));
	let server: ChildProcess | undefined;
	try {
		const started = performance.now();
		const { accessToken, codes } = prepareDatabase(join(dir, 'data'), codeCount);
		log(`prepared the database: ${codes.length} grant codes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
		server = await startExplorer(join(dir, 'data'));
		const creating = performance.now();
		await createWorkspaces(WORKSPACES);
		log(`created ${WORKSPACES} workspaces through POST /sandbox/workspaces in ${((performance.now() - creating) / 1000).toFixed(1)} s`);
		const running = server;
		return {
			accountsUrl: ACCOUNTS_URL,
			accessToken,
			codes,
			stop: async () => {
				await stopExplorer(running);
				rmSync(dir, { recursive: true, force: true });
			}
		};
	} catch (error) {
		if (server) await stopExplorer(server);
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}
