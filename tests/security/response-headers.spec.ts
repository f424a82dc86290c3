/**
 * Issue 26.10: every response of the explorer and the sandbox's authorisation host says `nosniff`; the explorer's
 * pages allow forms to post only to the explorer; and the session cookie is `Secure` behind an https
 * PUBLIC_ORIGIN, and not on plain http (where a browser would never send it back).
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_HOST, EXPLORER, EXTRA_EXPLORER_PORTS } from './support/ports';
import { spawnExplorer } from './support/servers';

/** A page, an API answer, a redirect, a 404, a built script and a static file. */
async function explorerResponses(origin: string): Promise<{ what: string; response: Response }[]> {
	const page = await fetch(`${origin}/`);
	const script = /import\("([^"]+\.js)"\)/.exec(await page.text())?.[1];
	expect(script, 'the walk page names a built script').toBeDefined();
	const paths = ['/', '/runs', '/health', '/callback?code=x', '/no-such-page', new URL(script!, `${origin}/`).pathname, '/favicon.svg'];
	return Promise.all(paths.map(async (path) => ({ what: path, response: await fetch(`${origin}${path}`, { redirect: 'manual' }) })));
}

test('every explorer response, static files included, says X-Content-Type-Options: nosniff', async () => {
	for (const { what, response } of await explorerResponses(EXPLORER)) {
		expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
	}
});

test("the explorer's pages let forms post only to the explorer (CSP form-action 'self')", async () => {
	for (const path of ['/', '/learn/cancel', '/runs', '/sandbox', '/check', '/no-such-page']) {
		const csp = (await fetch(`${EXPLORER}${path}`)).headers.get('content-security-policy') ?? '';
		expect(csp, path).toContain("form-action 'self'");
	}
});

test("the sandbox's authorisation pages and files say nosniff", async () => {
	for (const path of ['/sso/student?response_type=code&client_id=demo-client&redirect_uri=x&country=uk', '/assets/auth.css', '/no-such-page']) {
		const response = await fetch(`${AUTH_HOST}${path}`, { redirect: 'manual' });
		expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
	}
});

/** The Set-Cookie of the session a write makes. */
async function sessionCookie(origin: string): Promise<string> {
	const response = await fetch(`${origin}/api/walk/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	expect(response.status).toBe(200);
	const cookie = response.headers.getSetCookie().find((c) => c.startsWith('sfe_session='));
	expect(cookie, 'a session cookie').toBeDefined();
	return cookie!;
}

test('the session cookie is HttpOnly and SameSite=Lax, without Secure on plain http', async () => {
	const cookie = await sessionCookie(EXPLORER);
	expect(cookie).toMatch(/;\s*HttpOnly/i);
	expect(cookie).toMatch(/;\s*SameSite=Lax/i);
	expect(cookie).not.toMatch(/;\s*Secure/i);
});

test('behind an https PUBLIC_ORIGIN the session cookie is Secure', async () => {
	const port = EXTRA_EXPLORER_PORTS.httpsOrigin;
	const dataDir = mkdtempSync(join(tmpdir(), 'sfe-https-origin-'));
	const publicOrigin = 'https://explorer.example';
	const server = spawnExplorer({ port, dataDir, env: { PUBLIC_ORIGIN: publicOrigin, ORIGIN: publicOrigin } });
	try {
		await server.ready;
		const cookie = await sessionCookie(`http://localhost:${port}`);
		expect(cookie).toMatch(/;\s*Secure/i);
		expect(cookie).toMatch(/;\s*HttpOnly/i);
		// The pages behind it carry the same headers.
		const page = await fetch(`http://localhost:${port}/`);
		expect(page.headers.get('x-content-type-options')).toBe('nosniff');
		expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
	} finally {
		server.process.kill('SIGTERM');
		await server.exited;
		rmSync(dataDir, { recursive: true, force: true });
	}
});
