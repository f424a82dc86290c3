import { describe, expect, it } from 'vitest';
import { CASES, caseName } from '../../tests/corpus/cases';
import { summary } from './table';

const bug = caseName(CASES.find((c) => c.expect !== null)!);
const correct = CASES.filter((c) => c.expect === null).map(caseName);

describe('the corpus summary', () => {
	it('counts the seeded bugs and the correct journeys apart, each with the grades it can have', () => {
		const matrix = { [bug]: { live: 'partly' as const }, [correct[0]!]: { live: 'right' as const }, [correct[1]!]: { live: 'false-alarm' as const } };
		expect(summary(matrix, ['live'], 'bug')).toEqual([
			'| Seeded bugs, 1 cases | right | out-of-sight | partly | missed | no-flow |',
			'|---|---:|---:|---:|---:|---:|',
			'| live | 0 | 0 | 1 | 0 | 0 |'
		]);
		expect(summary(matrix, ['live'], 'correct')).toEqual([
			'| Correct apps (right: no finding), 2 cases | right | false-alarm | no-flow |',
			'|---|---:|---:|---:|',
			'| live | 1 | 1 | 0 |'
		]);
	});
});
