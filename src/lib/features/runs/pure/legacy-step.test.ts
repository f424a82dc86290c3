import { describe, expect, it } from 'vitest';
import { currentStep, storedExchangeSchema } from './legacy-step';

describe('currentStep', () => {
	it('reads the old `authorise` as a sign-in page in a live or scenario run, as an arrival from a HAR', () => {
		expect(currentStep('authorise', 'live')).toBe('sign-in');
		expect(currentStep('authorise', 'scenario')).toBe('sign-in');
		expect(currentStep('authorise', 'har')).toBe('arrival');
		expect(currentStep('authorise', 'walk', 'har')).toBe('arrival');
		expect(currentStep('authorise', 'live', 'har')).toBe('arrival');
	});

	it("keeps today's names", () => {
		expect(currentStep('token', 'live')).toBe('token');
		expect(currentStep('arrival', 'live')).toBe('arrival');
	});
});

describe('storedExchangeSchema', () => {
	it('renames an old step and keeps every other field; refuses a step that was never a name', () => {
		const stored = { id: 'p.1', step: 'authorise', label: 'sign-in: consent', evidence: { source: 'har', timed: true } };
		expect(storedExchangeSchema('live').parse(stored)).toEqual({ ...stored, step: 'arrival' });
		expect(storedExchangeSchema('live').parse({ ...stored, evidence: undefined })).toMatchObject({ id: 'p.1', step: 'sign-in' });
		expect(storedExchangeSchema('har').safeParse({ ...stored, step: 'callback' }).success).toBe(false);
	});
});
