/**
 * The exchange pieces a run store last wrote for the runs it saved most recently, so that saving the same run again
 * leaves its unchanged rows alone (store.ts `write`): a walk saves its whole run after every step, however long it
 * grows. Invalidation: a run's entry is replaced by each save of it and dropped when the run is removed. A run's
 * pieces are kept from its second save on (its first only notes the id): an import is saved once, and keeping its
 * thousands of pieces would hold them in memory for nothing. At most `capacity` runs are kept, the least recently
 * saved forgotten first: its next save writes every row, as its first did.
 */
import type { RedactedExchange } from '$lib/features/runs/pure/redact/redact';

export class WrittenPieces {
	/** null: saved once, nothing kept yet. */
	private readonly runs = new Map<string, readonly RedactedExchange[] | null>();

	constructor(private readonly capacity = 32) {}

	get(runId: string): readonly RedactedExchange[] | undefined {
		return this.runs.get(runId) ?? undefined;
	}

	remember(runId: string, pieces: readonly RedactedExchange[]): void {
		const savedBefore = this.runs.has(runId);
		this.runs.delete(runId);
		this.runs.set(runId, savedBefore ? pieces : null);
		if (this.runs.size > this.capacity) this.runs.delete(this.runs.keys().next().value!);
	}

	forget(runId: string): void {
		this.runs.delete(runId);
	}
}
