import { describe, expect, it } from 'vitest';
import { errorRow } from './errors';
import { OUTCOMES, OUTCOME_IDS, OUTCOME_STAGES, isOutcomeId } from './outcomes';

describe('outcomes on demand, as data', () => {
	it('are exactly the ids the sandbox, the explorer and app checks agree on', () => {
		expect(OUTCOME_IDS).toEqual([
			'authorise-cancel',
			'token-invalid-grant',
			'token-invalid-client',
			'me-401',
			'me-403',
			'me-404',
			'me-empty-verifications',
			'me-expired-verification',
			'me-group-key'
		]);
		expect(['me-404', 'me-500', 'toString'].filter(isOutcomeId)).toEqual(['me-404']);
	});

	it('name a table row whose status is theirs, or none for a cancel or a 200', () => {
		for (const outcome of OUTCOMES) {
			if (outcome.row === null) expect([null, 200]).toContain(outcome.status);
			else expect(errorRow(outcome.row)).toMatchObject({ status: outcome.status });
		}
	});

	it('each act at a stage their id starts with, and every stage has some', () => {
		const prefix = { authorise: 'authorise-', token: 'token-', me: 'me-' };
		for (const outcome of OUTCOMES) expect(outcome.id.startsWith(prefix[outcome.stage])).toBe(true);
		for (const stage of OUTCOME_STAGES) expect(OUTCOMES.some((o) => o.stage === stage.id)).toBe(true);
	});
});
