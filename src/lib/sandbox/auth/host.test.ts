import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORISATION_ERRORS } from '$lib/protocol';
import { openStore, type SandboxStore } from '../store';
import { addDays } from '../../dates';
import { escapeHtml } from './html';
import { SESSION_COOKIE, createAuthHost } from './host';
import { FORM_BODY_LIMIT } from './http';
import { oneYearAfter } from './verification';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse';

let store: SandboxStore;
let server: Server;
let origin: string;

beforeAll(async () => {
	store = openStore(':memory:');
	const client = { client_secret: 'secret', redirect_uris: [REDIRECT], countries: ['uk', 'fr'], verification_key: 'supergroup' as const };
	store.upsertClient({ ...client, client_id: 'shop', name: 'Test Shop' });
	store.upsertClient({ ...client, client_id: 'hostile', name: '<script>alert("x")</script>' });
	const inAMonth = addDays(store.today(), 30);
	store.upsertUser({ login: 'student@test', password: PASSWORD, verifications: [{ supergroup: 'student', expires_on: inAMonth }] });
	store.upsertUser({ login: 'new@test', password: PASSWORD, verifications: [] });
	server = createServer(createAuthHost(store, { explorerOrigin: 'http://localhost:3000' }));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	store.close();
});

function link(params: Record<string, string>, supergroup = 'student'): string {
	const defaults = { response_type: 'code', client_id: 'shop', redirect_uri: REDIRECT, country: 'uk' };
	return `/sso/${supergroup}?${new URLSearchParams({ ...defaults, ...params })}`;
}

/** A browser without redirects followed automatically: keeps its cookie, follows 303s on this host on request. */
class Browser {
	cookie: string | undefined;
	lastSetCookie: string | undefined;

	async get(path: string): Promise<Response> {
		return this.request(path, { method: 'GET' });
	}

	async post(path: string, form: Record<string, string>): Promise<Response> {
		return this.request(path, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(form).toString()
		});
	}

	async request(path: string, init: RequestInit): Promise<Response> {
		const headers = new Headers(init.headers);
		if (this.cookie) headers.set('cookie', `${SESSION_COOKIE}=${this.cookie}`);
		const res = await fetch(origin + path, { ...init, headers, redirect: 'manual' });
		const setCookie = res.headers.get('set-cookie');
		if (setCookie) {
			this.lastSetCookie = setCookie;
			this.cookie = /^[^=]+=([^;]*)/.exec(setCookie)![1];
		}
		return res;
	}

	/** Starts a flow and follows its redirect to the first page. */
	async start(path: string): Promise<{ flow: string; page: string }> {
		const res = await this.get(path);
		expect(res.status).toBe(303);
		const flow = res.headers.get('location')!;
		expect(flow).toMatch(/^\/flow\/[A-Za-z0-9_-]+$/);
		return { flow, page: await (await this.get(flow)).text() };
	}

	async signIn(flow: string, page: string, login: string, password = PASSWORD): Promise<string> {
		const res = await this.post(`${flow}/login`, { csrf: csrfOf(page), login, password });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(flow);
		return (await this.get(flow)).text();
	}
}

function csrfOf(page: string): string {
	return /name="csrf" value="([^"]+)"/.exec(page)![1]!;
}

function pageKind(page: string): string | undefined {
	return /data-page="([a-z-]+)"/.exec(page)?.[1];
}

