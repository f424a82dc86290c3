import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CLIENTS, startSandbox, type RunningSandbox } from '$lib/sandbox';
import { testConfig } from '$lib/platform/test-config';
import { SCENARIOS, findScenario, type Scenario } from '$lib/features/scenarios/pure/library';
import type { ScenarioStepResult } from '$lib/features/scenarios/pure/result';
import { runScenario, type ScenarioContext } from './runner';

const ORIGIN = 'http://localhost:3000';
let dir: string;
let sandbox: RunningSandbox;
let ctx: ScenarioContext;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
	sandbox = await startSandbox({
		authPort: 0,
		accountsPort: 0,
		hostname: '127.0.0.1',
		explorerOrigin: ORIGIN,
		databasePath: join(dir, 'sandbox.db'),
		controlApi: true
	});
	const config = testConfig({ EXPLORER_ALLOWED_HOSTS: '127.0.0.1', EXPLORER_ALLOW_PRIVATE_TARGETS: 'on' });
	ctx = { config, authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl, explorerOrigin: ORIGIN, control: true };
});

afterAll(async () => {
	await sandbox.close();
	rmSync(dir, { recursive: true, force: true });
});

const scenario = (id: string) => {
	const found = findScenario(id);
	if (!found) throw new Error(`no scenario ${id}`);
	return found;
};

describe('every scenario against the in-process sandbox', () => {
	it.each(SCENARIOS.map((s) => [s.id, s] as const))('%s passes', async (_id, s) => {
		const result = await runScenario(s, ctx);
		expect({ passed: result.passed, reason: result.reason, observed: result.observed }).toEqual({ passed: true, reason: undefined, observed: result.observed });
	});
});

describe('what a run records and streams', () => {
	it('streams each step as it happens, with no secret or token in any exchange', async () => {
		const streamed: ScenarioStepResult[] = [];
		const result = await runScenario(scenario('success'), ctx, (step) => streamed.push(step));
		expect(streamed.map((s) => s.kind)).toEqual(['setup', 'authorise', 'token', 'me']);
		expect(streamed).toEqual(result.steps);
		const text = JSON.stringify([streamed, result.exchanges]);
		// The scenario client's secret; the key of the run's workspace (sent on every control call) and the two tokens.
		expect(result.secrets.clientSecrets).toHaveLength(1);
		expect(result.secrets.tokens).toHaveLength(3);
		for (const secret of [...result.secrets.clientSecrets!, ...result.secrets.tokens!]) expect(text).not.toContain(secret);
	});

	it('records the run as a walk of the sandbox: link, callback with the code, token and me.json exchanges', async () => {
		const { run } = await runScenario(scenario('success'), ctx);
		expect(run.target).toEqual({ kind: 'sandbox', authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl });
		expect(run.link).toMatch(/\/sso\/student\?response_type=code&client_id=scenario-main-/);
		expect(run.callback?.url).toMatch(/^http:\/\/localhost:3000\/callback\?code=/);
		expect(run.exchanges.map((e) => e.step)).toEqual(['sign-in', 'token', 'me']);
		expect(run.sandboxClock).not.toBeNull();
	});

	it('gives every run its own client and user, so a changed scenario user never leaks into another run', async () => {
		const a = await runScenario(scenario('success'), ctx);
		const b = await runScenario(scenario('success'), ctx);
		expect(a.run.link).not.toEqual(b.run.link);
		expect(a.steps[0]?.text).not.toEqual(b.steps[0]?.text);
	});

	it('fails, saying where, when a step before the expected one does not succeed', async () => {
		const broken = { ...scenario('code-exchanged-twice'), setup: { ...scenario('code-exchanged-twice').setup, user: { verifications: [] } } };
		const result = await runScenario(broken, ctx);
		expect(result.passed).toBe(false);
		expect(result.reason).toMatch(/^Stopped at "The user authorises on the authorisation page": .*no active student verification/);
	});

	it('fails when the target cannot be reached, never throws', async () => {
		const result = await runScenario(scenario('success'), { ...ctx, accountsUrl: 'http://127.0.0.1:1' });
		expect(result.passed).toBe(false);
		expect(result.reason).toMatch(/could not create a workspace for the scenario/);
	});
});

