/**
 * CSRF: every route of the explorer that changes state, found by reading src/routes (so a new route is covered
 * without editing this file), refuses a cross-site request with 403 and changes nothing: not the session's walk,
 * not the lesson, not the saved runs. The same request from the explorer's own origin is let through (the control).
 * In Chromium, a page on another site, or on another origin of the same site (whose requests carry the session
 * cookie), changes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { unflatten } from 'devalue';
import { expect, test } from '@playwright/test';
import { ExplorerSession, sandboxCode } from './support/explorer';
import { ACCOUNTS_HOST, AUTH_HOST, EXPLORER, HOSTILE_ORIGIN, HOSTILE_PORT } from './support/ports';
import { startTarget } from './support/servers';
import { authorise, open } from '../support/walk';

const ROUTES = join(process.cwd(), 'src', 'routes');
const MARKER = 'csrf-attacker';

interface Route {
	/** e.g. /api/walk/[action] */
	pattern: string;
	method: string;
	/** An endpoint, a named form action (SvelteKit's +page.server.ts `actions`), or a page without actions. */
	kind: 'endpoint' | 'action' | 'page';
	/** For an action: its name, posted as `?/name`. */
	action?: string;
}

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile())
		.map((e) => join(e.parentPath, e.name));
}

function routePattern(file: string): string {
	const segments = relative(ROUTES, file).split(sep).slice(0, -1).filter((s) => !/^\(.*\)$/.test(s));
	return `/${segments.join('/')}`;
}

/** State-changing handlers as the source declares them. */
function stateChangingRoutes(): Route[] {
	const routes: Route[] = [];
	for (const file of files(ROUTES)) {
		const source = readFileSync(file, 'utf8');
		const name = file.split(sep).at(-1)!;
		if (/^\+server\.(ts|js)$/.test(name)) {
			for (const [, method] of source.matchAll(/export\s+(?:const|(?:async\s+)?function)\s+(POST|PUT|PATCH|DELETE)\b/g)) {
				routes.push({ pattern: routePattern(file), method: method!, kind: 'endpoint' });
			}
		}
		if (/^\+page\.server\.(ts|js)$/.test(name)) {
			for (const action of actionNames(source)) routes.push({ pattern: routePattern(file), method: 'POST', kind: 'action', action });
		}
		if (/^\+page\.svelte$/.test(name)) routes.push({ pattern: routePattern(file), method: 'POST', kind: 'page' });
	}
	return routes;
}

/** The names in `export const actions = { name: ..., name2: ... }` ('default' for a default action). */
function actionNames(source: string): string[] {
	const start = source.search(/export\s+const\s+actions\b/);
	if (start < 0) return [];
	const body = source.slice(start, source.indexOf('\n}', start));
	return [...body.matchAll(/^\t(\w+)\s*:/gm)].map((m) => m[1]!);
}

/** The walk's actions, read from the switch in walkAction, so a new action is attacked too. */
function walkActions(): string[] {
	const source = readFileSync(join(process.cwd(), 'src', 'lib', 'features', 'walk', 'explorer.ts'), 'utf8');
	const body = source.slice(source.indexOf('export async function walkAction'));
	return [...body.slice(0, body.indexOf('\n}\n')).matchAll(/case '(\w+)':/g)].map((m) => m[1]!);
}

/** Concrete URLs for a pattern: every walk action for [action], a placeholder elsewhere. */
function concrete(route: Route): string[] {
	if (route.action) return [`${route.pattern}?/${route.action}`];
	if (route.pattern.includes('[action]') && route.pattern.startsWith('/api/walk')) {
		return walkActions().map((a) => route.pattern.replace('[action]', a));
	}
	return [route.pattern.replace(/\[\.\.\.[^\]]+\]/g, 'x/y').replace(/\[\[?[^\]]+\]?\]/g, (p) => (p.includes('format') ? 'har' : 'x'))];
}

