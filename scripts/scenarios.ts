/**
 * `npm run scenarios`: every scenario, headless, expected against observed. With no options it starts its own
 * sandbox (ephemeral ports, a temporary database); see `--help` for other targets. Exits 1 on any deviation,
 * 2 on bad options. Never prints a client secret or a token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '$lib/sandbox';
import { loadConfig } from '$lib/platform/config';
import { scenariosUsage, parseScenarioArgs, planSupplies, type CliOptions } from '$lib/features/scenarios/cli';
import { exitCode, formatReport, summaryLine } from '$lib/features/scenarios/pure/report';
import type { ScenarioResult } from '$lib/features/scenarios/pure/result';
import { runScenario, type ScenarioContext } from '$lib/features/scenarios/runner';

/** The explorer's origin the scenario clients register their redirect URI on; nothing is served there. */
const EXPLORER_ORIGIN = 'http://localhost:3000';

interface Target {
	authUrl: string;
	accountsUrl: string;
	control: boolean;
	close(): Promise<void>;
}

async function openTarget(options: CliOptions): Promise<Target> {
	if (options.target.kind === 'remote') return { ...options.target, close: async () => {} };
	const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
	let sandbox: RunningSandbox;
	try {
		sandbox = await startSandbox({
			authPort: 0,
			accountsPort: 0,
			hostname: '127.0.0.1',
			explorerOrigin: EXPLORER_ORIGIN,
			databasePath: join(dir, 'sandbox.db'),
			controlApi: true
		});
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	return {
		authUrl: sandbox.authUrl,
		accountsUrl: sandbox.accountsUrl,
		control: true,
		close: async () => {
			await sandbox.close();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}

/** The explorer's configuration with the target's two hosts allowed (they may be local: this is the user's machine). */
function configFor(target: Target) {
	const hosts = [target.authUrl, target.accountsUrl].map((url) => new URL(url).host);
	const result = loadConfig({
		EXPLORER_ALLOWED_HOSTS: hosts.join(','),
		EXPLORER_ALLOW_PRIVATE_TARGETS: 'on',
		...(process.env['OUTBOUND_TIMEOUT_MS'] ? { OUTBOUND_TIMEOUT_MS: process.env['OUTBOUND_TIMEOUT_MS'] } : {})
	});
	if (!result.ok) throw new Error(result.message);
	return result.config;
}

async function main(): Promise<number> {
	const parsed = parseScenarioArgs(process.argv.slice(2), process.env);
	if (parsed.ok === 'help') {
		console.log(scenariosUsage(process.env));
		return 0;
	}
	if (!parsed.ok) {
		console.error(parsed.message);
		return 2;
	}
	const options = parsed.options;
	const target = await openTarget(options);
	try {
		const config = configFor(target);
		const where = options.target.kind === 'in-process' ? 'an in-process sandbox' : `${target.authUrl} and ${target.accountsUrl}`;
		const how = target.control ? ', each in a throwaway workspace of its own' : ' (no control API)';
		console.log(`Running ${options.scenarios.length} scenario${options.scenarios.length === 1 ? '' : 's'} against ${where}${how}.\n`);
		const supplies = planSupplies(options.scenarios, { code: options.code, token: options.token });
		const results: ScenarioResult[] = [];
		for (const scenario of options.scenarios) {
			const ctx: ScenarioContext = {
				config,
				authUrl: target.authUrl,
				accountsUrl: target.accountsUrl,
				explorerOrigin: EXPLORER_ORIGIN,
				control: target.control,
				// A deployment's control API may need its admin token to create each scenario's workspace; the
				// in-process sandbox answers this machine.
				adminToken: options.target.kind === 'remote' ? (process.env.SANDBOX_ADMIN_TOKEN ?? null) : null,
				...(options.client ? { client: options.client } : {}),
				supplied: supplies.get(scenario.id) ?? {}
			};
			results.push(await runScenario(scenario, ctx));
		}
		const secrets = [
			...results.flatMap((r) => [...(r.secrets.clientSecrets ?? []), ...(r.secrets.tokens ?? [])]),
			...(options.client ? [options.client.clientSecret] : []),
			...(options.token ? [options.token] : [])
		];
		console.log(formatReport(results, secrets));
		console.log(`\n${summaryLine(results)}`);
		return exitCode(results);
	} finally {
		await target.close();
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`The scenarios could not run: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(2);
	}
);
