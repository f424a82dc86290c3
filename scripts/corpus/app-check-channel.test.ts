import { describe, expect, it } from 'vitest';
import type { AppCheckResult } from '../../src/lib/features/app-check/pure/judge';
import { checkOfJourney, checksOfJourney, toldOfAppCheck } from './app-check-channel';

describe('checkOfJourney', () => {
	it('takes the check that makes the journey happen', () => {
		expect(checkOfJourney({ decision: 'authorise' }).id).toBe('success');
		expect(checkOfJourney({ decision: 'cancel' }).id).toBe('cancel');
		expect(checkOfJourney({ decision: 'authorise', reload: true }).id).toBe('code-reused');
		expect(checkOfJourney({ decision: 'authorise', outcome: 'me-group-key' }).id).toBe('group-key');
		expect(checkOfJourney({ decision: 'authorise', outcome: 'token-invalid-client' }).id).toBe('invalid-client');
		expect(checkOfJourney({ decision: 'authorise', outcome: 'me-empty-verifications' }).id).toBe('no-active-verification');
		expect(checkOfJourney({ decision: 'authorise', login: 'deleted@example.com' }).id).toBe('me-404');
		expect(checkOfJourney({ decision: 'authorise', verificationKey: 'group' }).id).toBe('group-key');
	});

	it('refuses a journey no check takes, rather than grading another check', () => {
		expect(() => checkOfJourney({ decision: 'authorise', login: 'someone@example.com' })).toThrow(/someone@example.com/);
	});
});

describe('checksOfJourney', () => {
	it('runs the success check first for a refusal, whose page is compared with the signed-in page, and the check alone else', () => {
		expect(checksOfJourney({ decision: 'authorise', outcome: 'me-401' }).map((c) => c.id)).toEqual(['success', 'me-401']);
		expect(checksOfJourney({ decision: 'authorise', outcome: 'token-invalid-client' }).map((c) => c.id)).toEqual(['success', 'invalid-client']);
		expect(checksOfJourney({ decision: 'cancel' }).map((c) => c.id)).toEqual(['cancel']);
		expect(checksOfJourney({ decision: 'authorise', outcome: 'me-group-key' }).map((c) => c.id)).toEqual(['group-key']);
	});
});

describe('toldOfAppCheck', () => {
	const result = (verdict: AppCheckResult['verdict']): AppCheckResult => ({
		id: 'cancel',
		title: 'Cancel',
		verdict,
		reason: 'The app answered 500.',
		findings: ['The page shows a stack trace.'],
		fix: 'Show a page that says sign-in was cancelled.',
		row: null,
		clientId: 'c',
		evidence: null
	});

	it('tells a failed check as an error with its reason, findings and fix', () => {
		expect(toldOfAppCheck(result('fail'))).toEqual({
			verdict: { severity: 'error', what: 'Cancel: The app answered 500.', cause: 'The page shows a stack trace.', fix: 'Show a page that says sign-in was cancelled.', row: null },
			findings: ['The page shows a stack trace.']
		});
	});

	it("tells the engine's row of a failed check, as the other channels tell their verdict's", () => {
		const row = { kind: 'row' as const, table: '7.2', rowId: 'token-invalid-grant' as const, anchor: 'token-invalid-grant' };
		expect(toldOfAppCheck({ ...result('fail'), row })?.verdict.row).toBe('token-invalid-grant');
	});

	it('tells a passed check as a success, and a check that could not run as no verdict', () => {
		expect(toldOfAppCheck(result('pass'))?.verdict.severity).toBe('success');
		expect(toldOfAppCheck(result('not-run'))).toBeNull();
	});
});
