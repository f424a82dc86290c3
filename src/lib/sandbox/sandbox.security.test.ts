/**
 * The sandbox's security promises: client secrets and passwords are compared in constant time (every check goes
 * through crypto.timingSafeEqual on equal-length values, also for an unknown client or login, and no source line
 * compares a secret with ===); codes and tokens carry at least 128 bits of randomness; the control API is absent
 * when it is turned off.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { openStore, type SandboxStore } from './store';
import { applyFixtures } from './fixtures';
import { startSandbox, type RunningSandbox } from './index';

vi.mock('node:crypto', async (importOriginal) => {
	const actual = await importOriginal<typeof import('node:crypto')>();
	return { ...actual, default: actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const spy = vi.mocked(timingSafeEqual);

describe('constant-time comparison of secrets', () => {
	let store: SandboxStore;
	beforeEach(() => {
		store = openStore(':memory:');
		applyFixtures(store, 'http://localhost:3000');
		spy.mockClear();
	});
	afterEach(() => store.close());

	/** The byte lengths of each timingSafeEqual call since the last clear. */
	const comparedLengths = () => spy.mock.calls.map(([a, b]) => [(a as Buffer).length, (b as Buffer).length]);

	it.each([
		['the right secret', 'demo-client', 'demo-secret-change-me', true],
		['a wrong secret of the same length', 'demo-client', 'demo-secret-change-mX', false],
		['a one-character secret', 'demo-client', 'x', false],
		['a very long secret', 'demo-client', 'x'.repeat(10_000), false],
		['the right prefix only', 'demo-client', 'demo-secret', false],
		['an unknown client', 'no-such-client', 'demo-secret-change-me', false]
	])('authenticateClient with %s goes through one timingSafeEqual of two equal-length digests', (_why, clientId, secret, ok) => {
		expect(store.authenticateClient(clientId, secret).ok).toBe(ok);
		expect(comparedLengths()).toEqual([[32, 32]]);
	});

	it.each([
		['the right password', 'student@example.com', 'password', true],
		['a wrong password', 'student@example.com', 'passwore', false],
		['an empty password', 'student@example.com', '', false],
		['an unknown login (checked against a dummy hash, so it takes as long)', 'nobody@example.com', 'password', false]
	])('authenticateUser with %s goes through timingSafeEqual on scrypt keys', (_why, login, password, ok) => {
		expect(Boolean(store.authenticateUser(login, password))).toBe(ok);
		expect(comparedLengths()).toEqual([[32, 32]]);
	});

	it('no sandbox source compares a secret, password, code or token with ==, ===, != or !== (other than to undefined or null)', () => {
		const root = join(process.cwd(), 'src', 'lib', 'sandbox');
		const sources = readdirSync(root, { recursive: true, withFileTypes: true })
			.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'test-support.ts')
			.map((e) => join(e.parentPath, e.name));
		expect(sources.length).toBeGreaterThan(10);
		const sensitive = /secret|password|passwd|(^|\W)code(\W|$)|token(?!s?_?type|Type|Url)/i;
		const comparison = /([^\s=!<>]+(?:\([^)]*\))?)\s*(?:===|!==|==|!=)\s*([^\s;)&|,]+)/g;
		const offending: string[] = [];
		for (const file of sources) {
			readFileSync(file, 'utf8')
				.split('\n')
				.forEach((line, i) => {
					if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
					for (const [whole, left, right] of line.matchAll(comparison)) {
						const sides = [left!, right!];
						if (sides.some((s) => /^(undefined|null|'[^']*'|"[^"]*"|\d+|true|false)$/.test(s))) continue;
						if (/typeof|\.length|\.kind|\.status|\.cause|\.ok/.test(whole)) continue;
						if (sides.some((s) => sensitive.test(s))) offending.push(`${file}:${i + 1}: ${line.trim()}`);
					}
				});
		}
		expect(offending).toEqual([]);
	});
});

