import { describe, expect, it } from 'vitest';
import { describeVerification } from './verification';

describe('describeVerification', () => {
	it('is active until the day before expires_on, counting today', () => {
		expect(describeVerification({ supergroup: 'key-worker', expires_on: '2025-03-11' }, '2025-03-01')).toEqual({
			supergroup: 'key-worker',
			name: 'Key Worker',
			expiresOn: '2025-03-11',
			lastValidDay: '2025-03-10',
			daysLeft: 10,
			active: true
		});
	});
	it('has one day left on its last valid day', () => {
		const v = describeVerification({ supergroup: 'student', expires_on: '2025-03-02' }, '2025-03-01');
		expect(v).toMatchObject({ active: true, daysLeft: 1, lastValidDay: '2025-03-01' });
	});
	it('is no longer active on expires_on', () => {
		const v = describeVerification({ supergroup: 'student', expires_on: '2025-03-01' }, '2025-03-01');
		expect(v).toMatchObject({ active: false, daysLeft: 0 });
		expect(describeVerification({ supergroup: 'student', expires_on: '2024-01-01' }, '2025-03-01').daysLeft).toBe(0);
	});
	it('reads the `group` key too, and crosses month, year and leap-day boundaries in UTC', () => {
		const v = describeVerification({ group: 'social-assistance', expires_on: '2024-03-01' }, '2023-12-31');
		expect(v).toMatchObject({ supergroup: 'social-assistance', name: 'Social Assistance', lastValidDay: '2024-02-29', daysLeft: 61 });
		expect(describeVerification({ group: 'graduate', expires_on: '2026-01-01' }, '2025-12-31').lastValidDay).toBe('2025-12-31');
	});
});