describe('authorisation request errors (7.1): shown with status 400, never a redirect', () => {
	const [invalidRedirect, invalidClient, unsupportedResponseType] = AUTHORISATION_ERRORS;
	const cases: { name: string; query: Record<string, string>; row: (typeof AUTHORISATION_ERRORS)[number] }[] = [
		{ name: 'client_id missing', query: { client_id: '' }, row: invalidClient },
		{ name: 'client_id unknown', query: { client_id: 'nobody' }, row: invalidClient },
		{ name: 'redirect_uri missing', query: { redirect_uri: '' }, row: invalidRedirect },
		{ name: 'redirect_uri on another path', query: { redirect_uri: `${REDIRECT}/other` }, row: invalidRedirect },
		{ name: 'redirect_uri with another scheme', query: { redirect_uri: REDIRECT.replace('https', 'http') }, row: invalidRedirect },
		{ name: 'response_type token', query: { response_type: 'token' }, row: unsupportedResponseType },
		{ name: 'response_type missing', query: { response_type: '' }, row: unsupportedResponseType }
	];
	for (const { name, query, row } of cases) {
		it(`${name}: ${row.id}`, async () => {
			const res = await new Browser().get(link(query));
			expect(res.status).toBe(400);
			expect(res.headers.get('location')).toBeNull();
			const page = await res.text();
			expect(page).toContain(escapeHtml(row.message));
			expect(page).toContain(`data-error="${row.id}"`);
			expect(page).not.toContain('http-equiv="refresh"');
		});
	}

	it('an unknown supergroup is a sandbox choice, labelled as such', async () => {
		const res = await new Browser().get(link({}, 'teachers'));
		expect(res.status).toBe(400);
		expect(res.headers.get('location')).toBeNull();
		const page = await res.text();
		expect(page).toContain('data-error="unknown-supergroup"');
		expect(page).toContain('Not described by the interface; the sandbox shows this.');
	});

	it('a country outside the client\'s plan is a sandbox choice, labelled as such', async () => {
		const res = await new Browser().get(link({ country: 'de' }));
		expect(res.status).toBe(400);
		expect(res.headers.get('location')).toBeNull();
		const page = await res.text();
		expect(page).toContain('data-error="country-outside-plan"');
		expect(page).toContain('Not described by the interface; the sandbox shows this.');
	});

	it('malformed percent-encoding in the supergroup is an unknown supergroup, not a crash', async () => {
		const res = await new Browser().get('/sso/stu%E0%A4dent?client_id=shop');
		expect(res.status).toBe(400);
		expect(await res.text()).toContain('data-error="unknown-supergroup"');
	});

	it('NUL bytes and repeated parameters get a 400 page', async () => {
		const nul = await new Browser().get(`/sso/student?response_type=code&client_id=sh%00op&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`);
		expect(nul.status).toBe(400);
		const repeated = await new Browser().get(`${link({})}&client_id=shop`);
		expect(repeated.status).toBe(400);
		expect(repeated.headers.get('location')).toBeNull();
	});
});

