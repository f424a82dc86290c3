/**
 * The simulated verification step (sandbox choice 'simulated-verification'): the user picks a kind of proof, nothing
 * is uploaded, and they are verified for the requested supergroup until one year from the sandbox's today.
 */
import type { Supergroup } from '../../protocol';

export interface ProofKind {
	id: string;
	label: string;
	hint: string;
}

export const PROOF_KINDS: Record<Supergroup, readonly ProofKind[]> = {
	student: [
		{ id: 'student-email', label: 'University or college email', hint: 'We send a link to your .ac.uk or school address (simulated).' },
		{ id: 'student-id', label: 'Student ID card upload', hint: 'A photo of your current student card (simulated).' }
	],
	graduate: [
		{ id: 'degree-certificate', label: 'Degree certificate upload', hint: 'Awarded within the last 5 years (simulated).' },
		{ id: 'alumni-email', label: 'Alumni email', hint: 'We send a link to your alumni address (simulated).' }
	],
	'key-worker': [
		{ id: 'work-email', label: 'Work email', hint: 'We send a link to your employer address (simulated).' },
		{ id: 'employee-id', label: 'Employee ID or payslip upload', hint: 'A document naming you and your employer (simulated).' }
	],
	'social-assistance': [
		{ id: 'benefit-letter', label: 'Benefit award letter upload', hint: 'Dated within the last 12 months (simulated).' },
		{ id: 'disability-card', label: 'Disability card or certificate upload', hint: 'A current card or certificate (simulated).' }
	]
};

export function proofKind(supergroup: Supergroup, id: string): ProofKind | undefined {
	return PROOF_KINDS[supergroup].find((kind) => kind.id === id);
}

/** The same day one year later (`YYYY-MM-DD`, UTC); 29 February becomes 1 March in a common year. */
export function oneYearAfter(isoDate: string): string {
	const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
	return new Date(Date.UTC(year + 1, month - 1, day)).toISOString().slice(0, 10);
}