/** base64url without padding, decoded; null when the text is not base64url. */
function decodeBase64url(text: string): Buffer | null {
	return /^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url') : null;
}

/** For each bit position of the decoded values, the fraction of samples that have it set. */
function bitFrequencies(values: Buffer[]): number[] {
	const bits = Math.min(...values.map((v) => v.length)) * 8;
	const counts = new Array<number>(bits).fill(0);
	for (const value of values) for (let bit = 0; bit < bits; bit++) if (value[bit >> 3]! & (0x80 >> (bit & 7))) counts[bit]!++;
	return counts.map((c) => c / values.length);
}

function expectUnguessable(kind: string, samples: string[]) {
	expect(samples).toHaveLength(10_000);
	expect(new Set(samples).size, `${kind}: distinct`).toBe(samples.length);
	const decoded = samples.map(decodeBase64url);
	expect(decoded.filter((d) => d === null), `${kind}: base64url`).toEqual([]);
	for (const sample of samples) expect(sample.length, `${kind}: ${sample}`).toBeGreaterThanOrEqual(22);
	const bytes = decoded as Buffer[];
	expect(Math.min(...bytes.map((b) => b.length)) * 8, `${kind}: bits`).toBeGreaterThanOrEqual(128);
	// Random bits are set about half the time, each independently; a counter, a timestamp or padding is not.
	const frequencies = bitFrequencies(bytes);
	const skewed = frequencies.map((f, bit) => [bit, f] as const).filter(([, f]) => f < 0.45 || f > 0.55);
	expect(skewed, `${kind}: bits set far from half the time`).toEqual([]);
}

describe('entropy of codes and tokens', () => {
	it('10,000 codes, access tokens and refresh tokens, from the code and from the refresh grant: distinct base64url, at least 128 bits, every bit balanced', () => {
		const store = openStore(':memory:');
		applyFixtures(store, 'http://localhost:3000');
		const user = store.getUserByLogin('student@example.com')!;
		const redirectUri = 'http://localhost:3000/callback';
		const codes: string[] = [];
		const access: string[] = [];
		const refresh: string[] = [];
		for (let i = 0; i < 10_000; i++) codes.push(store.issueCode({ clientId: 'demo-client', userId: user.id, redirectUri }));
		for (const code of codes) {
			const result = store.exchangeCode(code, 'demo-client', redirectUri);
			if (!result.ok) throw new Error(`exchange failed: ${result.cause}`);
			access.push(result.tokens.access_token);
			refresh.push(result.tokens.refresh_token);
		}
		// The refresh grant (sandbox choice 'refresh-grant') issues tokens too: each refresh token once.
		const renewedAccess: string[] = [];
		const renewedRefresh: string[] = [];
		for (const token of refresh) {
			const result = store.refresh(token, 'demo-client');
			if (!result.ok) throw new Error(`refresh failed: ${result.cause}`);
			renewedAccess.push(result.tokens.access_token);
			renewedRefresh.push(result.tokens.refresh_token);
		}
		store.close();
		expectUnguessable('codes', codes);
		expectUnguessable('access tokens', access);
		expectUnguessable('refresh tokens', refresh);
		expectUnguessable('access tokens of the refresh grant', renewedAccess);
		expectUnguessable('refresh tokens of the refresh grant', renewedRefresh);
		expect(new Set([...codes, ...access, ...refresh, ...renewedAccess, ...renewedRefresh]).size).toBe(50_000);
	}, 60_000);
});

