/**
 * Child process of the memory benchmark (run with --expose-gc, so each figure is taken after a full collection):
 * a million grant codes issued through the store and left to expire, then the ordinary traffic that purges them
 * (each new code purges up to 100 expired rows). Sends its figures to the parent over IPC.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFixtures } from '../src/lib/sandbox/fixtures';
import { openStore } from '../src/lib/sandbox/store';
import { LIMITS } from '../src/lib/protocol';

export interface Snapshot {
	rssMb: number;
	heapMb: number;
	dbFileMb: number;
	walFileMb: number;
	/** Pages in use (not on the free list), in MB: what the data needs, whatever the file's size. */
	liveDataMb: number;
	codeRows: number;
}

export interface MemoryFigures {
	codes: number;
	issueSeconds: number;
	purgeSeconds: number;
	/** New codes it took (ordinary issuing) until no expired code was left. */
	purgeIssues: number;
	baseline: Snapshot;
	peak: Snapshot;
	afterPurge: Snapshot;
}

/** Grace the store keeps expired rows for (store/purge.ts PURGE_GRACE_MS), plus a minute. */
const PAST_GRACE_SECONDS = 24 * 3600 + 60;
const BATCH = 10_000;
const MB = 1024 * 1024;
const EXPLORER_ORIGIN = 'http://localhost:3000';
/** How long the sandbox idles after the purging traffic before the last figures: past the store's checkpoint after a purge (1 s). */
const IDLE_AFTER_PURGE_MS = 1500;

function fileMb(path: string): number {
	try {
		return statSync(path).size / MB;
	} catch {
		return 0;
	}
}

async function main(): Promise<void> {
	const codes = Number(process.argv[2] ?? 1_000_000);
	const dir = mkdtempSync(join(tmpdir(), 'sso-bench-memory-'));
	const file = join(dir, 'sandbox.db');
	const store = openStore(file);
	// A code binds a client and a user of its workspace: the fixtures', as `npm start` gives a new database.
	applyFixtures(store, EXPLORER_ORIGIN);
	const user = store.getUserByLogin('student@example.com');
	if (!user) throw new Error('the fixtures have no student@example.com');
	// A second, read-only connection counts rows and pages without touching the store's own.
	const reader = new Database(file, { readonly: true });
	const count = reader.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM issued_codes');
	const pages = () => {
		const pageSize = reader.pragma('page_size', { simple: true }) as number;
		const pageCount = reader.pragma('page_count', { simple: true }) as number;
		const free = reader.pragma('freelist_count', { simple: true }) as number;
		return ((pageCount - free) * pageSize) / MB;
	};
	const snapshot = (): Snapshot => {
		(globalThis as { gc?: () => void }).gc?.();
		const memory = process.memoryUsage();
		return {
			rssMb: memory.rss / MB,
			heapMb: memory.heapUsed / MB,
			dbFileMb: fileMb(file),
			walFileMb: fileMb(`${file}-wal`),
			liveDataMb: pages(),
			codeRows: count.get()!.n
		};
	};
	const binding = { clientId: 'demo-client', userId: user.id, redirectUri: `${EXPLORER_ORIGIN}/callback` };
	const issueBatch = (n: number) => store.transaction(() => {
		for (let i = 0; i < n; i++) store.issueCode(binding);
	});

	const baseline = snapshot();
	let started = performance.now();
	for (let done = 0; done < codes; done += BATCH) issueBatch(Math.min(BATCH, codes - done));
	const issueSeconds = (performance.now() - started) / 1000;
	const peak = snapshot();

	store.advanceClock(LIMITS.codeTtlSeconds + PAST_GRACE_SECONDS);
	started = performance.now();
	let purgeIssues = 0;
	// Ordinary traffic after the codes expired: a new code now and then, each purging a batch of old ones.
	while (count.get()!.n > purgeIssues) {
		issueBatch(1_000);
		purgeIssues += 1_000;
	}
	const purgeSeconds = (performance.now() - started) / 1000;
	// Then the traffic stops: within a second the store checkpoints, which is when the file itself shrinks.
	await new Promise((resolve) => setTimeout(resolve, IDLE_AFTER_PURGE_MS));
	const afterPurge = snapshot();

	reader.close();
	store.close();
	rmSync(dir, { recursive: true, force: true });
	const figures: MemoryFigures = { codes, issueSeconds, purgeSeconds, purgeIssues, baseline, peak, afterPurge };
	process.send!(figures, () => process.exit(0));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
