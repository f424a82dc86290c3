/**
 * Transactions of the sandbox store: each one forgets the in-memory caches when it rolls back (the rollback undid
 * what they learnt inside it), and shared transactions commit every call made in one turn of the event loop
 * together (group commit).
 */
import type Database from 'better-sqlite3';

export interface Transactions {
	/** `fn` as a transaction whose failure also calls `forgetCached`. */
	wrap<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
	/** See `SandboxStore.sharedTransaction`. */
	shared<T>(fn: () => T): Promise<T>;
	/** Commits the calls waiting for the next shared transaction now. */
	commitWaiting(): void;
}

type Queued = { fn: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

export function openTransactions(db: Database.Database, forgetCached: () => void): Transactions {
	function wrap<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
		const run = db.transaction(fn);
		return (...args) => {
			try {
				return run(...args);
			} catch (error) {
				forgetCached();
				throw error;
			}
		};
	}

	let waiting: Queued[] = [];
	// Inside the shared transaction, each call runs in a savepoint of its own (a nested better-sqlite3 transaction).
	const savepoint = wrap((fn: () => unknown) => fn());
	const runShared = wrap((batch: Queued[]): Settled[] =>
		batch.map((item) => {
			try {
				return { ok: true, value: savepoint(item.fn) };
			} catch (error) {
				return { ok: false, error };
			}
		})
	);

	function commitWaiting(): void {
		const batch = waiting;
		waiting = [];
		if (batch.length === 0) return;
		let settled: Settled[];
		try {
			if (!db.open) throw new Error('the sandbox store is closed');
			settled = runShared(batch);
		} catch (error) {
			for (const item of batch) item.reject(error);
			return;
		}
		batch.forEach((item, i) => {
			const outcome = settled[i]!;
			if (outcome.ok) item.resolve(outcome.value);
			else item.reject(outcome.error);
		});
	}

	return {
		wrap,
		shared<T>(fn: () => T): Promise<T> {
			return new Promise<T>((resolve, reject) => {
				if (waiting.length === 0) setImmediate(commitWaiting);
				waiting.push({ fn, resolve: resolve as (value: unknown) => void, reject });
			});
		},
		commitWaiting
	};
}