describe('the control API when turned off', () => {
	const ENDPOINTS: [string, string, unknown][] = [
		['POST', '/sandbox/reset', {}],
		['POST', '/sandbox/clients', { client_id: 'intruder', client_secret: 's', redirect_uris: ['https://evil.example/cb'], countries: ['uk'] }],
		['POST', '/sandbox/users', { login: 'intruder@example.com', password: 'p', verifications: [] }],
		['POST', '/sandbox/clock', { advance_seconds: 86_400 }],
		[
			'POST',
			'/sandbox/authorize',
			{ supergroup: 'student', response_type: 'code', client_id: 'demo-client', redirect_uri: 'http://localhost:3000/callback', country: 'uk', login: 'student@example.com', decision: 'authorize' }
		],
		['GET', '/sandbox/log', null],
		['GET', '/sandbox/outcomes', null],
		['POST', '/sandbox/outcomes', { client_id: 'demo-client', outcome: 'me-404' }],
		['POST', '/sandbox/outcomes/clear', { client_id: 'demo-client' }],
		['GET', '/sandbox/state', null],
		['GET', '/sandbox/workspace', null],
		['POST', '/sandbox/workspaces', { fixtures: 'demo' }],
		['DELETE', '/sandbox/workspaces/abcdefghij', null],
		['GET', '/sandbox', null],
		['GET', '/sandbox/', null],
		['DELETE', '/sandbox/clients', null],
		['OPTIONS', '/sandbox/state', null]
	];

	let sandbox: RunningSandbox | undefined;
	afterEach(async () => {
		await sandbox?.close();
		sandbox = undefined;
	});

	async function start(controlApi: boolean): Promise<RunningSandbox> {
		sandbox = await startSandbox({
			authPort: 0,
			accountsPort: 0,
			hostname: '127.0.0.1',
			explorerOrigin: 'http://localhost:3000',
			databasePath: ':memory:',
			controlApi
		});
		return sandbox;
	}

	const call = (base: string, [method, path, body]: (typeof ENDPOINTS)[number]) =>
		fetch(`${base}${path}`, {
			method,
			headers: body === null ? {} : { 'content-type': 'application/json' },
			body: body === null ? undefined : JSON.stringify(body)
		});

	it('the list above names every endpoint the control API defines (control.ts), so a new one is checked too', () => {
		const source = readFileSync(join(process.cwd(), 'src', 'lib', 'sandbox', 'accounts', 'control.ts'), 'utf8');
		const defined = [...source.matchAll(/^\t\t'(\/sandbox\/[\w/-]*)': [{[]/gm)].map((m) => m[1]!);
		expect(defined.length).toBeGreaterThanOrEqual(7);
		expect(defined.filter((path) => !ENDPOINTS.some(([, listed]) => listed === path))).toEqual([]);
	});

	it('every control endpoint is a 404 on both hosts, says nothing of a control API, and changes nothing', async () => {
		const running = await start(false);
		const clockBefore = running.store.now().getTime();
		const clientsBefore = running.store.listClients();
		const usersBefore = running.store.listUsers().map((u) => u.login);
		for (const endpoint of ENDPOINTS) {
			for (const base of [running.accountsUrl, running.authUrl]) {
				const response = await call(base, endpoint);
				const text = await response.text();
				expect(response.status, `${endpoint[0]} ${base}${endpoint[1]}: ${text}`).toBe(404);
				// The 404 may echo the path asked for, but names no other control endpoint.
				const told = text.replaceAll(endpoint[1], '');
				expect(told.toLowerCase(), endpoint[1]).not.toContain('control');
				expect(told, endpoint[1]).not.toContain('/sandbox');
			}
		}
		expect(running.store.listClients()).toEqual(clientsBefore);
		expect(running.store.listUsers().map((u) => u.login)).toEqual(usersBefore);
		expect(running.store.now().getTime() - clockBefore).toBeLessThan(60_000);
		// The interface itself still works.
		const token = await fetch(`${running.accountsUrl}/oauth/token`, { method: 'POST' });
		expect(token.status).toBe(400);
	});

	it('turned on, the same endpoints answer (the control for the test above)', async () => {
		const running = await start(true);
		const statuses: number[] = [];
		for (const endpoint of ENDPOINTS.filter(([method]) => method === 'GET' || method === 'POST')) {
			const response = await call(running.accountsUrl, endpoint);
			await response.text();
			statuses.push(response.status);
		}
		expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(2);
		expect(running.store.getClient('intruder')).toBeDefined();
	});
});
