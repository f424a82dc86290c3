/**
 * The public types of the embeddable sandbox (`sso-flow-explorer/sandbox`), and the error its helpers throw: a leaf,
 * importing nothing, so the package's one .d.ts is this file's with the entry's (src/lib/embed/sandbox.ts) added
 * (scripts/bundle.js checks that). The sandbox's helpers (sandbox/embed.ts) and the flows (embed/) both implement
 * them.
 */

export interface EmbeddedSandboxOptions {
	/** Interface both hosts listen on; 127.0.0.1 when absent. */
	hostname?: string;
	/** Ports; 0 (any free one) when absent. */
	authPort?: number;
	accountsPort?: number;
	/** The origin whose `/callback` the demo fixture clients are registered for; http://localhost:3000 when absent. */
	explorerOrigin?: string;
	/** A SQLite file to keep the sandbox in (kept after close); a temporary one, removed by close(), when absent. */
	databasePath?: string;
}

export type Supergroup = 'student' | 'graduate' | 'key-worker' | 'social-assistance' | (string & {});

/** The control API's outcome rules: what the next request of a stage gets (README, "Outcome rules"). */
export type OutcomeRule =
	| 'authorise-cancel'
	| 'token-invalid-grant'
	| 'token-invalid-client'
	| 'me-401'
	| 'me-403'
	| 'me-404'
	| 'me-empty-verifications'
	| 'me-expired-verification'
	| 'me-group-key';

export interface ClientRegistration {
	client_id: string;
	client_secret: string;
	/** Matched on scheme, authority and path; register them without `?` or `#`. */
	redirect_uris: string[];
	/** `uk` or ISO 3166 alpha-2 codes, lower case. */
	countries: string[];
	name?: string;
	verification_key?: 'supergroup' | 'group';
}

/** A client as the control API shows it: never its secret. */
export interface SandboxClientView {
	client_id: string;
	name: string;
	redirect_uris: string[];
	countries: string[];
	verification_key: 'supergroup' | 'group';
}

export interface UserRegistration {
	login: string;
	password: string;
	/** `expires_on`: YYYY-MM-DD, the first day the verification is no longer valid. */
	verifications: { supergroup: Supergroup; expires_on: string }[];
	deletion_requested?: boolean;
}

export interface SandboxUserView {
	login: string;
	sbid_number: string;
	verifications: { supergroup: Supergroup; expires_on: string }[];
	deletion_requested: boolean;
}

/** The sandbox clock (all its users' verifications and codes age by it). */
export interface ClockReading {
	now: string;
	/** YYYY-MM-DD on the sandbox clock. */
	today: string;
}

export interface OutcomeRuleView {
	outcome: OutcomeRule;
	stage: 'authorise' | 'token' | 'me';
	label: string;
	set_at: string;
}

export interface OutcomeRules {
	client_id: string;
	pending: OutcomeRuleView[];
	/** The latest used first. */
	used: (OutcomeRuleView & { used_at: string; request: string })[];
}

export interface AuthorizeRequest {
	client_id: string;
	/** The user who signs in; they need an active verification for the supergroup (a fixture user has one). */
	login: string;
	supergroup: Supergroup;
	/** The client's first registered redirect URI when absent; may carry extra query parameters (4.1.1). */
	redirect_uri?: string;
	/** The client's first country when absent. */
	country?: string;
	/** `cancel`: the user declines; the redirect carries no code. `authorize` when absent. */
	decision?: 'authorize' | 'cancel';
}

export interface Authorization {
	/** Where the authorisation page would send the browser: the redirect URI with the code (or without, on cancel). */
	location: string;
	/** The grant code, or null when the redirect carries none (cancel, or the `authorise-cancel` rule). */
	code: string | null;
}

export interface RecordedHeader {
	name: string;
	value: string;
}

/** One request the sandbox received, as its request log has it: secrets, codes and tokens masked. */
export interface SandboxRequest {
	id: number;
	host: 'authorisation' | 'accounts';
	/** When it arrived, on the sandbox clock. */
	sandboxAt: string;
	durationMs: number;
	request: { method: string; url: string; headers: RecordedHeader[]; body: string | null };
	/** Null when the client went away before an answer. */
	response: { status: number; statusText: string; headers: RecordedHeader[]; body: string; truncated: boolean } | null;
}

