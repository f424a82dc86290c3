import { describe, expect, it } from 'vitest';
import type { CorpusCase } from '../../tests/corpus/cases';
import type { Told } from './channels';
import { grade, regressions } from './grade';

const bug: CorpusCase = {
	app: 'node-fetch',
	bug: 'no-user-agent',
	journey: { decision: 'authorise' },
	cause: 'No User-Agent on me.json.',
	fix: 'Send one.',
	expect: { cause: [/user-agent/i], fix: [/user-agent/i] }
};
const correct: CorpusCase = { ...bug, bug: 'none', expect: null };

const told = (severity: Told['verdict']['severity'], what: string, fix: string, findings: string[] = []): Told => ({
	verdict: { severity, what, cause: '', fix, row: null },
	findings
});

describe('grade', () => {
	it('is right when the verdict names the cause and the fix', () => {
		expect(grade(bug, told('error', 'me.json answered 403: no User-Agent header', 'Set a User-Agent header'))).toBe('right');
	});

	it('is partly when the verdict names only the cause, or only a secondary finding does', () => {
		expect(grade(bug, told('error', 'me.json answered 403: no User-Agent header', 'Ask the service'))).toBe('partly');
		expect(grade(bug, told('error', 'The callback failed', 'Pass the code unchanged', ['me.json sent no User-Agent']))).toBe('partly');
	});

	it('is missed when nothing names it, and when the verdict says nothing is wrong whatever a finding says', () => {
		expect(grade(bug, told('error', 'The callback failed', 'Pass the code unchanged'))).toBe('missed');
		expect(grade(bug, told('success', 'Nothing to fix', 'Nothing to fix', ['me.json sent no User-Agent']))).toBe('missed');
	});

	it('is a false alarm when a correct app gets an error or a warning, right when it gets none', () => {
		expect(grade(correct, told('warning', 'The link carries state', 'Drop state'))).toBe('false-alarm');
		expect(grade(correct, told('cancel', 'The user cancelled', 'Nothing to fix'))).toBe('right');
	});

	it('is no-flow when the channel found no flow', () => {
		expect(grade(bug, null)).toBe('no-flow');
	});
});

describe('regressions', () => {
	it('names every cell graded worse than the baseline, and counts new cells as no regression', () => {
		const baseline = { a: { live: 'right', har: 'partly' }, b: { live: 'missed' } } as const;
		const now = { a: { live: 'partly', har: 'right' }, b: { live: 'false-alarm' }, c: { live: 'missed' } } as const;
		expect(regressions(baseline, now)).toEqual(['a / live: right → partly', 'b / live: missed → false-alarm']);
	});
});
