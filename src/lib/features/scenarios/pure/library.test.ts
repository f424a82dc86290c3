import { describe, expect, it } from 'vitest';
import { allErrorRows } from '$lib/protocol';
import { SCENARIOS, UNPRODUCIBLE_CAUSES, findScenario, type Expected, type Step } from './library';

const flowSteps = (steps: Step[]) => steps.filter((s) => s.kind === 'authorise' || s.kind === 'token' || s.kind === 'me');

describe('the scenario library', () => {
	it('has a scenario for every row of every error table', () => {
		const missing = allErrorRows().filter((row) => !SCENARIOS.some((s) => s.expected.row === row.id));
		expect(missing.map((r) => r.id)).toEqual([]);
	});

	it('has a scenario for every cause of every row, except the ones nothing can produce', () => {
		const missing = allErrorRows().flatMap((row) =>
			row.causes
				.filter((cause) => !SCENARIOS.some((s) => s.expected.row === row.id && s.expected.cause === cause.id))
				.map((cause) => `${row.id}/${cause.id}`)
		);
		expect(missing).toEqual(UNPRODUCIBLE_CAUSES.map((c) => `${c.rowId}/${c.causeId}`));
	});

	it('has cancel and success', () => {
		expect(SCENARIOS.filter((s) => s.expected.row === 'cancel').map((s) => s.id)).toEqual(['user-cancels']);
		expect(findScenario('success')?.expected).toMatchObject({ step: 'me', row: 'success' });
	});

	it('has the scenarios support asks for by name', () => {
		const titles = SCENARIOS.map((s) => s.title);
		for (const title of [
			'Success',
			'User cancels (not an error)',
			'Code exchanged twice',
			'Code used after 2 hours',
			'redirect_uri differs by an extra query parameter',
			'Code exchanged by another client',
			'Secret sent to the wrong client',
			'Wrong secret',
			'Code missing after a cancel',
			'redirect_uri missing',
			'Redirect URI not registered (7.1)',
			'Unknown client (7.1)',
			'response_type token (7.1)',
			'No Host on me.json',
			'No User-Agent on me.json',
			'Grant code sent to me.json',
			'No token on me.json',
			'User asked for account deletion',
			'Verification expired yesterday',
			'Response uses `group`',
			'Token used after it expired'
		])
			expect(titles).toContain(title);
	});

	it('gives every scenario a unique id and title', () => {
		expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
		expect(new Set(SCENARIOS.map((s) => s.title)).size).toBe(SCENARIOS.length);
		for (const s of SCENARIOS) expect(s.id).toMatch(/^[a-z0-9-]+$/);
	});

	it("reads each outcome from the scenario's last step", () => {
		for (const s of SCENARIOS) expect(s.steps.at(-1)?.kind, s.id).toBe(s.expected.step);
	});

	it('names only causes of the expected row', () => {
		for (const s of SCENARIOS.filter((s) => s.expected.cause)) {
			const row = allErrorRows().find((r) => r.id === s.expected.row);
			expect(row?.causes.map((c) => c.id), s.id).toContain(s.expected.cause);
		}
	});

	it('names only causes of the expected row, at compile time too', () => {
		// @ts-expect-error: `used` is a cause of token-invalid-grant, not of me-forbidden
		const otherRow: Expected = { step: 'me', row: 'me-forbidden', cause: 'used' };
		// @ts-expect-error: no row has this cause
		const unknown: Expected = { step: 'token', row: 'token-invalid-grant', cause: 'stolen' };
		// @ts-expect-error: a flow outcome has no cause
		const success: Expected = { step: 'me', row: 'success', cause: 'used' };
		const rowOf = (expected: Expected) => allErrorRows().find((r) => r.id === expected.row);
		for (const expected of [otherRow, unknown]) expect(rowOf(expected)?.causes.map((c) => c.id)).not.toContain(expected.cause);
		expect(rowOf(success)).toBeUndefined();
	});

	it('sets up every client a step acts as', () => {
		for (const s of SCENARIOS) {
			const roles = new Set(s.setup.clients.map((c) => c.role));
			for (const step of s.steps) {
				if (step.kind === 'authorise' || step.kind === 'token') expect(roles.has(step.as ?? 'main'), s.id).toBe(true);
				if (step.kind === 'token' && step.secret && step.secret !== 'wrong') expect(roles.has(step.secret), s.id).toBe(true);
			}
		}
	});

	it('marks as needing the control API every scenario that sets up more than a client and a verified user, or moves the clock', () => {
		const needsControl = (s: (typeof SCENARIOS)[number]) =>
			s.steps.some((step) => step.kind === 'clock' || step.kind === 'verification') ||
			s.setup.clients.length > 1 ||
			s.setup.clients.some((c) => c.verificationKey === 'group') ||
			s.setup.user.deletionRequested === true ||
			s.expected.row === 'cancel';
		for (const s of SCENARIOS.filter(needsControl)) expect(s.custom, s.id).toBeNull();
	});

	it('runs as-is against a custom deployment only what needs no real code or token', () => {
		for (const s of SCENARIOS.filter((s) => s.custom === 'as-is')) {
			const flow = flowSteps(s.steps);
			const usesRealCode = flow.some((step, i) => {
				const last = i === flow.length - 1;
				if (step.kind === 'me') return step.credential !== 'none';
				// A made-up code stands in for an authorisation that is not the expected step.
				return step.kind === 'token' && !last;
			});
			expect(usesRealCode, s.id).toBe(false);
		}
	});
});