describe('the sign-in flow', () => {
	it('sets a session cookie that is HttpOnly and SameSite', async () => {
		const browser = new Browser();
		await browser.start(link({}));
		expect(browser.lastSetCookie).toMatch(/; HttpOnly/);
		expect(browser.lastSetCookie).toMatch(/; SameSite=Lax/);
		expect(browser.lastSetCookie).toMatch(/; Path=\//);
	});

	it('shows an error on a wrong password and keeps the user on the login page', async () => {
		const browser = new Browser();
		const { flow, page } = await browser.start(link({}));
		expect(pageKind(page)).toBe('login');
		expect(page).toMatch(/<label for="login">Email<\/label>/);
		expect(page).toMatch(/<label for="password">Password<\/label>/);
		const after = await browser.signIn(flow, page, 'student@test', 'wrong');
		expect(pageKind(after)).toBe('login');
		expect(after).toMatch(/role="alert"[^>]*>.*Incorrect email or password/s);
		expect(after).toContain('value="student@test"');
		expect(after).toContain('aria-invalid="true"');
	});

	it('a verified user goes login → consent → Authorise → 303 to the redirect URI with code and the extra parameters', async () => {
		const browser = new Browser();
		const redirectUri = `${REDIRECT}?keep=a%20b&code=stale&x=1`;
		const { flow, page } = await browser.start(link({ redirect_uri: redirectUri }));
		const cookieBefore = browser.cookie;
		const consent = await browser.signIn(flow, page, 'student@test');
		expect(browser.cookie).not.toBe(cookieBefore); // a new session id on sign-in
		expect(pageKind(consent)).toBe('consent');
		expect(consent).toContain('Test Shop');
		expect(consent).toContain('<code>shop</code>');
		expect(consent).toContain('Students');
		expect(consent).toMatch(/value="authorize"[^>]*>Authorise</);
		expect(consent).toMatch(/value="cancel"[^>]*>Cancel</);

		const res = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		expect(res.status).toBe(303);
		const location = new URL(res.headers.get('location')!);
		expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
		expect(location.searchParams.get('keep')).toBe('a b');
		expect(location.searchParams.get('x')).toBe('1');
		expect(location.searchParams.getAll('code')).toHaveLength(1);
		expect(location.searchParams.get('code')).not.toBe('stale');
		const exchange = store.exchangeCode(location.searchParams.get('code')!, 'shop', redirectUri);
		expect(exchange.ok).toBe(true);

		// The flow is over: submitting again cannot issue a second code.
		const again = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		expect(again.status).toBe(404);
		expect(again.headers.get('location')).toBeNull();
	});

	it('Cancel redirects without a code', async () => {
		const browser = new Browser();
		const { flow, page } = await browser.start(link({ redirect_uri: `${REDIRECT}?keep=1` }));
		const consent = await browser.signIn(flow, page, 'student@test');
		const res = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'cancel' });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${REDIRECT}?keep=1`);
	});

	it('Cancel is on the sign-in and verification pages too: back without a code, and the flow is over', async () => {
		const beforeSignIn = new Browser();
		const started = await beforeSignIn.start(link({}));
		expect(pageKind(started.page)).toBe('login');
		expect(started.page).toContain(`action="${started.flow}/cancel"`);
		const cancelled = await beforeSignIn.post(`${started.flow}/cancel`, { csrf: csrfOf(started.page) });
		expect(cancelled.status).toBe(303);
		expect(cancelled.headers.get('location')).toBe(REDIRECT);
		expect((await beforeSignIn.post(`${started.flow}/login`, { csrf: csrfOf(started.page), login: 'student@test', password: PASSWORD })).status).toBe(404);

		const verifying = new Browser();
		const { flow, page } = await verifying.start(link({}, 'graduate'));
		const verify = await verifying.signIn(flow, page, 'new@test');
		expect(pageKind(verify)).toBe('verify');
		const res = await verifying.post(`${flow}/cancel`, { csrf: csrfOf(verify) });
		expect(res.headers.get('location')).toBe(REDIRECT);
		// Without the session's CSRF token, nothing is cancelled.
		const other = new Browser();
		const third = await other.start(link({}));
		expect((await other.post(`${third.flow}/cancel`, { csrf: 'forged' })).status).toBe(403);
	});

	it('with an authorise-cancel outcome rule, the consent page says so and Authorise redirects as a cancel, once', async () => {
		store.setOutcome('shop', 'authorise-cancel');
		const browser = new Browser();
		const { flow, page } = await browser.start(link({ redirect_uri: `${REDIRECT}?keep=1` }));
		const consent = await browser.signIn(flow, page, 'student@test');
		expect(consent).toMatch(/data-outcome-rule="authorise-cancel"[^>]*>.*redirects as a cancel would/s);
		const res = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		expect(res.headers.get('location')).toBe(`${REDIRECT}?keep=1`);
		expect(store.outcomeRules('shop').used).toEqual([expect.objectContaining({ outcome: 'authorise-cancel', request: 'POST /flow/{id}/consent' })]);

		const next = await browser.start(link({ redirect_uri: `${REDIRECT}?keep=1` }));
		expect(next.page).not.toContain('data-outcome-rule');
		const again = await browser.post(`${next.flow}/consent`, { csrf: csrfOf(next.page), decision: 'authorize' });
		expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
	});

	it('a user without verification passes through the verify page, then consents', async () => {
		const browser = new Browser();
		const { flow, page } = await browser.start(link({}, 'graduate'));
		const verify = await browser.signIn(flow, page, 'new@test');
		expect(pageKind(verify)).toBe('verify');
		expect(verify).toContain('Graduates');

		// Authorise before verifying is sent back to the verify page, with no code.
		const early = await browser.post(`${flow}/consent`, { csrf: csrfOf(verify), decision: 'authorize' });
		expect(early.headers.get('location')).toBe(flow);

		const unknownProof = await browser.post(`${flow}/verify`, { csrf: csrfOf(verify), proof: 'student-id' });
		expect(unknownProof.status).toBe(400);

		const res = await browser.post(`${flow}/verify`, { csrf: csrfOf(verify), proof: 'degree-certificate' });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(flow);
		expect(store.getUserByLogin('new@test')!.verifications).toEqual([
			{ supergroup: 'graduate', expires_on: oneYearAfter(store.today()) }
		]);
		const consent = await (await browser.get(flow)).text();
		expect(pageKind(consent)).toBe('consent');
		const done = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		expect(new URL(done.headers.get('location')!).searchParams.get('code')).toBeTruthy();
	});

	it('skips the login page when already signed in, and signs out', async () => {
		const browser = new Browser();
		const first = await browser.start(link({}));
		await browser.signIn(first.flow, first.page, 'student@test');
		const second = await browser.start(link({}));
		expect(pageKind(second.page)).toBe('consent');
		expect(second.page).toMatch(/Signed in as <strong[^>]*>student@test<\/strong> — not you\?/);
		const res = await browser.post(`${second.flow}/signout`, { csrf: csrfOf(second.page) });
		expect(res.status).toBe(303);
		expect(pageKind(await (await browser.get(second.flow)).text())).toBe('login');
	});

	it('escapes a hostile client name', async () => {
		const browser = new Browser();
		const { flow, page } = await browser.start(link({ client_id: 'hostile' }));
		const consent = await browser.signIn(flow, page, 'student@test');
		expect(pageKind(consent)).toBe('consent');
		expect(consent).not.toContain('<script>');
		expect(consent).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
	});
});

describe('workspaces: the client_id finds the flow\'s workspace', () => {
	/** A second workspace with its own client, a user with the same login as the default one's, and one of its own. */
	function otherWorkspace() {
		const { workspace } = store.createWorkspace({ fixtures: 'empty' });
		const clientId = `shop~${workspace.id}`;
		workspace.upsertClient({ client_id: clientId, client_secret: 'secret', name: 'Other Shop', redirect_uris: [REDIRECT], countries: ['uk'], verification_key: 'supergroup' });
		const inAMonth = addDays(workspace.today(), 30);
		const student = workspace.upsertUser({ login: 'student@test', password: 'other password', verifications: [{ supergroup: 'student', expires_on: inAMonth }] });
		return { workspace, clientId, student };
	}

	it('signs in only the workspace\'s users, with their own passwords', async () => {
		const { clientId } = otherWorkspace();
		const browser = new Browser();
		const { flow, page } = await browser.start(link({ client_id: clientId }));
		expect(pageKind(await browser.signIn(flow, page, 'student@test'))).toBe('login'); // the default workspace's password
		expect(pageKind(await browser.signIn(flow, page, 'new@test'))).toBe('login'); // a user only the default workspace has
		expect(pageKind(await browser.signIn(flow, page, 'student@test', 'other password'))).toBe('consent');
	});

	it('says on the consent page why a workspace client\'s id ends in the workspace\'s id; the default\'s say nothing', async () => {
		const { workspace, clientId } = otherWorkspace();
		const browser = new Browser();
		const { flow, page } = await browser.start(link({ client_id: clientId }));
		const consent = await browser.signIn(flow, page, 'student@test', 'other password');
		expect(consent).toContain(`This client is in the sandbox workspace <code>${workspace.id}</code>.`);
		expect(consent).toContain('so teams sharing one sandbox never collide');
		const other = new Browser();
		const plain = await other.start(link({}));
		expect(await other.signIn(plain.flow, plain.page, 'student@test')).not.toContain('workspace-client-note');
	});

	it('a session signed in to one workspace signs in again in another, and the code is the other\'s alone', async () => {
		const { workspace, clientId, student } = otherWorkspace();
		const browser = new Browser();
		const first = await browser.start(link({}));
		await browser.signIn(first.flow, first.page, 'student@test');
		const second = await browser.start(link({ client_id: clientId }));
		expect(pageKind(second.page)).toBe('login');
		const consent = await browser.signIn(second.flow, second.page, 'student@test', 'other password');
		const res = await browser.post(`${second.flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
		expect(store.exchangeCode(code, 'shop', REDIRECT)).toEqual({ ok: false, cause: 'unknown-code' });
		expect(workspace.exchangeCode(code, clientId, REDIRECT)).toMatchObject({ ok: true, userId: student.id });
	});
});

