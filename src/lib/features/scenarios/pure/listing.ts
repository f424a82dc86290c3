/**
 * The /scenarios page's list: the scenarios run on the page first, the latest run first, then the others in the
 * library's order; and its filter by result.
 */

/** `passed` as a scenario's result says it; undefined for one not run (or not finished) on the page. */
type Passed = boolean | 'skipped' | undefined;

export type ScenarioFilter = 'all' | 'failed' | 'passed' | 'skipped' | 'not-run';

export function matchesScenarioFilter(passed: Passed, filter: ScenarioFilter): boolean {
	if (filter === 'all') return true;
	if (filter === 'not-run') return passed === undefined;
	return passed === (filter === 'failed' ? false : filter === 'passed' ? true : 'skipped');
}

/** `startedAt(id)`: when the page last started it (a rising number), undefined if never. */
export function newestRunFirst<S extends { id: string }>(scenarios: readonly S[], startedAt: (id: string) => number | undefined): S[] {
	return scenarios
		.map((scenario, index) => ({ scenario, index, started: startedAt(scenario.id) }))
		.sort((a, b) => (b.started ?? -Infinity) - (a.started ?? -Infinity) || a.index - b.index)
		.map((e) => e.scenario);
}