/** A body that would change something if it were accepted. */
function hostileBody(url: string): { body: string; type: string } {
	if (url.endsWith('/api/walk/client')) {
		return {
			type: 'application/json',
			body: JSON.stringify({
				target: { kind: 'custom', authUrl: HOSTILE_ORIGIN, accountsUrl: HOSTILE_ORIGIN },
				clientId: MARKER,
				clientSecret: MARKER,
				redirectUri: `${HOSTILE_ORIGIN}/${MARKER}`,
				supergroup: 'student',
				country: 'uk',
				responseType: 'code',
				extraLinkParams: []
			})
		};
	}
	if (url.endsWith('/api/walk/start')) return { type: 'application/json', body: JSON.stringify({ link: `${HOSTILE_ORIGIN}/sso/student?client_id=${MARKER}` }) };
	if (url.endsWith('/api/lesson')) return { type: 'application/json', body: JSON.stringify({ outcome: 'restart' }) };
	if (url.endsWith('/api/import')) return { type: 'application/json', body: JSON.stringify({ kind: 'har', text: hostileHar() }) };
	return { type: 'application/json', body: JSON.stringify({ transport: 'query', credential: 'none', name: MARKER, login: MARKER }) };
}

/** Form fields the sandbox panel's actions read, each set to change something. */
function hostileForm(): string {
	return new URLSearchParams({
		client_id: 'demo-client',
		client_secret: MARKER,
		name: MARKER,
		redirect_uris: `${HOSTILE_ORIGIN}/${MARKER}`,
		countries: 'uk',
		verification_key: 'group',
		login: 'student@example.com',
		password: MARKER,
		deletion_requested: 'on',
		seconds: '86400',
		date: '2099-01-01',
		verification_supergroup: 'student',
		verification_expires_on: '2000-01-01',
		confirm: 'on'
	}).toString();
}

function hostileHar(): string {
	return readFileSync(join(process.cwd(), 'src', 'lib', 'features', 'runs', 'pure', 'har', 'fixtures', 'success.har.json'), 'utf8').replaceAll('shop-client', MARKER);
}

