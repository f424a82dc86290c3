import { describe, expect, it } from 'vitest';
import type { Feedback } from '$lib/view/panel';
import { feedbackFor, sandboxTimeText, statusTone } from './display';

describe('panel display', () => {
	it('tones statuses by class, and no response as an error', () => {
		expect([200, 204, 302, 400, 404, 500, null].map(statusTone)).toEqual(['ok', 'ok', 'info', 'warn', 'warn', 'err', 'err']);
	});

	it('writes sandbox times in UTC to the second, and leaves unreadable text as it is', () => {
		expect(sandboxTimeText('2030-05-06T07:08:09.123Z')).toBe('2030-05-06 07:08:09 UTC');
		expect(sandboxTimeText('soon')).toBe('soon');
	});

	it('finds the feedback of a form, and of a row only for that row', () => {
		const feedback: Feedback = { form: 'client-key', ok: true, message: 'done', fields: {}, subject: 'demo-client' };
		expect(feedbackFor(feedback, ['client'])).toBeUndefined();
		expect(feedbackFor(feedback, ['client', 'client-key'])).toBe(feedback);
		expect(feedbackFor(feedback, ['client-key'], 'group-key-client')).toBeUndefined();
		expect(feedbackFor(feedback, ['client-key'], 'demo-client')).toBe(feedback);
		expect(feedbackFor(null, ['client'])).toBeUndefined();
	});
});
