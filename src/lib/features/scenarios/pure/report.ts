/**
 * Scenario results as text: the headless run's table (scenario | expected | observed | result), the reasons for
 * failures and skips, and the closing count. Known secrets are scrubbed from every line as a last guard.
 */
import { MASK } from '$lib/http/exchange';
import type { Expected } from './library';
import type { Observed, ScenarioResult } from './result';

type Reported = Pick<ScenarioResult, 'id' | 'expected' | 'observed' | 'passed' | 'reason'>;

export function describeExpected(expected: Expected): string {
	const cause = expected.cause ? ` (${expected.cause})` : '';
	const check = expected.check ? `; ${expected.check.text}` : '';
	return `${expected.step}: ${expected.row}${cause}${check}`;
}

export function describeObserved(observed: Observed | null): string {
	if (!observed) return '—';
	return `${observed.step}: ${observed.row}${observed.cause ? ` (${observed.cause})` : ''}`;
}

export function verdictWord(passed: ScenarioResult['passed']): 'pass' | 'FAIL' | 'skipped' {
	return passed === 'skipped' ? 'skipped' : passed ? 'pass' : 'FAIL';
}

/** `N passed, M failed, K skipped` */
export function summaryLine(results: Pick<ScenarioResult, 'passed'>[]): string {
	const count = (value: ScenarioResult['passed']) => results.filter((r) => r.passed === value).length;
	return `${count(true)} passed, ${count(false)} failed, ${count('skipped')} skipped`;
}

/** Any deviation fails the run; skipped scenarios are not deviations (and not passes either). */
export function exitCode(results: Pick<ScenarioResult, 'passed'>[]): 0 | 1 {
	return results.some((r) => r.passed === false) ? 1 : 0;
}

/** Every occurrence of a secret replaced by the mask, however short the text around it. */
export function scrub(text: string, secrets: string[]): string {
	return secrets
		.filter((s) => s.length > 0)
		.sort((a, b) => b.length - a.length)
		.reduce((out, secret) => out.split(secret).join(MASK), text);
}

/** A text table's lines: the header, a rule, a line per row, each column as wide as its widest cell. */
export function textTable(header: string[], rows: string[][]): string[] {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
	const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ').trimEnd();
	const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
	return [line(header), rule, ...rows.map(line)];
}

/** The table, then one line per failure or skip saying why. */
export function formatReport(results: Reported[], secrets: string[] = []): string {
	const header = ['scenario', 'expected', 'observed', 'result'];
	const rows = results.map((r) => [r.id, describeExpected(r.expected), describeObserved(r.observed), verdictWord(r.passed)]);
	const notes = results
		.filter((r) => r.passed !== true && r.reason)
		.map((r) => `${verdictWord(r.passed)} ${r.id}: ${r.reason}`);
	const text = [...textTable(header, rows), ...(notes.length ? ['', ...notes] : [])].join('\n');
	return scrub(text, secrets);
}
