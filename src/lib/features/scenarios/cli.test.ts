import { describe, expect, it } from 'vitest';
import { SCENARIOS, findScenario } from './pure/library';
import { parseScenarioArgs, planSupplies } from './cli';

const remote = ['--auth-url', 'https://auth.example.com', '--accounts-url', 'https://accounts.example.com/'];
const client = ['--client-id', 'shop', '--redirect-uri', 'https://shop.example/callback'];

describe('npm run scenarios options', () => {
	it('with none, targets an in-process sandbox and runs every scenario', () => {
		expect(parseScenarioArgs([], {})).toEqual({ ok: true, options: { target: { kind: 'in-process' }, scenarios: [...SCENARIOS] } });
	});

	it('runs only the scenarios named by --only, and names an unknown one', () => {
		const parsed = parseScenarioArgs(['--only', 'success, wrong-secret'], {});
		expect(parsed.ok === true && parsed.options.scenarios.map((s) => s.id)).toEqual(['success', 'wrong-secret']);
		const unknown = parseScenarioArgs(['--only', 'success,nope'], {});
		expect(unknown).toMatchObject({ ok: false, message: expect.stringMatching(/^No scenario "nope"\. Scenarios: success, /) });
	});

	it('takes a running sandbox with --control, without a client', () => {
		expect(parseScenarioArgs([...remote, '--control'], {})).toMatchObject({
			ok: true,
			options: { target: { kind: 'remote', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com', control: true } }
		});
	});

	it("needs a custom deployment's client, with the secret from the command line or CLIENT_SECRET", () => {
		expect(parseScenarioArgs(remote, {})).toMatchObject({ ok: false, message: expect.stringContaining('missing --client-id, --client-secret (or CLIENT_SECRET), --redirect-uri') });
		const fromEnv = parseScenarioArgs([...remote, ...client, '--code', 'abc'], { CLIENT_SECRET: 'from-env' });
		expect(fromEnv).toMatchObject({
			ok: true,
			options: { client: { clientId: 'shop', clientSecret: 'from-env', redirectUri: 'https://shop.example/callback' }, code: 'abc' }
		});
	});

	it('refuses half a target, a URL that is not http(s), client options without a target, and unknown options', () => {
		expect(parseScenarioArgs(['--auth-url', 'https://auth.example.com'], {})).toMatchObject({ ok: false, message: expect.stringContaining('both') });
		expect(parseScenarioArgs(['--auth-url', 'ftp://x', '--accounts-url', 'https://a.example', '--control'], {})).toMatchObject({
			ok: false,
			message: expect.stringContaining('--auth-url must be an http(s) URL')
		});
		expect(parseScenarioArgs(['--token', 't'], {})).toMatchObject({ ok: false, message: expect.stringContaining('--token only apply to another target') });
		expect(parseScenarioArgs(['--frobnicate'], {})).toMatchObject({ ok: false, message: expect.stringContaining("Unknown option '--frobnicate'") });
	});

	it('answers --help', () => expect(parseScenarioArgs(['--help'], {})).toEqual({ ok: 'help' }));
});

describe('planSupplies', () => {
	it('gives a code (single use) to the first scenario needing one, and a token to every scenario needing one', () => {
		const selected = ['me-no-token', 'success', 'code-exchanged-twice', 'me-no-host', 'me-no-user-agent'].map((id) => findScenario(id)!);
		const plan = planSupplies(selected, { code: 'c', token: 't' });
		expect(Object.fromEntries(plan)).toEqual({
			'me-no-token': {},
			success: { code: 'c' },
			'code-exchanged-twice': {},
			'me-no-host': { token: 't' },
			'me-no-user-agent': { token: 't' }
		});
	});
});
