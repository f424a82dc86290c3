/**
 * How much the saved runs may hold, so that no one person's saves (a script importing in a loop, a team's many
 * walks) can fill the server's disk for everyone, and a full disk never becomes a failed write in the middle of a
 * walk. Three limits, each checked as a run is written, with nothing written when a save would break one:
 *
 * - Per session (a run's owner): at most `runsPerOwner` runs and `bytesPerOwner` of stored JSON. Deleting runs on
 *   /runs makes room again.
 * - Per visitor (the address whose session first saved the run, http/visitor.ts), over a sliding day: at most
 *   `runsPerVisitor` runs and `bytesPerVisitor` saved in VISITOR_WINDOW_MS. A visitor who keeps no cookie is a new
 *   session at every save; this bounds how fast they fill the store for everyone. A rate, not a quota: a team's
 *   address never stays locked out by runs its expired sessions can no longer list or delete. This machine's own
 *   saves are not counted (client-address.ts).
 * - For the whole store: `SAVED_RUNS_MAX_MB` (configuration), the database's used pages: the operator sets it to
 *   what the disk can spare, and a full store refuses new saves with a message saying so rather than failing.
 */
import { quotaExceeded, tooManyRequests } from '$lib/platform/errors';
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
	// In a day, a team behind one address saves a few sessions' worth; SAVED_RUNS_MAX_MB's default holds four such days.
	runsPerVisitor: 2000,
	bytesPerVisitor: 512 * 1024 * 1024
};

/** The sliding window a visitor's saves are counted over. */
export const VISITOR_WINDOW_MS = 24 * 60 * 60 * 1000;

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

/**
 * Refuses (throws `tooManyRequests`: waiting lifts it) a save that takes what its visitor saved in the last
 * VISITOR_WINDOW_MS past a limit; `before` and `after` as for `checkOwnerLimits`.
 */
export function checkVisitorLimits(before: OwnerUsage, after: OwnerUsage, limits: OwnerLimitValues = RUN_LIMITS): void {
	const tooMany = after.runs > before.runs && after.runs > limits.runsPerVisitor;
	const tooLarge = after.bytes > before.bytes && after.bytes > limits.bytesPerVisitor;
	if (!tooMany && !tooLarge) return;
	const what = tooMany ? `${count(before.runs)} runs` : `${formatBytes(before.bytes)} of runs`;
	const most = tooMany ? `${count(limits.runsPerVisitor)} runs` : formatBytes(limits.bytesPerVisitor);
	throw tooManyRequests(
		`Your address has saved ${what} in the last 24 hours, across all its sessions; one address may save at most ${most} a day. Nothing was saved: try again later, as your oldest saves of the day turn a day old.`
	);
}

/** Refuses a save when the store's used space has reached `maxBytes` (SAVED_RUNS_MAX_MB). */
export function checkStoreLimit(usedBytes: number, maxBytes: number): void {
	if (usedBytes < maxBytes) return;
	throw quotaExceeded(
		`This server's saved runs have reached ${formatBytes(maxBytes)}, the most it keeps (SAVED_RUNS_MAX_MB). Nothing was saved. Delete runs you no longer need on /runs, or ask whoever runs this server to raise the limit.`
	);
}
