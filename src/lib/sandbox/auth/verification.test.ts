import { describe, expect, it } from 'vitest';
import { SUPERGROUP_VALUES } from '$lib/protocol';
import { PROOF_KINDS, oneYearAfter, proofKind } from './verification';

describe('simulated verification', () => {
	it('offers at least one kind of proof for every supergroup, with unique ids', () => {
		for (const supergroup of SUPERGROUP_VALUES) {
			const ids = PROOF_KINDS[supergroup].map((k) => k.id);
			expect(ids.length).toBeGreaterThan(0);
			expect(new Set(ids).size).toBe(ids.length);
		}
	});
	it('accepts only a proof offered for the requested supergroup', () => {
		expect(proofKind('student', 'student-id')?.label).toMatch(/Student ID/);
		expect(proofKind('graduate', 'student-id')).toBeUndefined();
		expect(proofKind('student', '')).toBeUndefined();
	});
	it('verifies until the same day one year later', () => {
		expect(oneYearAfter('2025-03-14')).toBe('2026-03-14');
		expect(oneYearAfter('2025-12-31')).toBe('2026-12-31');
		expect(oneYearAfter('2024-02-29')).toBe('2025-03-01');
	});
});
