import type { SubmitFunction } from '@sveltejs/kit';
import { tick } from 'svelte';

/**
 * `use:enhance` for the panel's forms with fields: after a refusal what was typed stays and focus moves to the
 * first field that needs attention; after a save the form is cleared, `onsaved` runs, and focus moves to the form's
 * feedback (the button pressed may be gone with the form it was in, which would drop focus to the page).
 */
export function keepTypedAndFocusProblems(onsaved?: () => void): SubmitFunction {
	return ({ formElement }) =>
		async ({ result, update }) => {
			if (result.type === 'success') {
				const region = formElement.closest('section');
				await update();
				onsaved?.();
				await tick();
				region?.querySelector<HTMLElement>('[data-testid="panel-feedback"]')?.focus();
				return;
			}
			await update({ reset: false });
			await tick();
			formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
		};
}
