/**
 * Every documented curl script does what the reference page says: each is run with bash against a real sandbox
 * (reset before each), and its output is checked against its row of the tables.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allErrorRows } from '$lib/protocol';
import { MeResponse } from '$lib/protocol/schemas';
import { FIXTURE_CLIENTS } from '$lib/sandbox/fixtures';
import { startSandbox, type RunningSandbox } from '$lib/sandbox';
import { curlExamples, exampleKey, type CurlExample } from '$lib/features/scenarios/pure/curl-examples';

const run = promisify(execFile);
const ORIGIN = 'http://localhost:3999';
const DEMO = FIXTURE_CLIENTS[0]!;

let dir: string;
let sandbox: RunningSandbox;
let examples: Map<string, CurlExample>;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'curl-examples-'));
	sandbox = await startSandbox({ authPort: 0, accountsPort: 0, hostname: '127.0.0.1', explorerOrigin: ORIGIN, databasePath: join(dir, 'sandbox.db'), controlApi: true });
	examples = curlExamples({ authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl, redirectUri: `${ORIGIN}${DEMO.redirect_path}` });
});
afterAll(async () => {
	await sandbox.close();
	rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
	const reset = await fetch(`${sandbox.accountsUrl}/sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
	expect(reset.status).toBe(200);
});

/** Runs a script as a person would paste it, with the demo client's secret set as docs/sandbox.md says. */
async function output(example: CurlExample): Promise<{ body: string; status: number }> {
	if (example.kind === 'unavailable') throw new Error('nothing to run');
	const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', example.script], { env: { ...process.env, CLIENT_SECRET: DEMO.client_secret }, timeout: 15_000 });
	const lines = stdout.trimEnd().split('\n');
	const status = /^HTTP (\d{3})$/.exec(lines.at(-1) ?? '')?.[1];
	if (!status) throw new Error(`no status line in:\n${stdout}`);
	return { body: lines.slice(0, -1).join('\n').trim(), status: Number(status) };
}

describe('curl examples', () => {
	it('cover every cause of every row, and say why where the sandbox cannot produce one', () => {
		for (const row of allErrorRows()) for (const cause of row.causes) expect(examples.has(exampleKey(row.id, cause.id)), `${row.id} ${cause.id}`).toBe(true);
		expect([...examples.values()].filter((e) => e.kind === 'unavailable').every((e) => e.kind === 'unavailable' && e.why.length > 0)).toBe(true);
	});

	it('never carry the client secret itself', () => {
		for (const example of examples.values()) if (example.kind !== 'unavailable') expect(example.script).not.toContain(DEMO.client_secret);
	});

	for (const row of allErrorRows()) {
		for (const cause of row.causes) {
			it(`${row.id} (${cause.id}) gives its row`, async () => {
				const example = examples.get(exampleKey(row.id, cause.id))!;
				if (example.kind === 'unavailable') return;
				const { body, status } = await output(example);
				if (row.table === '7.1') {
					expect(example.kind).toBe('page');
					expect(status).toBe(400);
					expect(body).toBe(row.message);
				} else {
					expect(status).toBe(row.status);
					if (row.table === '7.2') expect(JSON.parse(body)).toMatchObject({ error: row.error });
				}
			});
		}
	}

	it("puts the workspace's clock back after the expired-code script: the sandbox it ran on is shared", async () => {
		await output(examples.get(exampleKey('token-invalid-grant', 'expired'))!);
		const clock = (await (await fetch(`${sandbox.accountsUrl}/sandbox/workspace`)).json()) as { now: string };
		expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
	});

	it('success reads a verified user', async () => {
		const { body, status } = await output(examples.get('success')!);
		expect(status).toBe(200);
		expect(MeResponse.parse(JSON.parse(body)).verifications.map((v) => ('supergroup' in v ? v.supergroup : v.group))).toContain('student');
	});

	it('cancel redirects without a code', async () => {
		const { body, status } = await output(examples.get('cancel')!);
		expect(status).toBe(200);
		const { location } = JSON.parse(body) as { location: string };
		expect(location.startsWith(`${ORIGIN}${DEMO.redirect_path}`)).toBe(true);
		expect(new URL(location).searchParams.has('code')).toBe(false);
	});
});
