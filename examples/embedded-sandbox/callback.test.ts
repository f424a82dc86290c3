/**
 * The app's callback against every outcome the sandbox can produce: the sandbox runs inside this test process
 * (`startSandbox`), each test sets one outcome rule, signs a user in headlessly and reads the app's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type EmbeddedSandbox, type OutcomeRule } from 'sso-flow-explorer/sandbox';
import { startApp, type RunningApp } from './app.js';

const CLIENT_ID = 'example-express-app';
const CLIENT_SECRET = 'example-express-secret';

let sandbox: EmbeddedSandbox;
let app: RunningApp;

beforeAll(async () => {
	sandbox = await startSandbox();
	app = await startApp({ authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
	await sandbox.clients.register({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [app.callbackUrl], countries: ['uk'] });
});

afterAll(async () => {
	await app?.close();
	await sandbox?.close();
});

/** A user's sign-in from the app's /login: the link it sends the browser to, the user's decision, the callback. */
async function signIn(): Promise<{ status: number; text: string }> {
	const login = await fetch(`${app.url}/login`, { redirect: 'manual' });
	const link = new URL(login.headers.get('location')!);
	expect(link.origin).toBe(sandbox.authUrl);
	const { location } = await sandbox.authorize({
		client_id: CLIENT_ID,
		login: 'student@example.com',
		supergroup: 'student',
		redirect_uri: link.searchParams.get('redirect_uri')!
	});
	const callback = await fetch(location);
	return { status: callback.status, text: await callback.text() };
}

describe('the callback', () => {
	it('welcomes a verified student', async () => {
		expect(await signIn()).toMatchObject({ status: 200, text: expect.stringContaining('Welcome, verified student') });
	});

	const expectations: Record<OutcomeRule, { status: number; text: string }> = {
		'authorise-cancel': { status: 200, text: 'You cancelled the sign-in' },
		'token-invalid-grant': { status: 502, text: 'The sign-in failed (invalid_grant)' },
		'token-invalid-client': { status: 502, text: 'The sign-in failed (invalid_client)' },
		'me-401': { status: 502, text: 'We could not read your verification (401)' },
		'me-403': { status: 502, text: 'We could not read your verification (403)' },
		'me-404': { status: 403, text: 'Your account is being deleted' },
		'me-empty-verifications': { status: 403, text: 'You have no active student verification' },
		'me-expired-verification': { status: 403, text: 'You have no active student verification' },
		'me-group-key': { status: 200, text: 'Welcome, verified student' }
	};

	for (const [rule, expected] of Object.entries(expectations) as [OutcomeRule, { status: number; text: string }][]) {
		it(`answers ${rule} with "${expected.text}"`, async () => {
			await sandbox.outcomes.set(CLIENT_ID, rule);
			expect(await signIn()).toMatchObject({ status: expected.status, text: expect.stringContaining(expected.text) });
			expect((await sandbox.outcomes.list(CLIENT_ID)).used[0]?.outcome).toBe(rule); // the latest used first
		});
	}

	it('exchanges the code once, then reads me.json with the token: the requests the sandbox received', async () => {
		const before = Math.max(0, ...(await sandbox.requests()).map((r) => r.id));
		await signIn();
		const seen = (await sandbox.requests()).filter((r) => r.id > before);
		expect(seen.map((r) => `${r.request.method} ${new URL(r.request.url, sandbox.accountsUrl).pathname} ${r.response?.status}`)).toEqual([
			'POST /oauth/token 200',
			'GET /api/v3/me.json 200'
		]);
		expect(JSON.stringify(seen)).not.toContain(CLIENT_SECRET);
	});

	it('exchanges a code that the sandbox refuses as the interface says: the flow\'s diagnosis names the row and the fix', async () => {
		await sandbox.outcomes.set(CLIENT_ID, 'token-invalid-grant');
		await signIn();
		const flow = (await sandbox.flows()).at(-1)!; // oldest first
		expect(flow.steps.map((s) => `${s.step} ${s.response?.status}`)).toEqual(['token 400']);
		expect(flow.steps[0]!.diagnosis).toMatchObject({ outcome: 'error', rowId: 'token-invalid-grant' });
		expect(flow.verdict.fix).not.toBe('');
	});
});
