/**
 * Which scenarios reproduce what a run shows, so a support engineer holding a customer's HAR can replay the same
 * outcome on the sandbox. A scenario matches an error annotation by its row, and by its cause when the annotation
 * names one that a scenario shows; a cancelled redirect matches the cancel scenario. Successes are not listed:
 * there is nothing to reproduce.
 */
import type { ErrorRowId } from '$lib/protocol';
import { SCENARIOS, type Scenario } from './library';

/** What an annotation says it matched. */
export interface Observed {
	rowId?: ErrorRowId;
	causeId?: string;
}

export type ScenarioLink = Pick<Scenario, 'id' | 'title'>;

function matching(observed: Observed, library: readonly Scenario[]): Scenario[] {
	const sameRow = library.filter((s) => s.expected.row === observed.rowId);
	const sameCause = sameRow.filter((s) => s.expected.cause === observed.causeId);
	return sameCause.length > 0 ? sameCause : sameRow;
}

/** The scenarios, each once, in the order the run met their outcomes. */
export function scenariosReproducing(observed: readonly Observed[], cancelled: boolean, library: readonly Scenario[] = SCENARIOS): ScenarioLink[] {
	const found = [
		...(cancelled ? library.filter((s) => s.expected.row === 'cancel') : []),
		...observed.filter((o) => o.rowId !== undefined).flatMap((o) => matching(o, library))
	];
	return [...new Map(found.map((s) => [s.id, { id: s.id, title: s.title }])).values()];
}