export interface EmbeddedSandbox {
	/** `{auth_url}`: the authorisation page's host, e.g. http://127.0.0.1:41233. */
	authUrl: string;
	/** `{accounts_url}`: the token endpoint, me.json and the control API. */
	accountsUrl: string;
	clients: {
		register(client: ClientRegistration): Promise<SandboxClientView>;
		list(): Promise<SandboxClientView[]>;
	};
	users: {
		register(user: UserRegistration): Promise<SandboxUserView>;
		list(): Promise<SandboxUserView[]>;
	};
	clock: {
		now(): Promise<ClockReading>;
		set(instant: Date | string): Promise<ClockReading>;
		advance(seconds: number): Promise<ClockReading>;
		/** Back to real time. */
		reset(): Promise<ClockReading>;
	};
	outcomes: {
		/** The client's next request of the rule's stage gets this outcome, once. */
		set(clientId: string, outcome: OutcomeRule): Promise<OutcomeRules>;
		list(clientId: string): Promise<OutcomeRules>;
		/** Removes the client's pending rules, or only `outcome`'s. */
		clear(clientId: string, outcome?: OutcomeRule): Promise<OutcomeRules>;
	};
	/** What the authorisation page does when `login` signs in and decides, without a browser. */
	authorize(request: AuthorizeRequest): Promise<Authorization>;
	/** The requests the sandbox received from anyone but these helpers, oldest first (the latest 500 at most). */
	requests(): Promise<SandboxRequest[]>;
	/**
	 * The flows of those requests, oldest first, each diagnosed as the explorer's live page does: every step's row of
	 * the interface's tables, what is wrong across the requests, and the verdict (failing step, row, cause, fix).
	 */
	flows(): Promise<SandboxFlow[]>;
	/** Back to the fixtures: the demo clients and users, no codes, tokens or rules, the clock on real time. */
	reset(): Promise<void>;
	/** Stops both hosts and removes the temporary database. */
	close(): Promise<void>;
}


/** An answer other than 2xx from the control API, with its message (it says what was wrong and what to send). */
export class SandboxControlError extends Error {
	constructor(
		readonly status: number,
		message: string
	) {
		super(message);
		this.name = 'SandboxControlError';
	}
}

/** A row of the interface's tables (or a section of it) that a finding is. */
export type SandboxReference = { kind: 'row'; table: string; rowId: string; anchor: string } | { kind: 'section'; section: string; anchor: string } | null;

/** What the diagnosis says of one step's answer, as the live page shows it under the request. */
export interface SandboxStepDiagnosis {
	/** e.g. `success`, `error`, `cancel`. */
	outcome: string;
	title: string;
	summary: string;
	/** The row of the interface's error tables the answer is, e.g. `token-invalid-grant-unknown-code`. */
	rowId?: string;
	/** The row's cause the answer fits best. */
	causeId?: string;
	fix?: string;
	problems?: string[];
}

/** One request of a flow. */
export interface SandboxFlowStep {
	/** The request's id in the sandbox's request log. */
	id: string;
	/** `sign-in`: one of the service's sign-in pages. (`arrival`, the browser at your app, is never in the sandbox's log.) */
	step: 'link' | 'sign-in' | 'arrival' | 'token' | 'me';
	/** e.g. `token exchange`, `me.json`, `sign-in: consent`. */
	label: string;
	startedAt: string;
	request: SandboxRequest['request'];
	response: SandboxRequest['response'];
	/** Null for a step nothing is said of (the link, a page that answered as expected). */
	diagnosis: SandboxStepDiagnosis | null;
}

/** What is wrong across a flow's requests (a token used after it expired, a code sent twice, …). */
export interface SandboxFlowFlag {
	id: string;
	severity: 'error' | 'warning';
	message: string;
	/** The section of the interface. */
	section: string;
	fix: string;
	/** The step it is about. */
	exchangeId?: string;
}

/** The live page's verdict on a flow: what happened, the row it is, the likely cause and the fix. */
export interface SandboxVerdict {
	severity: 'error' | 'warning' | 'cancel' | 'unsent' | 'unobserved' | 'success';
	what: string;
	reference: SandboxReference;
	/** The step it is about: its id and its number in the flow, from 1. */
	exchange: { id: string; n: number } | null;
	cause: string;
	fix: string;
}

/** One sign-in as the live view rebuilds it from the request log: its requests and their diagnosis. */
export interface SandboxFlow {
	/** The id of its first request. */
	id: string;
	clientId: string | null;
	/** The authorisation link, when the flow began with one. */
	link: string | null;
	/** The redirect back to the app. */
	callback: { url: string; receivedAt: string } | null;
	/** The flow that ended in a cancel just before this one began (an app restarting the sign-in by itself). */
	followsCancel: { flowId: string; secondsAfter: number } | null;
	startedAt: string;
	updatedAt: string;
	steps: SandboxFlowStep[];
	flags: SandboxFlowFlag[];
	verdict: SandboxVerdict;
}
