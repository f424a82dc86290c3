/**
 * Servers the security and fault specs start themselves: a target with a scripted handler (hostile, broken, or
 * just listening to prove nothing arrives), a separate explorer process whose output can be read and which can be
 * killed, and a read-only look into a sandbox's database.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { CHECKPOINT_PATH, checkpoint } from '../../../src/lib/platform/test-checkpoint';

export interface Target {
	port: number;
	/** `METHOD path` of every request that arrived. */
	received: string[];
	/** TCP connections that were opened, requests or not (the checkpoints' own not counted). */
	connections: number;
	/** Resolves once every connection and request sent before it has arrived (see testCheckpoint.ts). */
	checkpoint(): Promise<void>;
	close(): Promise<void>;
}

/** An HTTP server on `port` (0: any) and `host`; every request and connection is counted. */
export async function startTarget(
	port: number,
	handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
	host = '127.0.0.1'
): Promise<Target> {
	const sockets = new Set<Socket>();
	const target: Target = { port: 0, received: [], connections: 0, checkpoint: async () => undefined, close: async () => undefined };
	const server = http.createServer((req, res) => {
		if (req.url === CHECKPOINT_PATH) return void res.end(); // the test's own, not recorded
		target.received.push(`${req.method} ${req.url}`);
		handler(req, res);
	});
	server.on('connection', (socket) => {
		target.connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen({ port, host, ipv6Only: false }, resolve);
	});
	target.port = (server.address() as AddressInfo).port;
	target.checkpoint = async () => {
		await checkpoint(target.port);
		target.connections--;
	};
	target.close = () =>
		new Promise((resolve) => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return target;
}

export interface SpawnedExplorer {
	process: ChildProcess;
	/** Everything written to stdout and stderr so far. */
	output(): string;
	/** Resolves once /health answers. */
	ready: Promise<void>;
	/** Resolves once the process has exited and all it wrote has been read. */
	exited: Promise<number | null>;
}

/** `npm start` (scripts/start.js) on three given ports, with its own data directory. */
export function spawnExplorer(options: { port: number; dataDir: string; env?: Record<string, string> }): SpawnedExplorer {
	const { port, dataDir } = options;
	const child = spawn(process.execPath, [join(process.cwd(), 'scripts', 'start.js')], {
		cwd: process.cwd(),
		env: {
			PATH: process.env.PATH ?? '',
			PORT: String(port),
			AUTH_PORT: String(port + 1),
			ACCOUNTS_PORT: String(port + 2),
			ORIGIN: `http://localhost:${port}`,
			DATA_DIR: dataDir,
			OUTBOUND_TIMEOUT_MS: '3000',
			...options.env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	// 'close', not 'exit': by then its stdout and stderr are read to the end too.
	const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
	const ready = (async () => {
		const deadline = Date.now() + 20_000;
		while (Date.now() < deadline) {
			if (child.exitCode !== null) throw new Error(`the explorer exited (${child.exitCode}):\n${output}`);
			const ok = await fetch(`http://localhost:${port}/health`).then(
				(r) => r.ok,
				() => false
			);
			if (ok) return;
			await new Promise((r) => setTimeout(r, 100));
		}
		throw new Error(`the explorer did not answer /health within 20 s:\n${output}`);
	})();
	return { process: child, output: () => output, ready, exited };
}

/**
 * Reads the sandbox's database of a server's data directory, read-only (SQLite's WAL lets it while the server
 * runs). For what the interface gives no way to see: every client's secret, every token issued.
 */
export function readSandboxDatabase<T>(dataDir: string, read: (db: Database.Database) => T): T {
	const db = new Database(join(dataDir, 'sandbox.db'), { readonly: true, fileMustExist: true });
	try {
		return read(db);
	} finally {
		db.close();
	}
}

/**
 * For specs that start an explorer per test: a fresh data directory before each test (`dataDir`), and after it the
 * explorer it started (`server`) stopped and the directory removed.
 */
export function explorerPerTest(prefix: string): { dataDir: string; server: SpawnedExplorer | undefined } {
	const state: { dataDir: string; server: SpawnedExplorer | undefined } = { dataDir: '', server: undefined };
	test.beforeEach(() => {
		state.dataDir = mkdtempSync(join(tmpdir(), prefix));
	});
	test.afterEach(async () => {
		const { server } = state;
		if (server && server.process.exitCode === null) {
			server.process.kill('SIGKILL');
			await server.exited;
		}
		state.server = undefined;
		rmSync(state.dataDir, { recursive: true, force: true });
	});
	return state;
}

/**
 * From now on the sandbox's database keeps a copy of every client registered or replaced (a trigger, test-only),
 * in `test_every_client`: the scenarios' clients, with their secrets, are deleted with their throwaway workspaces
 * when each scenario finishes, and a test that checks those secrets never leaked must still know them.
 */
export function keepEveryClient(dataDir: string): void {
	const db = new Database(join(dataDir, 'sandbox.db'), { fileMustExist: true });
	try {
		db.pragma('busy_timeout = 5000');
		db.exec(`
			CREATE TABLE IF NOT EXISTS test_every_client (client_id TEXT NOT NULL, client_secret TEXT NOT NULL);
			CREATE TRIGGER IF NOT EXISTS test_keep_inserted_client AFTER INSERT ON clients
				BEGIN INSERT INTO test_every_client VALUES (new.client_id, new.client_secret); END;
			CREATE TRIGGER IF NOT EXISTS test_keep_updated_client AFTER UPDATE ON clients
				BEGIN INSERT INTO test_every_client VALUES (new.client_id, new.client_secret); END;
		`);
	} finally {
		db.close();
	}
}

/** Every client's id and secret the sandbox holds, and those it held since `keepEveryClient`. */
export function everySandboxClient(dataDir: string): { clientId: string; secret: string }[] {
	return readSandboxDatabase(dataDir, (db) => {
		const kept = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'test_every_client'").get() !== undefined;
		const sql = `SELECT client_id AS clientId, client_secret AS secret FROM clients${kept ? ' UNION SELECT client_id, client_secret FROM test_every_client' : ''}`;
		return db.prepare(sql).all() as { clientId: string; secret: string }[];
	});
}