describe('each run in a throwaway workspace of its own', () => {
	/** What the default workspace holds and where its clock stands against real time. */
	function defaultWorkspace() {
		const store = sandbox.store;
		return {
			clients: store.listClients().map((c) => c.client_id),
			users: store.listUsers().map((u) => u.login),
			clockAheadMs: store.now().getTime() - Date.now(),
			newestLogEntry: store.recentLog(1)[0]?.id ?? null
		};
	}

	it('moves only its own clock, adds nothing to the default workspace and removes its workspace afterwards', async () => {
		const before = defaultWorkspace();
		const workspaces = sandbox.store.workspaceCount();
		for (const id of ['code-after-two-hours', 'me-token-expired']) {
			const result = await runScenario(scenario(id), ctx);
			expect({ id, passed: result.passed }).toEqual({ id, passed: true });
			// The clock did move, in the run's workspace: the step says where it stands, hours from now.
			const moved = result.steps.find((s) => s.kind === 'clock');
			const movedTo = Date.parse(/it is now (\S+)\.$/.exec(moved?.text ?? '')?.[1] ?? '');
			expect(movedTo - Date.now()).toBeGreaterThan(60_000);
			expect(result.steps[0]?.text).toMatch(/^In workspace \w+, made for this run and removed afterwards/);
		}
		const after = defaultWorkspace();
		expect(Math.abs(after.clockAheadMs - before.clockAheadMs)).toBeLessThan(5_000);
		expect(Math.abs(after.clockAheadMs)).toBeLessThan(5_000);
		expect({ ...after, clockAheadMs: 0 }).toEqual({ ...before, clockAheadMs: 0 });
		expect(sandbox.store.workspaceCount()).toBe(workspaces);
	});

	it('removes its workspace when the scenario fails, and when it throws', async () => {
		const workspaces = sandbox.store.workspaceCount();
		const broken = { ...scenario('code-exchanged-twice'), setup: { ...scenario('code-exchanged-twice').setup, user: { verifications: [] } } };
		expect((await runScenario(broken, ctx)).passed).toBe(false);
		const throwing = { ...scenario('success'), steps: [{ kind: 'no-such-step' }] } as unknown as Scenario;
		const thrown = await runScenario(throwing, ctx);
		expect(thrown.passed).toBe(false);
		expect(thrown.reason).toMatch(/^The scenario could not run/);
		expect(sandbox.store.workspaceCount()).toBe(workspaces);
	});

	it('fails, saying so, when its workspace cannot be removed', async () => {
		let removed: string | null = null;
		const result = await runScenario(scenario('success'), ctx, (step) => {
			// Deleted behind the runner's back mid-run: its own removal then finds no workspace for its key.
			const id = /^In workspace (\w+),/.exec(step.text)?.[1];
			if (id) removed = String(sandbox.store.deleteWorkspace(id));
		});
		expect(removed).toBe('true');
		expect(result.passed).toBe(false);
		expect(result.reason).toMatch(/could not remove the scenario's workspace/);
	});

	it('sends the admin token only to create the workspace; every later call carries the workspace key alone', async () => {
		const adminToken = 'scenario-admin-token-0123456789';
		const result = await runScenario(scenario('success'), { ...ctx, adminToken });
		expect(result.passed).toBe(true);
		const authorise = result.run.exchanges.find((e) => e.step === 'sign-in')!;
		const names = authorise.request.headers.map((h) => h.name.toLowerCase());
		expect(names).toContain('x-sandbox-workspace-key');
		expect(names).not.toContain('authorization');
		expect(JSON.stringify(result.exchanges)).not.toContain(adminToken);
		expect(result.secrets.tokens).toContain(adminToken);
		// The workspace key is masked as what it is, not as a client secret.
		const shown = result.exchanges.find((e) => e.step === 'sign-in')!;
		expect(shown.masked).toContainEqual({ kind: 'sandbox_key', where: expect.stringMatching(/^request header x-sandbox-workspace-key$/i), hint: '' });
		expect(shown.masked.map((m) => m.kind)).not.toContain('client_secret');
	});
});

describe('against a deployment without the control API', () => {
	const demo = FIXTURE_CLIENTS[0]!;
	const custom = (supplied: ScenarioContext['supplied'] = {}): ScenarioContext => ({
		...ctx,
		control: false,
		client: { clientId: demo.client_id, clientSecret: demo.client_secret, redirectUri: `${ORIGIN}/callback` },
		supplied
	});

	/** A code for the demo client, as a user's browser would bring back (here via the sandbox's control API). */
	async function browserCode(): Promise<string> {
		const response = await fetch(`${sandbox.accountsUrl}/sandbox/authorize`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				supergroup: 'student',
				response_type: 'code',
				client_id: demo.client_id,
				redirect_uri: `${ORIGIN}/callback`,
				country: 'uk',
				login: 'student@example.com',
				decision: 'authorize'
			})
		});
		const { location } = (await response.json()) as { location: string };
		return new URL(location).searchParams.get('code')!;
	}

	it('skips, never passes, a scenario that needs the control API', async () => {
		for (const id of ['code-other-client', 'code-after-two-hours', 'user-cancels', 'me-account-deletion']) {
			const result = await runScenario(scenario(id), custom({ code: 'some-code', token: 'some-token' }));
			expect(result.passed, id).toBe('skipped');
			expect(result.reason).toMatch(/control API/);
			expect(result.exchanges).toEqual([]);
		}
	});

	it('skips a scenario that needs a code or a token when none was supplied', async () => {
		expect((await runScenario(scenario('success'), custom())).passed).toBe('skipped');
		expect((await runScenario(scenario('me-no-host'), custom())).reason).toMatch(/--token/);
	});

	it('runs every as-is scenario: the sandbox conforms when seen from outside', async () => {
		for (const s of SCENARIOS.filter((s) => s.custom === 'as-is')) {
			const result = await runScenario(s, custom());
			expect({ id: s.id, passed: result.passed }).toEqual({ id: s.id, passed: true });
			expect(result.run.target.kind).toBe('custom');
		}
	});

	it('uses a supplied code in place of the browser, and a supplied token in place of everything before me.json', async () => {
		const success = await runScenario(scenario('success'), custom({ code: await browserCode() }));
		expect(success.steps.map((s) => s.kind)).toEqual(['stand-in', 'token', 'me']);
		const twice = await runScenario(scenario('code-exchanged-twice'), custom({ code: await browserCode() }));
		const tokenResult = await runScenario(scenario('code-exchanged-twice'), custom({ code: await browserCode() }));
		expect([success.passed, twice.passed, tokenResult.passed]).toEqual([true, true, true]);

		const token = JSON.parse(success.run.exchanges[0]!.response!.body).access_token as string;
		const noAgent = await runScenario(scenario('me-no-user-agent'), custom({ token }));
		expect(noAgent.steps.map((s) => s.kind)).toEqual(['stand-in', 'me']);
		expect(noAgent.passed).toBe(true);
		expect(JSON.stringify([noAgent.steps, noAgent.exchanges])).not.toContain(token);
	});
});