describe('CSRF and bad input', () => {
	async function atConsent() {
		const browser = new Browser();
		const { flow, page } = await browser.start(link({}));
		const consent = await browser.signIn(flow, page, 'student@test');
		return { browser, flow, consent };
	}

	it('refuses a missing or wrong CSRF token with 403 and no redirect', async () => {
		const { browser, flow, consent } = await atConsent();
		const forms: Record<string, string>[] = [{ decision: 'authorize' }, { decision: 'authorize', csrf: 'forged' }, { decision: 'authorize', csrf: '' }];
		for (const form of forms) {
			const res = await browser.post(`${flow}/consent`, form);
			expect(res.status).toBe(403);
			expect(res.headers.get('location')).toBeNull();
			expect(await res.text()).toContain('CSRF');
		}
		const repeated = await browser.request(`${flow}/consent`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `csrf=${csrfOf(consent)}&csrf=${csrfOf(consent)}&decision=authorize`
		});
		expect(repeated.status).toBe(403);
	});

	it('refuses a post from a browser without the session', async () => {
		const { flow, consent } = await atConsent();
		const res = await new Browser().post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'authorize' });
		expect(res.status).toBe(403);
	});

	it('answers an unknown decision, a JSON body and an oversized form with a 4xx page', async () => {
		const { browser, flow, consent } = await atConsent();
		const bad = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'maybe' });
		expect(bad.status).toBe(400);
		const json = await browser.request(`${flow}/consent`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ csrf: csrfOf(consent), decision: 'authorize' })
		});
		expect(json.status).toBe(415);
		const big = await browser.post(`${flow}/consent`, { csrf: csrfOf(consent), decision: 'x'.repeat(FORM_BODY_LIMIT) });
		expect(big.status).toBe(413);
		expect(big.headers.get('content-type')).toMatch(/text\/html/);
	});

	it('answers an unknown flow, an unknown path and a wrong method with 4xx pages', async () => {
		const browser = new Browser();
		expect((await browser.get('/flow/nope')).status).toBe(404);
		expect((await browser.get('/nothing-here')).status).toBe(404);
		const post = await browser.post('/sso/student', {});
		expect(post.status).toBe(405);
		expect(post.headers.get('allow')).toBe('GET, HEAD');
	});
});

describe('host basics', () => {
	it('answers the health check', async () => {
		const res = await fetch(`${origin}/health`);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ ok: true, host: 'authorisation' });
	});

	it('sends its security headers, with no form-action so the consent redirect may leave the origin', async () => {
		const res = await fetch(origin + link({}), { redirect: 'manual' });
		const csp = res.headers.get('content-security-policy')!;
		expect(csp).toContain("default-src 'none'");
		expect(csp).toContain("style-src 'self'");
		expect(csp).not.toContain('form-action');
		expect(res.headers.get('x-frame-options')).toBe('DENY');
		expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		expect(res.headers.get('referrer-policy')).toBe('no-referrer');
		expect(res.headers.get('cache-control')).toBe('no-store');
	});

	it('serves its stylesheet', async () => {
		const res = await fetch(`${origin}/assets/auth.css`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/css/);
		expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		expect(await res.text()).toContain('prefers-color-scheme: dark');
	});

	it('names its own icon on every page and serves it, so no browser asks for a missing /favicon.ico', async () => {
		const { page } = await new Browser().start(link({}));
		const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page)?.[1];
		expect(href).toBe('/assets/icon.svg');
		const res = await fetch(`${origin}${href}`);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('image/svg+xml');
		expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
	});
});
