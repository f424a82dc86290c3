/**
 * How much the saved runs may hold, so that no one person's saves (a script importing in a loop, a team's many
 * walks) can fill the server's disk for everyone, and a full disk never becomes a failed write in the middle of a
 * walk. Three limits, each checked as a run is written, with nothing written when a save would break one:
 *
 * - Per session (a run's owner): at most `runsPerOwner` runs and `bytesPerOwner` of stored JSON. Deleting runs on
 *   /runs makes room again.
 * - Per visitor (the address whose session first saved the run, http/visitor.ts): `runsPerVisitor` and
 *   `bytesPerVisitor`. A visitor who keeps no cookie is a new session at every save; this bounds them, so one
 *   address cannot fill the store for everyone. This machine's own saves are not counted (client-address.ts).
 * - For the whole store: `SAVED_RUNS_MAX_MB` (configuration), the database's used pages: the operator sets it to
 *   what the disk can spare, and a full store refuses new saves with a message saying so rather than failing.
 */
import { quotaExceeded } from '$lib/platform/errors';
import { formatBytes } from './pure/har/har';
import { formatCount as count } from '$lib/counts';

export interface OwnerLimitValues {
	runsPerOwner: number;
	bytesPerOwner: number;
	runsPerVisitor: number;
	bytesPerVisitor: number;
}

export const RUN_LIMITS: OwnerLimitValues = {
	runsPerOwner: 1000,
	bytesPerOwner: 256 * 1024 * 1024,
	// A team behind one address keeps a few sessions' worth; SAVED_RUNS_MAX_MB's default holds four such addresses.
	runsPerVisitor: 2000,
	bytesPerVisitor: 512 * 1024 * 1024
};

/** What an owner's runs take, and what this save adds to it. */
export interface OwnerUsage {
	runs: number;
	bytes: number;
}

/** Whose runs a limit counts: the session's that saved them, or its address's. */
export type Counted = 'owner' | 'visitor';

const KEPT_BY: Record<Counted, string> = { owner: 'one session keeps', visitor: 'one address keeps, across all its sessions' };

/**
 * Refuses (throws `quotaExceeded`) a save that takes an owner's (or a visitor's) runs past a limit. `before`: their
 * runs without this save; `after`: with it. A save that adds nothing (a walk saved again, unchanged) always passes,
 * so anyone over a limit (the limits were lowered) can still finish what they are doing.
 */
export function checkOwnerLimits(before: OwnerUsage, after: OwnerUsage, limits: OwnerLimitValues = RUN_LIMITS, counted: Counted = 'owner'): void {
	const maxRuns = counted === 'owner' ? limits.runsPerOwner : limits.runsPerVisitor;
	const maxBytes = counted === 'owner' ? limits.bytesPerOwner : limits.bytesPerVisitor;
	const whose = counted === 'owner' ? 'You have' : 'Your address has';
	if (after.runs > before.runs && after.runs > maxRuns) {
		throw quotaExceeded(
			`${whose} ${count(before.runs)} saved runs, the most ${KEPT_BY[counted]}. Delete runs you no longer need on /runs (each run's page has Delete), then save again.`
		);
	}
	if (after.bytes > before.bytes && after.bytes > maxBytes) {
		throw quotaExceeded(
			`${counted === 'owner' ? 'Your' : "Your address's"} saved runs would take ${formatBytes(after.bytes)}, more than the ${formatBytes(maxBytes)} ${KEPT_BY[counted]}. Delete runs you no longer need on /runs (large HAR imports first), then save again.`
		);
	}
}

/** Refuses a save when the store's used space has reached `maxBytes` (SAVED_RUNS_MAX_MB). */
export function checkStoreLimit(usedBytes: number, maxBytes: number): void {
	if (usedBytes < maxBytes) return;
	throw quotaExceeded(
		`This server's saved runs have reached ${formatBytes(maxBytes)}, the most it keeps (SAVED_RUNS_MAX_MB). Nothing was saved. Delete runs you no longer need on /runs, or ask whoever runs this server to raise the limit.`
	);
}
