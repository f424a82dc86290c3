import { describe, expect, it } from 'vitest';
import { findScenario } from './library';
import { describeExpected, describeObserved, exitCode, formatReport, scrub, summaryLine } from './report';

const twice = findScenario('code-exchanged-twice')!;
const success = findScenario('success')!;
const passed = { id: twice.id, expected: twice.expected, observed: { step: 'token' as const, row: 'token-invalid-grant' as const, cause: 'used', summary: '' }, passed: true };
const failed = { ...passed, id: 'other', observed: { ...passed.observed, cause: 'expired' }, passed: false, reason: 'the cause was expired' };
const skipped = { id: success.id, expected: success.expected, observed: null, passed: 'skipped' as const, reason: 'Needs a grant code' };

describe('the headless report', () => {
	it('says expected and observed as step, row and cause, with the check', () => {
		expect(describeExpected(twice.expected)).toBe('token: token-invalid-grant (used)');
		expect(describeExpected(success.expected)).toBe('me: success; 1 verification listed, key `supergroup`');
		expect(describeObserved(passed.observed)).toBe('token: token-invalid-grant (used)');
		expect(describeObserved(null)).toBe('—');
	});

	it('closes with the counts, alone on a line', () => {
		expect(summaryLine([passed, failed, skipped, skipped])).toBe('1 passed, 1 failed, 2 skipped');
	});

	it('fails the run on any deviation, not on a skip', () => {
		expect(exitCode([passed, skipped])).toBe(0);
		expect(exitCode([passed, failed, skipped])).toBe(1);
	});

	it('prints a table row per scenario and why each failure or skip happened', () => {
		const lines = formatReport([passed, failed, skipped]).split('\n');
		expect(lines[0]).toMatch(/^scenario\s+\| expected\s+\| observed\s+\| result$/);
		expect(lines.slice(2, 5).map((l) => l.split(' | ').at(-1)?.trim())).toEqual(['pass', 'FAIL', 'skipped']);
		expect(lines).toContain('FAIL other: the cause was expired');
		expect(lines).toContain('skipped success: Needs a grant code');
	});

	it('never prints a known secret', () => {
		const leaky = { ...failed, reason: 'sent s3cr3t-value and tok-123456' };
		const text = formatReport([leaky], ['s3cr3t-value', 'tok-123456']);
		expect(text).not.toContain('s3cr3t-value');
		expect(text).not.toContain('tok-123456');
		expect(scrub('a secret-long and secret', ['secret', 'secret-long'])).toBe('a •••••• and ••••••');
	});
});
