/**
 * The explorer's HTTP API as a script uses it: one session (a cookie jar of one cookie), the walk's actions, and
 * the sandbox's control API to get codes without a browser.
 */
import type { WalkView } from '../../../src/lib/flow/view';

export interface Answer<T = unknown> {
	status: number;
	body: T;
	text: string;
}

export interface WalkAnswer {
	/** The whole view after the step. */
	view?: WalkView & { runId: string | null };
	message?: string;
}

export class ExplorerSession {
	private cookie = '';

	constructor(readonly base: string) {}

	/** A request in this session; redirects are returned, not followed. */
	async request(path: string, init: RequestInit = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		if (this.cookie) headers.set('cookie', this.cookie);
		const response = await fetch(new URL(path, this.base), { ...init, headers, redirect: 'manual' });
		const session = response.headers.getSetCookie().find((c) => c.startsWith('sfe_session='));
		if (session) this.cookie = session.split(';')[0]!;
		return response;
	}

	async post<T = unknown>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
		const response = await this.request(path, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(body)
		});
		const text = await response.text();
		let parsed: unknown = null;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = null;
		}
		return { status: response.status, body: parsed as T, text };
	}

	/** A walk action. */
	walk(action: string, body: unknown = {}): Promise<Answer<WalkAnswer>> {
		return this.post<WalkAnswer>(`/api/walk/${action}`, body);
	}

	/** Starts the session (sets the cookie) by loading the walk page. */
	async open(): Promise<this> {
		const response = await this.request('/');
		await response.text();
		return this;
	}

	/** The browser's arrival at the redirect URI, delivered by hand. */
	async callback(query: string): Promise<number> {
		const response = await this.request(`/callback?${query}`);
		await response.text();
		return response.status;
	}
}

/** The walk's client settings for a custom target with the demo client's other fields. */
export function customTarget(authUrl: string, accountsUrl: string, overrides: Record<string, unknown> = {}) {
	return {
		target: { kind: 'custom', authUrl, accountsUrl },
		clientId: 'demo-client',
		clientSecret: 'custom-target-secret',
		redirectUri: 'http://localhost/callback',
		supergroup: 'student',
		country: 'uk',
		responseType: 'code',
		extraLinkParams: [],
		...overrides
	};
}

/** A code from the sandbox for the demo client, as the authorisation page would issue it, via the control API. */
export async function sandboxCode(
	accountsUrl: string,
	redirectUri: string,
	options: { clientId?: string; login?: string; supergroup?: string } = {}
): Promise<string> {
	const response = await fetch(`${accountsUrl}/sandbox/authorize`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			supergroup: options.supergroup ?? 'student',
			response_type: 'code',
			client_id: options.clientId ?? 'demo-client',
			redirect_uri: redirectUri,
			country: 'uk',
			login: options.login ?? 'student@example.com',
			decision: 'authorize'
		})
	});
	const body = (await response.json()) as { location?: string; error?: string };
	if (!body.location) throw new Error(`/sandbox/authorize answered ${response.status}: ${JSON.stringify(body)}`);
	const code = new URL(body.location).searchParams.get('code');
	if (!code) throw new Error(`no code in ${body.location}`);
	return code;
}

/** A whole walk against the sandbox through the explorer's API; returns the last view. */
export async function sandboxWalk(session: ExplorerSession, accountsUrl: string) {
	await session.walk('reset');
	const code = await sandboxCode(accountsUrl, `${session.base}/callback`);
	const arrived = await session.callback(`code=${encodeURIComponent(code)}`);
	const exchanged = await session.walk('exchange', { transport: 'query' });
	const me = await session.walk('me', { transport: 'header', userAgent: true, host: true, credential: 'token' });
	return { arrived, exchanged, me };
}
