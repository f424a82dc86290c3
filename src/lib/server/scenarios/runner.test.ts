import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_CLIENTS, startSandbox, type RunningSandbox } from '$lib/sandbox';
import { testConfig } from '$lib/server/testConfig';
import { SCENARIOS, findScenario } from '$lib/scenarios/library';
import type { ScenarioStepResult } from '$lib/scenarios/result';
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
		expect(result.secrets.clientSecrets).toHaveLength(1);
		expect(result.secrets.tokens).toHaveLength(2);
		for (const secret of [...result.secrets.clientSecrets!, ...result.secrets.tokens!]) expect(text).not.toContain(secret);
	});

	it('records the run as a walk of the sandbox: link, callback with the code, token and me.json exchanges', async () => {
		const { run } = await runScenario(scenario('success'), ctx);
		expect(run.target).toEqual({ kind: 'sandbox', authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl });
		expect(run.link).toMatch(/\/sso\/student\?response_type=code&client_id=scenario-main-/);
		expect(run.callback?.url).toMatch(/^http:\/\/localhost:3000\/callback\?code=/);
		expect(run.exchanges.map((e) => e.step)).toEqual(['authorise', 'token', 'me']);
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
		expect(result.reason).toMatch(/could not read its clock/);
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
