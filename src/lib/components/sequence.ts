/** The four parties of the flow and the shape of an arrow between them, as SequenceDiagram.svelte draws them. */

export type Lane = 'browser' | 'client' | 'auth' | 'accounts';

export const LANES: readonly { id: Lane; name: string; note: string }[] = [
	{ id: 'browser', name: 'Browser', note: 'the user' },
	{ id: 'client', name: 'Client application', note: 'this explorer' },
	{ id: 'auth', name: 'Authorisation host', note: '{auth_url}' },
	{ id: 'accounts', name: 'Accounts host', note: '{accounts_url}' }
];

export type StepState = 'pending' | 'done' | 'error' | 'cancel';

export interface SequenceStep {
	id: string;
	label: string;
	from: Lane;
	to: Lane;
	state: StepState;
	/** The recorded exchange this arrow opens, when there is one. */
	exchangeId?: string;
}
