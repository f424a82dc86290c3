import type { SubmitFunction } from '@sveltejs/kit';
import { tick } from 'svelte';

/**
 * `use:enhance` for the panel's forms with fields: after a refusal what was typed stays and focus moves to the
 * first field that needs attention; after a save the form is cleared and `onsaved` runs.
 */
export function keepTypedAndFocusProblems(onsaved?: () => void): SubmitFunction {
	return ({ formElement }) =>
		async ({ result, update }) => {
			if (result.type === 'success') {
				await update();
				return onsaved?.();
			}
			await update({ reset: false });
			await tick();
			formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
		};
}
