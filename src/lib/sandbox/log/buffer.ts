/**
 * The request log in the store's database (its `request_log` table), a log per workspace: entries wait in memory
 * and are written together, since one transaction per request would dominate the hot path's cost; a workspace's
 * subscribers (the live view) are told of each entry as it is recorded.
 */
import type Database from 'better-sqlite3';
import { WORKSPACE_LIMITS } from '../workspaces';
import { readLoggedExchange, type LogEntry, type SandboxHost } from '../../http/logged-exchange';
import type { LogEntryInput, LogEntrySource } from './entry';

/** How many log entries each workspace keeps; older ones are dropped as new ones arrive. */
export const LOG_CAPACITY = WORKSPACE_LIMITS.logEntries;
/**
 * Log entries are written together once the sandbox has had no request for LOG_IDLE_MS, and at the latest
 * LOG_MAX_WAIT_MS after the oldest waiting one arrived, a slice at a time; reading the log writes them first.
 */
const LOG_IDLE_MS = 200;
const LOG_MAX_WAIT_MS = 5000;
/**
 * Entries the timer writes per turn of the event loop: building, masking and inserting a full ring of 500 at once
 * held every listener of the process for 25 to 40 ms, every 5 s under load (the p99 of the hot path).
 */
const WRITE_SLICE = 25;

/** An entry as it is recorded, before it is written: its source builds it (once) when asked. */
export interface LiveLogEntry {
	atMs: number;
	host: SandboxHost;
	entry: LogEntrySource;
}

/** Told of each entry a workspace's log records, as it is recorded. */
export type LogListener = (entry: LiveLogEntry) => void;

export interface LogBuffer {
	log(workspace: string, input: LogEntryInput): void;
	/**
	 * Calls `listener` with each entry the workspace's log records from now on; answers the unsubscribe. With no
	 * listener a recorded entry costs one failed map lookup more, and none is built early.
	 */
	subscribe(workspace: string, listener: LogListener): () => void;
	/** The workspace's newest `limit` entries, newest first, once the waiting ones are written. */
	recent(workspace: string, limit: number): LogEntry[];
	/** Writes the waiting entries now. */
	flush(): void;
	/** Drops the workspace's waiting entries unwritten (it is being cleared or removed). */
	discardWaiting(workspace: string): void;
}

/**
 * An entry waiting in the ring. A class, not an object literal: V8 pretenures the objects of an allocation site
 * (an object or array literal) when most of them survive a minor GC, as the ring's do whenever few requests came
 * between two GCs. The site's objects are then allocated in the old generation for good: each dead one keeps the
 * young objects it points to alive until a full GC, so minor GCs copy and promote every request's garbage. Under
 * load with many workspaces that halved me.json's throughput and made every minor GC take 8 to 14 ms. Class
 * instances carry no allocation site, and neither do the capture's parts (capture.ts).
 */
class PendingEntry implements LiveLogEntry {
	constructor(
		readonly atMs: number,
		readonly host: SandboxHost,
		readonly entry: LogEntrySource
	) {}
}

/**
 * One workspace's entries waiting to be written. Only the newest LOG_CAPACITY can survive the trim, so they wait
 * in a ring of that size: under load, older ones are overwritten before they are ever built.
 */
class PendingRing {
	private readonly slots: (PendingEntry | undefined)[] = new Array(LOG_CAPACITY);
	private next = 0;
	private count = 0;

	push(entry: PendingEntry): void {
		this.slots[this.next] = entry;
		this.next = (this.next + 1) % LOG_CAPACITY;
		this.count = Math.min(this.count + 1, LOG_CAPACITY);
	}

	take(): PendingEntry[] {
		const entries: PendingEntry[] = [];
		for (let i = this.count; i > 0; i--) {
			const slot = (this.next - i + LOG_CAPACITY) % LOG_CAPACITY;
			entries.push(this.slots[slot]!);
			this.slots[slot] = undefined;
		}
		this.count = 0;
		return entries;
	}
}

