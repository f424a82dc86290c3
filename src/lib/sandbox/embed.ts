/**
 * The sandbox inside an integrator's test suite (`import { startSandbox } from 'sso-flow-explorer/sandbox'`): both
 * hosts in the test's process on free ports, a throwaway database, and typed helpers for the control API (clients,
 * users, the clock, outcome rules, a headless authorise) and the request log.
 *
 * The helpers call the control API over HTTP, as any other client does: its validation and its messages are the
 * ones a test sees. The public types are the leaf embedded-sandbox.ts's. The flows of the log and their diagnosis
 * are the flow engine's, which this layer may not use: src/lib/embed/sandbox.ts adds them (the package's entry).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox as startHosts } from './index';
import type { LoggedExchange } from './log';
import {
	SandboxControlError,
	type Authorization,
	type AuthorizeRequest,
	type ClockReading,
	type EmbeddedSandbox,
	type EmbeddedSandboxOptions,
	type SandboxClientView,
	type SandboxRequest,
	type SandboxUserView
} from '$lib/embedded-sandbox';

export * from '$lib/embedded-sandbox';

/** The embedded sandbox without its flows, and its log as logged (with each entry's ref and correlation keys). */
export type SandboxHosts = Omit<EmbeddedSandbox, 'flows'> & { loggedRequests(): Promise<LoggedExchange[]> };

/** The most entries GET /sandbox/log gives. */
const LOG_LIMIT = 500;
const CONTROL_PATH = /^\/sandbox(\/|$)/;

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
	entry: LoggedExchange;
}

function requestPath(url: string): string {
	return new URL(url, 'http://sandbox.invalid').pathname;
}

export async function startSandbox(options: EmbeddedSandboxOptions = {}): Promise<SandboxHosts> {
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

	/** The log's entries of requests from anyone but these helpers, oldest first. */
	async function logged(): Promise<LogEntryBody[]> {
		const { entries } = await call<{ entries: LogEntryBody[] }>('GET', `/sandbox/log?limit=${LOG_LIMIT}`);
		return entries.filter((e) => !CONTROL_PATH.test(requestPath(e.entry.request.url))).sort((a, b) => a.id - b.id);
	}

	async function requests(): Promise<SandboxRequest[]> {
		return (await logged()).map(({ id, host, entry }) => ({ id, host, sandboxAt: entry.sandboxAt, durationMs: entry.durationMs, request: entry.request, response: entry.response }));
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
		loggedRequests: async () => (await logged()).map((e) => e.entry),
		reset: async () => {
			await call('POST', '/sandbox/reset');
		},
		close: async () => {
			await hosts.close();
			removeDir();
		}
	};
}