const CROSS_SITE: [string, Record<string, string>][] = [
	['Origin of another site', { origin: 'http://evil.example' }],
	['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
	['Sec-Fetch-Site: same-site without Origin', { 'sec-fetch-site': 'same-site' }],
	['Origin: null (a sandboxed frame or a data: URL)', { origin: 'null' }],
	["Origin of the sandbox's own authorisation host", { origin: AUTH_HOST }],
	['Origin of the allowed target', { origin: HOSTILE_ORIGIN }],
	['Origin of the explorer with another scheme and port', { origin: EXPLORER.replace('http:', 'https:').replace(/:\d+$/, ':443') }],
	["Origin of the explorer's host and port with another scheme", { origin: EXPLORER.replace('http:', 'https:') }]
];

/** The page data SvelteKit serves for a route, decoded. */
async function pageData(session: ExplorerSession, path: string): Promise<Record<string, unknown>> {
	const [pathname, query] = path.split('?');
	const response = await session.request(`${pathname === '/' ? '' : pathname}/__data.json${query ? `?${query}` : ''}`);
	const payload = (await response.json()) as { nodes: ({ type: string; data: unknown } | null)[] };
	const node = payload.nodes.at(-1);
	return node?.type === 'data' ? (unflatten(node.data as never) as Record<string, unknown>) : {};
}

interface Snapshot {
	walk: unknown;
	lesson: unknown;
	runs: unknown;
	sandbox: unknown;
}

/** The sandbox's clients and users, and how far its clock is from real time (to the minute). */
async function sandboxState() {
	const state = (await (await fetch(`${ACCOUNTS_HOST}/sandbox/state`)).json()) as { now: string; clients: unknown[]; users: unknown[] };
	return { clients: state.clients, users: state.users, clockOffsetMinutes: Math.round((Date.parse(state.now) - Date.now()) / 60_000) || 0 }; // || 0: a drift just under zero rounds to -0
}

/** What a forged request could change, minus the clock. */
async function snapshot(session: ExplorerSession): Promise<Snapshot> {
	const walk = (await pageData(session, '/')).view as Record<string, unknown>;
	const lesson = (await pageData(session, '/learn/cancel')).lesson;
	const runs = (await pageData(session, '/runs')).runs;
	return { walk: { ...walk, sandboxNow: null }, lesson, runs, sandbox: await sandboxState() };
}

test('the route enumeration finds the known state-changing routes (so the next test attacks them all)', () => {
	const endpoints = stateChangingRoutes().filter((r) => r.kind !== 'page');
	const patterns = endpoints.map((r) => `${r.method} ${r.pattern}`);
	expect(patterns).toEqual(expect.arrayContaining(['POST /api/walk/[action]', 'POST /api/import', 'POST /api/lesson']));
	const actions = stateChangingRoutes().filter((r) => r.kind === 'action');
	if (actions.some((r) => r.pattern === '/sandbox')) {
		expect(actions.map((r) => r.action)).toEqual(expect.arrayContaining(['saveClient', 'reset']));
	}
	expect(walkActions()).toEqual(expect.arrayContaining(['client', 'start', 'exchange', 'me', 'reveal', 'reset']));
});

test('a cross-site write to every state-changing route is refused with 403 and changes nothing', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	// State worth protecting: a walk with a code, an exchange and a me.json call; a lesson half done; saved runs.
	expect((await session.post('/api/lesson', { outcome: 'cancel' })).status).toBe(200);
	await session.callback('');
	// The lesson's second half: it opens the authorisation page again, whose redirect the walk then waits for.
	expect((await session.post('/api/lesson', { outcome: 'authorise' })).status).toBe(200);
	const code = await sandboxCode(ACCOUNTS_HOST, `${EXPLORER}/callback`);
	expect(await session.callback(`code=${encodeURIComponent(code)}`)).toBe(303);
	expect((await session.walk('exchange', { transport: 'query' })).status).toBe(200);
	expect((await session.walk('me', { credential: 'token' })).status).toBe(200);
	const before = await snapshot(session);
	expect((before.lesson as { cancel: unknown }).cancel).not.toBeNull();
	expect((before.walk as { exchanges: unknown[] }).exchanges).toHaveLength(2);

	const routes = stateChangingRoutes();
	const attempts: string[] = [];
	for (const route of routes) {
		for (const url of concrete(route)) {
			for (const [why, headers] of CROSS_SITE) {
				const { body, type } =
					route.kind === 'endpoint' ? hostileBody(url) : { body: hostileForm(), type: 'application/x-www-form-urlencoded' };
				for (const method of route.kind === 'endpoint' ? [route.method] : ['POST', 'PUT', 'DELETE']) {
					const response = await session.request(url, { method, headers: { 'content-type': type, ...headers }, body });
					const text = await response.text();
					attempts.push(`${method} ${url} (${why})`);
					expect(response.status, `${method} ${url} with ${why}: ${text}`).toBe(403);
					if (route.kind === 'endpoint') expect(text, url).toContain('Cross-site request refused');
				}
			}
		}
	}
	expect(attempts.length).toBeGreaterThan(CROSS_SITE.length * 8);

	const after = await snapshot(session);
	expect(after).toEqual(before);
	expect(JSON.stringify(after)).not.toContain(MARKER);
	const search = await pageData(session, `/runs?q=${MARKER}`);
	expect(search.runs).toEqual([]);
});

