/**
 * `npm run app-check -- --start-url URL`: drives the integrator's app in Chromium through the sandbox's sign-in,
 * once per outcome, and judges what its server did and what the user got (docs/app-check.md). Prints a table;
 * `--junit` and `--report` also write JUnit XML and a Markdown report. Exits 1 when a check fails or could not
 * run, 2 on bad options, a refused start URL, an unreachable sandbox or a missing Chromium. Never prints a secret.
 */
import { writeFileSync } from 'node:fs';
import { appCheckUsage, parseAppCheckArgs } from '$lib/features/app-check/options';
import { appCheckExitCode } from '$lib/features/app-check/pure/judge';
import { appCheckSummary, formatAppCheckMarkdown, formatAppCheckTable, formatJUnit, verdictLabel } from '$lib/features/app-check/pure/report';
import { redact } from '$lib/features/app-check/pure/evidence';
import { loadConfig } from '$lib/platform/config';
import { runAppCheck } from '$lib/features/app-check/driver';

async function main(): Promise<number> {
	const parsed = parseAppCheckArgs(process.argv.slice(2), process.env);
	if (parsed.ok === 'help') {
		console.log(appCheckUsage(process.env));
		return 0;
	}
	if (!parsed.ok) {
		console.error(parsed.message);
		return 2;
	}
	const options = parsed.options;
	// The operator's rules for which origins may be driven, as the explorer reads them (EXPLORER_ALLOWED_HOSTS…).
	const config = loadConfig(process.env);
	if (!config.ok) {
		console.error(config.message);
		return 2;
	}
	const adminToken = process.env['SANDBOX_ADMIN_TOKEN']?.trim() || null;
	const known = [options.workspaceKey, adminToken, options.clientSecret].filter((v): v is string => v !== null);
	console.log(`Checking ${redact(options.startUrl, known)} against the sandbox at ${options.authUrl}, ${options.checks.length} check${options.checks.length === 1 ? '' : 's'}.\n`);
	const outcome = await runAppCheck({
		startUrl: options.startUrl,
		click: options.click,
		authUrl: options.authUrl,
		accountsUrl: options.accountsUrl,
		workspaceKey: options.workspaceKey,
		adminToken,
		secrets: options.clientSecret ? [options.clientSecret] : [],
		checks: options.checks,
		config: config.config,
		onResult: (r) => console.log(`  ${verdictLabel(r.verdict).padEnd(7)} ${r.id}`)
	});
	console.log(`\n${formatAppCheckTable(outcome.results, outcome.known)}`);
	console.log(`\n${appCheckSummary(outcome.results)}`);
	if (options.junit) {
		writeFileSync(options.junit, formatJUnit(outcome.results, outcome.info, outcome.known));
		console.log(`JUnit XML: ${options.junit}`);
	}
	if (options.report) {
		writeFileSync(options.report, formatAppCheckMarkdown(outcome.results, outcome.info, outcome.known));
		console.log(`Markdown report: ${options.report}`);
	}
	return appCheckExitCode(outcome.results);
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		const known = [process.env['SANDBOX_WORKSPACE_KEY'], process.env['SANDBOX_ADMIN_TOKEN'], process.env['APP_CLIENT_SECRET']].filter((v): v is string => !!v);
		console.error(redact(`The app check could not run: ${error instanceof Error ? error.message : String(error)}`, known));
		process.exit(2);
	}
);
