/**
 * The exchange pieces a run store last wrote for the runs it saved most recently, so that saving the same run again
 * leaves its unchanged rows alone (store.ts `write`): a walk saves its whole run after every step. Invalidation: a
 * run's entry is replaced by each save of it and dropped when the run is removed. Only runs of up to
 * MAX_EXCHANGES exchanges are kept (an import's thousands are saved once), and at most `capacity` of them, the
 * least recently saved forgotten first: its next save writes every row, as its first did.
 */
import type { RedactedExchange } from '$lib/features/runs/pure/redact/redact';

const MAX_EXCHANGES = 100;

export class WrittenPieces {
	private readonly runs = new Map<string, readonly RedactedExchange[]>();

	constructor(private readonly capacity = 32) {}

	get(runId: string): readonly RedactedExchange[] | undefined {
		return this.runs.get(runId);
	}

	remember(runId: string, pieces: readonly RedactedExchange[]): void {
		this.runs.delete(runId);
		if (pieces.length > MAX_EXCHANGES) return;
		this.runs.set(runId, pieces);
		if (this.runs.size > this.capacity) this.runs.delete(this.runs.keys().next().value!);
	}

	forget(runId: string): void {
		this.runs.delete(runId);
	}
}
