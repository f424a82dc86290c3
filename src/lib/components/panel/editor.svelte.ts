import type { Feedback } from '$lib/view/panel';

/**
 * What a panel of rows keeps beside its form: the row being edited (null: a new one), a generation that starts the
 * form afresh, and the form's last outcome until the person moves on from it.
 */
export class RowEditor<Row> {
	editing = $state<Row | null>(null);
	/** A new value starts the form afresh (after a save, or to edit another row). */
	generation = $state(0);
	/** An outcome the person has moved on from (by editing another row): no longer shown. */
	#dismissed = $state<Feedback>();
	readonly #outcome: () => Feedback | undefined;

	/** `outcome`: the form's latest outcome, read from the page's action result. */
	constructor(outcome: () => Feedback | undefined) {
		this.#outcome = outcome;
	}

	get feedback(): Feedback | undefined {
		const current = this.#outcome();
		return current === this.#dismissed ? undefined : current;
	}

	/** Edits `row` (null: a new one); `dismiss` hides the outcome of the last save. */
	start(row: Row | null, dismiss: boolean): void {
		if (dismiss) this.#dismissed = this.feedback;
		this.editing = row;
		this.generation++;
	}
}
