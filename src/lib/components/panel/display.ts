/** Small wordings and lookups of the sandbox control panel's components. */
import type { Feedback, PanelForm } from '$lib/view/panel';

export type Tone = 'ok' | 'info' | 'warn' | 'err';

/** Colour of a response status: success, redirect, client error, and server error or no response at all. */
export function statusTone(status: number | null): Tone {
	if (status === null || status >= 500) return 'err';
	if (status >= 400) return 'warn';
	if (status >= 300) return 'info';
	return 'ok';
}

/** "2026-11-23 01:20:05 UTC": the same on the server and in every browser, so hydration never disagrees. */
export function sandboxTimeText(iso: string): string {
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The feedback if it answers one of these forms (and, given a subject, that row), else undefined. */
export function feedbackFor(feedback: Feedback | null | undefined, forms: PanelForm[], subject?: string): Feedback | undefined {
	if (!feedback || !forms.includes(feedback.form)) return undefined;
	if (subject !== undefined && feedback.subject !== subject) return undefined;
	return feedback;
}
