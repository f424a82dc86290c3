/**
 * What the sandbox control panel (`/sandbox`) shows and what its forms answer: the types its server logic
 * (`features/sandbox-admin/panel.ts`) returns and its components (`$lib/components/panel/`) display. Here, not in the server
 * module, so the components depend on no server code. The server builds these from the sandbox's own types, so a
 * change there that these no longer fit fails the type check.
 */
import type { OutcomeId, Supergroup } from '$lib/protocol';
import type { RecordedRequest, RecordedResponse } from '$lib/http/exchange';

export interface PanelClient {
	client_id: string;
	name: string;
	redirect_uris: readonly string[];
	countries: readonly string[];
	verification_key: 'supergroup' | 'group';
	/** Whether a secret is registered; the secret itself never leaves the server. */
	secret_set: boolean;
	/** The client's pending outcome rules (sandbox choice 'outcome-rules'), at most one per stage. */
	pending_outcomes: OutcomeId[];
}

export interface PanelVerification {
	supergroup: Supergroup;
	/** YYYY-MM-DD: the first day on which the verification is no longer valid (2.4). */
	expires_on: string;
	/** Active on the sandbox clock: `expires_on` is after the sandbox's today. */
	active: boolean;
}

export interface PanelUser {
	login: string;
	sbid_number: string;
	verifications: PanelVerification[];
	deletion_requested: boolean;
}

export interface PanelState {
	/** ISO 8601 instant on the sandbox clock. */
	now: string;
	/** YYYY-MM-DD (UTC) on the sandbox clock. */
	today: string;
	clients: PanelClient[];
	users: PanelUser[];
}

export interface PanelLogEntry {
	id: number;
	host: 'authorisation' | 'accounts';
	/** Sandbox clock time when the request arrived. */
	sandboxAt: string;
	durationMs: number;
	method: string;
	/** Path and query, as recorded (masked). */
	target: string;
	/** Null when the client went away before a response was sent. */
	status: number | null;
	request: RecordedRequest;
	response: RecordedResponse | null;
}

export type PanelForm = 'client' | 'client-key' | 'user' | 'user-deletion' | 'clock' | 'reset' | 'login';

export interface ClientFormValues {
	client_id: string;
	name: string;
	/** One per line, as typed. */
	redirect_uris: string;
	/** Comma-separated, as typed. */
	countries: string;
	verification_key: string;
}

export interface UserFormValues {
	login: string;
	verifications: { supergroup: string; expires_on: string }[];
	deletion_requested: boolean;
}

/** What a form action answers: the outcome, and per field what was wrong and what to write instead. */
export interface Feedback {
	form: PanelForm;
	ok: boolean;
	message: string;
	fields: Record<string, string>;
	/** The client or user the action was about, so a row's message shows next to that row. */
	subject?: string;
	/** What was submitted (never a secret or a password), so a failed form keeps what was typed. */
	client?: ClientFormValues;
	user?: UserFormValues;
	/** A refusal's HTTP status when it is not 400: 409 when what the sandbox holds conflicts (a full workspace, a taken client id). */
	status?: 409;
}