/** The request log in the store's database (its `request_log` table), a log per workspace, written in batches. */
export function openLogBuffer(db: Database.Database): LogBuffer {
	const insertLog = db.prepare<[string, string, string, string]>('INSERT INTO request_log (workspace, at, host, entry) VALUES (?, ?, ?, ?)');
	const trimLog = db.prepare<{ workspace: string; keep: number }>(
		`DELETE FROM request_log WHERE workspace = @workspace AND id <= (
			SELECT id FROM request_log WHERE workspace = @workspace ORDER BY id DESC LIMIT 1 OFFSET @keep)`
	);
	const recentLog = db.prepare<[string, number], { id: number; at: string; host: SandboxHost; entry: string }>(
		'SELECT id, at, host, entry FROM request_log WHERE workspace = ? ORDER BY id DESC LIMIT ?'
	);

	const pending = new Map<string, PendingRing>();
	const listeners = new Map<string, Set<LogListener>>();
	let logFlushTimer: ReturnType<typeof setTimeout> | undefined;
	let firstPendingAtMs = 0;
	let lastLogAtMs = 0;

	function flushLogWhenIdle(): void {
		const now = Date.now();
		if (now - lastLogAtMs < LOG_IDLE_MS && now - firstPendingAtMs < LOG_MAX_WAIT_MS) {
			logFlushTimer = setTimeout(flushLogWhenIdle, LOG_IDLE_MS - (now - lastLogAtMs)).unref();
			return;
		}
		logFlushTimer = undefined;
		takeWaiting();
		nextSlice ??= setImmediate(writeSlice);
	}
	/** Entries taken from the rings, oldest first, each workspace's in one batch; written a slice at a time. */
	let writing: { workspace: string; entries: PendingEntry[]; written: number }[] = [];
	let nextSlice: ReturnType<typeof setImmediate> | undefined;

	function takeWaiting(): void {
		for (const [workspace, ring] of pending) writing.push({ workspace, entries: ring.take(), written: 0 });
		pending.clear();
	}
	/** Writes up to `limit` of the taken entries in one transaction; a workspace's log is trimmed once its batch is in. */
	const writeTaken = db.transaction((limit: number) => {
		let left = limit;
		while (left > 0 && writing.length > 0) {
			const batch = writing[0]!;
			const end = Math.min(batch.entries.length, batch.written + left);
			for (; batch.written < end; batch.written++, left--) {
				const { atMs, host, entry } = batch.entries[batch.written]!;
				insertLog.run(batch.workspace, new Date(atMs).toISOString(), host, JSON.stringify(entry.build()));
			}
			if (batch.written < batch.entries.length) break;
			trimLog.run({ workspace: batch.workspace, keep: LOG_CAPACITY });
			writing.shift();
		}
	});
	/** The timer's write: a slice per turn of the event loop, so no request waits for the whole batch. */
	function writeSlice(): void {
		nextSlice = undefined;
		if (!db.open) return void (writing = []);
		writeTaken(WRITE_SLICE);
		if (writing.length > 0) nextSlice = setImmediate(writeSlice);
	}
	/** Writes every waiting entry now, in one transaction (a reader of the log, a clear, the store closing). */
	function flushLog(): void {
		clearTimeout(logFlushTimer);
		logFlushTimer = undefined;
		clearImmediate(nextSlice);
		nextSlice = undefined;
		takeWaiting();
		if (!db.open) return void (writing = []);
		if (writing.length > 0) writeTaken(Infinity);
	}

	return {
		log(workspace, { host, entry }) {
			lastLogAtMs = Date.now();
			let ring = pending.get(workspace);
			if (!ring) pending.set(workspace, (ring = new PendingRing()));
			const pendingEntry = new PendingEntry(lastLogAtMs, host, entry);
			ring.push(pendingEntry);
			if (logFlushTimer === undefined) {
				firstPendingAtMs = lastLogAtMs;
				// Unreferenced: a waiting log entry never keeps the process alive (close() writes it).
				logFlushTimer = setTimeout(flushLogWhenIdle, LOG_IDLE_MS).unref();
			}
			const watching = listeners.get(workspace);
			if (watching) for (const listener of watching) listener(pendingEntry);
		},
		subscribe(workspace, listener) {
			let watching = listeners.get(workspace);
			if (!watching) listeners.set(workspace, (watching = new Set()));
			watching.add(listener);
			return () => {
				watching.delete(listener);
				if (watching.size === 0 && listeners.get(workspace) === watching) listeners.delete(workspace);
			};
		},
		recent(workspace, limit) {
			flushLog();
			return recentLog.all(workspace, limit).flatMap((row) => {
				const entry = readLoggedExchange(JSON.parse(row.entry), row.id);
				return entry ? [{ ...row, entry }] : [];
			});
		},
		flush: flushLog,
		discardWaiting(workspace) {
			pending.delete(workspace);
			writing = writing.filter((batch) => batch.workspace !== workspace);
		}
	};
}

