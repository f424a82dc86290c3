import { describe, expect, it } from 'vitest';
import type { Feedback } from '$lib/view/panel';
import { RowEditor } from './editor.svelte';

const saved = (message: string): Feedback => ({ form: 'user', ok: true, message, fields: {} });

describe('RowEditor', () => {
	it('starts on a new row, and each start begins the form afresh', () => {
		const editor = new RowEditor<string>(() => undefined);
		expect(editor.editing).toBeNull();
		editor.start('alice', true);
		expect(editor.editing).toBe('alice');
		editor.start(null, false);
		expect(editor.editing).toBeNull();
		expect(editor.generation).toBe(2);
	});

	it('keeps a save\'s outcome after the form resets, hides it once the person edits another row, shows the next one', () => {
		let outcome: Feedback | undefined = saved('User alice saved.');
		const editor = new RowEditor<string>(() => outcome);
		editor.start(null, false); // what the form does after a save
		expect(editor.feedback?.message).toBe('User alice saved.');
		editor.start('bob', true);
		expect(editor.feedback).toBeUndefined();
		outcome = saved('User bob saved.');
		expect(editor.feedback?.message).toBe('User bob saved.');
	});
});
