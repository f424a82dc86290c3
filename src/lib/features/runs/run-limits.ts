/**
 * How much the saved runs may hold, so that no one person's saves (a script importing in a loop, a team's many
 * walks) can fill the server's disk for everyone, and a full disk never becomes a failed write in the middle of a
 * walk. Two limits, each checked as a run is written, with nothing written when a save would break one:
 *
 * - Per session (a run's owner): at most `runsPerOwner` runs and `bytesPerOwner` of stored JSON. Deleting runs on
 *   /runs makes room again.
 * - For the whole store: `SAVED_RUNS_MAX_MB` (configuration), the database's used pages. A visitor who keeps no
 *   cookie is a new session at every save, so only this limit bounds them: the operator sets it to what the disk
 *   can spare, and a full store refuses new saves with a message saying so rather than failing.
 */
import { quotaExceeded } from '$lib/platform/errors';
import { formatBytes } from './pure/har/har';
import { formatCount as count } from '$lib/counts';

export interface OwnerLimitValues {
	runsPerOwner: number;
	bytesPerOwner: number;
}

export const RUN_LIMITS: OwnerLimitValues = {
	runsPerOwner: 1000,
	bytesPerOwner: 256 * 1024 * 1024
};

/** What an owner's runs take, and what this save adds to it. */
export interface OwnerUsage {
	runs: number;
	bytes: number;
}

/**
 * Refuses (throws `quotaExceeded`) a save that takes its owner's runs past a limit. `before`: the owner's runs
 * without this save; `after`: with it. A save that adds nothing (a walk saved again, unchanged) always passes, so
 * an owner over a limit (the limits were lowered) can still finish what they are doing.
 */
export function checkOwnerLimits(before: OwnerUsage, after: OwnerUsage, limits: OwnerLimitValues = RUN_LIMITS): void {
	if (after.runs > before.runs && after.runs > limits.runsPerOwner) {
		throw quotaExceeded(
			`You have ${count(before.runs)} saved runs, the most one session keeps. Delete runs you no longer need on /runs (each run's page has Delete), then save again.`
		);
	}
	if (after.bytes > before.bytes && after.bytes > limits.bytesPerOwner) {
		throw quotaExceeded(
			`Your saved runs would take ${formatBytes(after.bytes)}, more than the ${formatBytes(limits.bytesPerOwner)} one session keeps. Delete runs you no longer need on /runs (large HAR imports first), then save again.`
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