describe('on a public sandbox (issue 26)', () => {
	it('runs on the explorer\'s own sandbox spend no visitor\'s allowance, and never show the internal-work credential', async () => {
		const publicDir = mkdtempSync(join(tmpdir(), 'scenarios-public-'));
		const shared = await startSandbox({
			authPort: 0,
			accountsPort: 0,
			hostname: '127.0.0.1',
			explorerOrigin: ORIGIN,
			databasePath: join(publicDir, 'sandbox.db'),
			controlApi: true,
			workspaces: { public: true, idleHours: 24, creationsPerAddressPerHour: 2 }
		});
		try {
			const own = { ...ctx, authUrl: shared.authUrl, accountsUrl: shared.accountsUrl, internalWork: shared.admission.internalCredential };
			for (let i = 0; i < 3; i++) {
				const result = await runScenario(scenario('success'), own);
				expect(result.passed).toBe(true);
				expect(JSON.stringify([result.steps, result.exchanges])).not.toContain(shared.admission.internalCredential);
			}
			// A visitor on this machine still has its whole allowance.
			const create = () => fetch(`${shared.accountsUrl}/sandbox/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			expect((await create()).status).toBe(201);
			expect((await create()).status).toBe(201);
			expect((await create()).status).toBe(429);
			// And the explorer's runs go on once the visitor has spent it.
			expect((await runScenario(scenario('success'), own)).passed).toBe(true);
		} finally {
			await shared.close();
			rmSync(publicDir, { recursive: true, force: true });
		}
	});
});
