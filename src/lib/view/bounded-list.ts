/**
 * A list that stays short however much it holds (the live page's flows, the scenarios): what matches the filter,
 * the first `shown` of it, and how many more "Show older" would reveal. The page grows by a step on demand only.
 */

/** Items a list shows at first, and adds at each "Show older". */
export const LIST_STEP = 10;

export interface Capped<T> {
	shown: T[];
	/** Matching items not shown yet. */
	more: number;
	/** Items the filter hides. */
	filteredOut: number;
}

export function capList<T>(items: readonly T[], matches: (item: T) => boolean, shown: number): Capped<T> {
	const matching = items.filter(matches);
	return { shown: matching.slice(0, Math.max(0, shown)), more: Math.max(0, matching.length - shown), filteredOut: items.length - matching.length };
}
