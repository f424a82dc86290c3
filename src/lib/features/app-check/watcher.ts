/**
 * What the app check's browser sees of a check's sign-in: the sandbox's sign-in link the app sent it to, its arrival
 * back at the app, the app's pages after it and the page's own calls (fetch, XHR), each with its request and answer.
 */
import type { Page, Request, Response } from 'playwright-core';
import type { BrowserRequestSeen } from '$lib/features/app-check/pure/engine';
import { MAX_BODY_BYTES } from '../../platform/outbound/outbound';

/** A visit of the sandbox's sign-in link (`/sso/{supergroup}?…`, which redirects to its sign-in pages). */
export function isSignInLink(url: string, authOrigins: readonly string[]): boolean {
	if (!URL.canParse(url)) return false;
	const parsed = new URL(url);
	return authOrigins.includes(parsed.origin) && parsed.pathname.startsWith('/sso/');
}

/** What the browser saw after the sandbox's redirect: the main frame's page loads, their bodies, refused origins. */
export class Watcher {
	/** The sandbox's sign-in link the app sent the browser to (its first visit). */
	link: string | null = null;
	callback: string | null = null;
	/** The main frame's page loads after the redirect (the app's answer, its own redirects). */
	readonly hops: SeenResponse[] = [];
	/** The page's own calls after the redirect (fetch, XHR): a single-page app's API may answer with a token. */
	readonly calls: SeenResponse[] = [];
	/** When each request was sent (the check's clock), for the engine's timeline. */
	private readonly sent = new WeakMap<Request, number>();
	private deciding = false;
	private arrived: (() => void) | null = null;
	readonly callbackSeen = new Promise<void>((resolve) => (this.arrived = resolve));
	private linked: (() => void) | null = null;
	readonly linkSeen = new Promise<void>((resolve) => (this.linked = resolve));

	constructor(
		private readonly page: Page,
		authOrigins: readonly string[]
	) {
		page.on('request', (request) => {
			this.sent.set(request, Date.now());
			if (this.link === null && request.isNavigationRequest() && request.frame() === page.mainFrame() && isSignInLink(request.url(), authOrigins)) {
				this.link = request.url();
				this.linked?.();
			}
			if (!this.deciding || this.callback !== null || !request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
			if (authOrigins.includes(new URL(request.url()).origin)) return;
			this.callback = request.url();
			this.arrived?.();
		});
		page.on('response', (response) => this.record(response));
	}

	/** From now on, page loads away from the sandbox are the app's answer. */
	decide(): void {
		this.deciding = true;
	}

	private record(response: Response): void {
		const request = response.request();
		if (this.callback === null) return;
		const page = request.isNavigationRequest() && request.frame() === this.page.mainFrame();
		if (!page && request.resourceType() !== 'fetch' && request.resourceType() !== 'xhr') return;
		const status = response.status();
		const body = status >= 300 && status < 400 ? Promise.resolve('') : response.text().catch(() => '');
		const startedMs = this.sent.get(request) ?? Date.now();
		(page ? this.hops : this.calls).push({
			url: response.url(),
			status,
			headers: response.headers(),
			body,
			request: { method: request.method(), body: request.postData(), startedMs, durationMs: Date.now() - startedMs }
		});
	}
}

export interface SeenResponse {
	url: string;
	status: number;
	headers: Record<string, string>;
	body: Promise<string>;
	request: { method: string; body: string | null; startedMs: number; durationMs: number };
}

/** What the browser saw after the redirect (its pages and its page's calls, in the order sent), for the engine. */
export async function seenAfterRedirect(watcher: Watcher): Promise<BrowserRequestSeen[]> {
	const seen = await Promise.all(
		[...watcher.hops, ...watcher.calls].map(async (r) => ({ method: r.request.method, url: r.url, requestBody: r.request.body, startedMs: r.request.startedMs, durationMs: r.request.durationMs, status: r.status, headers: r.headers, body: (await r.body).slice(0, MAX_BODY_BYTES) }))
	);
	return seen.sort((a, b) => a.startedMs - b.startedMs);
}