test('the same writes from the explorer\'s own origin are let through (the control)', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	const sameOrigin: Record<string, string>[] = [{ origin: EXPLORER }, { 'sec-fetch-site': 'same-origin' }, { origin: EXPLORER, 'sec-fetch-site': 'same-origin' }];
	for (const origin of sameOrigin) {
		const response = await session.request('/api/walk/me', {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...origin },
			body: JSON.stringify({ credential: 'none' })
		});
		expect(response.status, JSON.stringify(origin)).toBe(200);
		await response.text();
	}
	const reset = await session.request('/api/walk/reset', { method: 'POST', headers: { 'content-type': 'application/json', origin: EXPLORER }, body: '{}' });
	expect(reset.status).toBe(200);
	await reset.text();
	const lesson = await session.request('/api/lesson', {
		method: 'POST',
		headers: { 'content-type': 'application/json', origin: EXPLORER },
		body: JSON.stringify({ outcome: 'restart' })
	});
	expect(lesson.status).toBe(200);

	// A form action of the sandbox panel, when there is one, really changes state from the explorer's origin.
	if (stateChangingRoutes().some((r) => r.pattern === '/sandbox' && r.action === 'saveClient')) {
		const form = new URLSearchParams({
			client_id: 'csrf-control-client',
			client_secret: 'csrf-control-secret',
			name: 'CSRF control',
			redirect_uris: `${EXPLORER}/callback`,
			countries: 'uk',
			verification_key: 'supergroup'
		});
		const saved = await session.request('/sandbox?/saveClient', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EXPLORER, 'x-sveltekit-action': 'true' },
			body: form.toString()
		});
		expect(saved.status, await saved.text()).toBe(200);
		const clients = (await sandboxState()).clients as { client_id: string }[];
		expect(clients.map((c) => c.client_id)).toContain('csrf-control-client');
	}
});

test('in Chromium, a page on another site that posts to the explorer (fetch and form) changes nothing', async ({ page, context }) => {
	await open(page, '/');
	const before = await page.request.get('/__data.json').then((r) => r.text());
	const forgedTo: string[] = [];
	const attacker = await startTarget(HOSTILE_PORT, (_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>attacker</title>
<form id="f" method="post" action="${EXPLORER}/api/walk/reset" enctype="text/plain"><input name='{"a":"' value='"}'></form>
<script>
fetch('${EXPLORER}/api/walk/client', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
  body: JSON.stringify({ target: { kind: 'custom', authUrl: '${HOSTILE_ORIGIN}', accountsUrl: '${HOSTILE_ORIGIN}' }, clientId: '${MARKER}', redirectUri: 'x', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] }) })
  .finally(() => document.getElementById('f').submit());
</script>`);
	});
	try {
		context.on('request', (request) => {
			if (request.url().startsWith(EXPLORER) && request.method() === 'POST') forgedTo.push(request.url());
		});
		const refused = page.waitForResponse((r) => r.url().endsWith('/api/walk/reset'));
		await page.goto(`${HOSTILE_ORIGIN}/attack`);
		expect((await refused).status()).toBe(403);
		expect(forgedTo).toEqual([`${EXPLORER}/api/walk/client`, `${EXPLORER}/api/walk/reset`]);
		const after = await page.request.get('/__data.json').then((r) => r.text());
		const strip = (s: string) => s.replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"');
		expect(strip(after)).toEqual(strip(before));
		expect(after).not.toContain(MARKER);
	} finally {
		await attacker.close();
	}
});

test("a page on another origin of the same site, whose requests carry the session cookie, cannot reset a walk behind the user's back", async ({ page }) => {
	await authorise(page);
	// Another origin on the same site (cookies ignore ports, so the explorer's session cookie goes along): the
	// sandbox's accounts host, whose JSON answers carry no CSP that would stop the page's fetch.
	await page.goto(`${ACCOUNTS_HOST}/sandbox/state`);
	const status = await page.evaluate(async (target) => {
		try {
			const response = await fetch(`${target}/api/walk/reset`, { method: 'POST', credentials: 'include', mode: 'no-cors', body: '{}' });
			return response.type;
		} catch (error) {
			return String(error);
		}
	}, EXPLORER);
	expect(status).toBe('opaque');
	await open(page, '/');
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');
});
