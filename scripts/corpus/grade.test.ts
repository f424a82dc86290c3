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
		expect(grade(bug, told('error', 'me.json answered 403: no User-Agent header', 'Set a User-Agent header'), 'live')).toBe('right');
	});

	it('is partly when the verdict names only the cause, or only a secondary finding does', () => {
		expect(grade(bug, told('error', 'me.json answered 403: no User-Agent header', 'Ask the service'), 'live')).toBe('partly');
		expect(grade(bug, told('error', 'The callback failed', 'Pass the code unchanged', ['me.json sent no User-Agent']), 'live')).toBe('partly');
	});

	it('is missed when nothing names it, and when the verdict says nothing is wrong whatever a finding says', () => {
		expect(grade(bug, told('error', 'The callback failed', 'Pass the code unchanged'), 'live')).toBe('missed');
		expect(grade(bug, told('success', 'Nothing to fix', 'Nothing to fix', ['me.json sent no User-Agent']), 'live')).toBe('missed');
	});

	it('is a false alarm when a correct app gets an error or a warning, right when it gets none', () => {
		expect(grade(correct, told('warning', 'The link carries state', 'Drop state'), 'live')).toBe('false-alarm');
		expect(grade(correct, told('cancel', 'The user cancelled', 'Nothing to fix'), 'live')).toBe('right');
	});

	it("is out of sight when a server-side bug's browser-only channel says what it could not see and how to add it", () => {
		const server: CorpusCase = { ...bug, side: 'server' };
		const unseen = told('error', "The callback answered 500: a step on your app's server failed. The record holds only the browser's side.", "To see which, add the server's side: the sandbox's log for this client, or your server's HAR or curl.");
		expect(grade(server, unseen, 'har')).toBe('out-of-sight');
		expect(grade(server, { ...unseen, verdict: { ...unseen.verdict, severity: 'unobserved' } }, 'har-sanitised')).toBe('out-of-sight');
		// Not for a channel that holds the server's side, nor a bug the browser's side shows, nor without how to add it.
		expect(grade(server, unseen, 'har+log')).toBe('missed');
		expect(grade(bug, unseen, 'har')).toBe('missed');
		expect(grade(server, told('error', unseen.verdict.what, 'Look at your server.'), 'har')).toBe('missed');
		// Naming the cause and the fix is still right.
		expect(grade(server, told('error', 'me.json answered 403: no User-Agent header', 'Set a User-Agent header'), 'har')).toBe('right');
	});

	it("is out of sight when the live view, which holds only the service's side, says an app's handling was not observed and how to see it", () => {
		const handling: CorpusCase = { ...bug, side: 'handling' };
		const unseen = told('unobserved', 'The me.json call (exchange 3) was answered 404 as the interface specifies; how your app handled it is not in this record.', "Nothing to fix in this request. To see how your app answered the user, run the app check, or save this flow and add the browser's HAR.");
		expect(grade(handling, unseen, 'live')).toBe('out-of-sight');
		// Not for a bug the service's side shows (its requests are wrong), nor on a channel that holds the page, nor without how to see it.
		expect(grade({ ...bug, side: 'server' }, unseen, 'live')).toBe('missed');
		expect(grade(handling, unseen, 'har+log')).toBe('missed');
		expect(grade(handling, told('unobserved', unseen.verdict.what, 'Nothing to fix in this request.'), 'live')).toBe('missed');
	});

	it("is out of sight when a bug in the app's page gets, on the live view alone, a success that says the page was not observed and how to see it", () => {
		const page: CorpusCase = { ...bug, side: 'page' };
		const unseen = told('success', "The service's side succeeded (the last step, the me.json call, answered 200); how your app answered the user is not observed here.", "Nothing to fix on the service's side. To see how your app answered the user, run the app check, or save this flow and add the browser's HAR.");
		expect(grade(page, unseen, 'live')).toBe('out-of-sight');
		// The browser's HAR holds the page: there the bug is in sight, and a success is a miss.
		expect(grade(page, unseen, 'har')).toBe('missed');
		expect(grade(page, unseen, 'har-sanitised')).toBe('missed');
		expect(grade(page, unseen, 'har+log')).toBe('missed');
		// A plain "nothing to fix" is a miss on the live view too.
		expect(grade(page, told('success', 'The flow succeeded; nothing to fix.', 'Nothing to fix.'), 'live')).toBe('missed');
	});

	it('is no-flow when the channel found no flow', () => {
		expect(grade(bug, null, 'live')).toBe('no-flow');
	});
});

describe('regressions', () => {
	it('names every cell graded worse than the baseline, and counts new cells as no regression', () => {
		const baseline = { a: { live: 'right', har: 'partly' }, b: { live: 'missed' } } as const;
		const now = { a: { live: 'partly', har: 'right' }, b: { live: 'false-alarm' }, c: { live: 'missed' } } as const;
		expect(regressions(baseline, now)).toEqual(['a / live: right → partly', 'b / live: missed → false-alarm']);
	});
});
