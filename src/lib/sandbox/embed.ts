/**
 * The sandbox inside an integrator's test suite (`import { startSandbox } from 'sso-flow-explorer/sandbox'`): both
 * hosts in the test's process on free ports, a throwaway database, and typed helpers for the control API (clients,
 * users, the clock, outcome rules, a headless authorise) and the request log.
 *
 * The helpers call the control API over HTTP, as any other client does: its validation and its messages are the
 * ones a test sees. The public types are declared here and import nothing, so the package's one .d.ts is this
 * file's (scripts/bundle.js checks that).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox as startHosts } from './index';

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
	/** Back to the fixtures: the demo clients and users, no codes, tokens or rules, the clock on real time. */
	reset(): Promise<void>;
	/** Stops both hosts and removes the temporary database. */
	close(): Promise<void>;
}

/** The most entries GET /sandbox/log gives. */
const LOG_LIMIT = 500;
const CONTROL_PATH = /^\/sandbox(\/|$)/;

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

function controlClient(accountsUrl: string) {
	return async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${accountsUrl}${path}`, {
			method,
			headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
			body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined
		});
		const answer = (await response.json().catch(() => ({}))) as T & { error?: string };
		if (!response.ok) throw new SandboxControlError(response.status, `${method} ${path} answered ${response.status}: ${answer.error ?? response.statusText}`);
		return answer;
	};
}

interface State {
	clients: SandboxClientView[];
	users: SandboxUserView[];
}

interface LogEntryBody {
	id: number;
	host: SandboxRequest['host'];
	entry: Omit<SandboxRequest, 'id'> & { ref: string; keys: unknown };
}

function requestPath(url: string): string {
	return new URL(url, 'http://sandbox.invalid').pathname;
}

export async function startSandbox(options: EmbeddedSandboxOptions = {}): Promise<EmbeddedSandbox> {
	const dir = options.databasePath ? null : mkdtempSync(join(tmpdir(), 'sso-sandbox-'));
	const removeDir = () => dir && rmSync(dir, { recursive: true, force: true });
	let hosts: Awaited<ReturnType<typeof startHosts>>;
	try {
		hosts = await startHosts({
			authPort: options.authPort ?? 0,
			accountsPort: options.accountsPort ?? 0,
			hostname: options.hostname ?? '127.0.0.1',
			explorerOrigin: options.explorerOrigin ?? 'http://localhost:3000',
			databasePath: options.databasePath ?? join(dir!, 'sandbox.db'),
			controlApi: true
		});
	} catch (error) {
		removeDir();
		throw error;
	}
	// The test process administers its own sandbox: calls from this machine need no key or token (admin-access.ts).
	const call = controlClient(hosts.accountsUrl);
	const state = () => call<State>('GET', '/sandbox/state');

	async function authorize(request: AuthorizeRequest): Promise<Authorization> {
		const client = (await state()).clients.find((c) => c.client_id === request.client_id);
		const answer = await call<{ location: string }>('POST', '/sandbox/authorize', {
			supergroup: request.supergroup,
			response_type: 'code',
			client_id: request.client_id,
			redirect_uri: request.redirect_uri ?? client?.redirect_uris[0],
			country: request.country ?? client?.countries[0],
			login: request.login,
			decision: request.decision ?? 'authorize'
		});
		return { location: answer.location, code: new URL(answer.location).searchParams.get('code') };
	}

	async function requests(): Promise<SandboxRequest[]> {
		const { entries } = await call<{ entries: LogEntryBody[] }>('GET', `/sandbox/log?limit=${LOG_LIMIT}`);
		return entries
			.filter((e) => !CONTROL_PATH.test(requestPath(e.entry.request.url)))
			.map(({ id, host, entry }) => ({ id, host, sandboxAt: entry.sandboxAt, durationMs: entry.durationMs, request: entry.request, response: entry.response }))
			.sort((a, b) => a.id - b.id);
	}

	return {
		authUrl: hosts.authUrl,
		accountsUrl: hosts.accountsUrl,
		clients: {
			register: (client) => call('POST', '/sandbox/clients', client),
			list: async () => (await state()).clients
		},
		users: {
			register: (user) => call('POST', '/sandbox/users', user),
			list: async () => (await state()).users
		},
		clock: {
			now: async () => {
				const { now, today } = await call<ClockReading>('GET', '/sandbox/state');
				return { now, today };
			},
			set: (instant) => call('POST', '/sandbox/clock', { set: typeof instant === 'string' ? instant : instant.toISOString() }),
			advance: (seconds) => call('POST', '/sandbox/clock', { advance_seconds: seconds }),
			reset: () => call('POST', '/sandbox/clock', { reset: true })
		},
		outcomes: {
			set: (clientId, outcome) => call('POST', '/sandbox/outcomes', { client_id: clientId, outcome }),
			list: (clientId) => call('GET', `/sandbox/outcomes?client_id=${encodeURIComponent(clientId)}`),
			clear: (clientId, outcome) => call('POST', '/sandbox/outcomes/clear', { client_id: clientId, ...(outcome ? { outcome } : {}) })
		},
		authorize,
		requests,
		reset: async () => {
			await call('POST', '/sandbox/reset');
		},
		close: async () => {
			await hosts.close();
			removeDir();
		}
	};
}
