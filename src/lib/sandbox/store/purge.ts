/**
 * Purging long-expired codes and access tokens, a few at a time as new codes are issued, and giving the space
 * they held back to the file system: incremental vacuum, then a checkpoint so the database file itself shrinks.
 */
import type Database from 'better-sqlite3';

/** Expired codes and tokens are kept this long (for a precise invalid_grant cause), then purged. */
const PURGE_GRACE_MS = 24 * 60 * 60 * 1000;
/** At most this many rows are purged per issue, so purging stays cheap. */
const PURGE_BATCH = 100;
/** Free pages given back to the file system after a purge: more than a purge frees, so the file keeps up. */
const VACUUM_PAGES = 64;
/**
 * A purge shrinks the database file only once a checkpoint copies it there, and SQLite checkpoints only every
 * 1000 pages written: traffic that stops after a purge could leave the file at its old size. So a checkpoint
 * follows each purge within this long (at most one per period, and none while the process is exiting).
 */
const CHECKPOINT_AFTER_PURGE_MS = 1000;

export interface Purger {
	/** Purges the workspace's codes and tokens that expired more than the grace before `nowMs` (its clock); returns how many rows went. */
	purgeExpired(workspace: string, nowMs: number): number;
	/** Cancels a checkpoint still to come (the database is closing). */
	close(): void;
}

export function openPurger(db: Database.Database): Purger {
	// Per workspace: each has its own clock, so what has long expired in one may still be valid in another.
	const purgeCodes = db.prepare<[string, number, number]>(
		'DELETE FROM issued_codes WHERE id IN (SELECT id FROM issued_codes WHERE workspace = ? AND expires_ms < ? LIMIT ?)'
	);
	const purgeTokens = db.prepare<[string, number, number]>(
		'DELETE FROM issued_tokens WHERE id IN (SELECT id FROM issued_tokens WHERE workspace = ? AND expires_ms IS NOT NULL AND expires_ms < ? LIMIT ?)'
	);

	let checkpointTimer: ReturnType<typeof setTimeout> | undefined;
	function checkpointAfterPurge(): void {
		checkpointTimer = undefined;
		// PASSIVE: copies what no reader still needs and never waits; a busy moment just leaves it to the next one.
		if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
	}

	return {
		purgeExpired(workspace, nowMs) {
			const before = nowMs - PURGE_GRACE_MS;
			const purged = purgeCodes.run(workspace, before, PURGE_BATCH).changes + purgeTokens.run(workspace, before, PURGE_BATCH).changes;
			if (purged > 0) {
				db.pragma(`incremental_vacuum(${VACUUM_PAGES})`);
				checkpointTimer ??= setTimeout(checkpointAfterPurge, CHECKPOINT_AFTER_PURGE_MS).unref();
			}
			return purged;
		},
		close: () => clearTimeout(checkpointTimer)
	};
}
