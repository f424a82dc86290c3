/**
 * `npm run corpus`: every case of the corpus (tests/corpus/cases.ts) through every channel, graded (scripts/corpus/):
 * the sandbox embedded in this process, each case's app started with its BUG, Chromium through its journey, then
 * the live view, the HAR import (full and sanitised), the HAR joined with the sandbox's log, and the app check's
 * check of the same journey run on the app. Writes the table to
 * docs/corpus.md (or --out FILE). `--check BASELINE` exits 1 if any cell is graded worse than the baseline's;
 * `--write-baseline FILE` saves this run's grades as one; `--only TEXT[,TEXT…]` runs the cases whose name contains one of them.
 * A missing toolchain or Chromium fails the run (exit 2): no case is skipped silently.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startSandbox, type EmbeddedSandbox } from '../src/lib/embed/sandbox';
import type { LogEntry } from '../src/lib/http/logged-exchange';
import { CASES, caseName, type CorpusCase } from '../tests/corpus/cases';
import { appCheckChannel } from './corpus/app-check-channel';
import { CHANNELS, runChannel, type Channel, type Told } from './corpus/channels';
import { grade, regressions, type Grade, type Matrix } from './corpus/grade';
import { runJourney } from './corpus/journey';
import { buildApps, missingToolchains, startApp } from './corpus/run-app';
import { formatMatrix, type CaseResult } from './corpus/table';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIRST_APP_PORT = Number(process.env.CORPUS_APP_PORT ?? 4800);
const APP_PORTS = 100;

interface Options {
	out: string;
	check: string | null;
	writeBaseline: string | null;
	only: string | null;
}

function parseArgs(argv: string[]): Options {
	const options: Options = { out: 'docs/corpus.md', check: null, writeBaseline: null, only: null };
	for (let i = 0; i < argv.length; i++) {
		const value = argv[i + 1];
		const flag = argv[i];
		if (value === undefined || !['--out', '--check', '--write-baseline', '--only'].includes(flag!)) {
			throw new Error(`Unknown or incomplete option "${flag}". Use --out FILE, --check BASELINE, --write-baseline FILE, --only TEXT.`);
		}
		if (flag === '--out') options.out = value;
		if (flag === '--check') options.check = value;
		if (flag === '--write-baseline') options.writeBaseline = value;
		if (flag === '--only') options.only = value;
		i++;
	}
	return options;
}

async function sandboxLog(sandbox: EmbeddedSandbox): Promise<LogEntry[]> {
	const response = await fetch(`${sandbox.accountsUrl}/sandbox/log?limit=500`);
	if (!response.ok) throw new Error(`GET /sandbox/log answered ${response.status}`);
	return ((await response.json()) as { entries: LogEntry[] }).entries;
}

/** One case: a client of its own, its app, the journey in Chromium, then each channel's diagnosis. */
async function runCase(sandbox: EmbeddedSandbox, browser: import('playwright-core').Browser, c: CorpusCase, port: number): Promise<CaseResult> {
	const name = caseName(c);
	const clientId = `corpus-${c.app}-${randomBytes(4).toString('hex')}`;
	const clientSecret = randomBytes(18).toString('base64url');
	const app = await startApp(c.app, { authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl, clientId, clientSecret, port, bug: c.bug });
	try {
		await sandbox.clients.register({ client_id: clientId, client_secret: clientSecret, redirect_uris: [app.callbackUrl], countries: ['uk'], name: name.slice(0, 80), verification_key: c.journey.verificationKey ?? 'supergroup' });
		if (c.journey.outcome) await sandbox.outcomes.set(clientId, c.journey.outcome);
		const journey = await runJourney(browser, c.journey, app, sandbox.authUrl);
		const evidence = { harPath: journey.harPath, log: await sandboxLog(sandbox), clientId, clientSecret, hosts: { authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl } };
		const told: Partial<Record<Channel, Told | null>> = {};
		for (const channel of CHANNELS) if (channel !== 'app-check') told[channel] = runChannel(channel, evidence);
		// The journey may have left its rule unused (an app that never reached the request); the check sets its own.
		await sandbox.outcomes.clear(clientId);
		told['app-check'] = await appCheckChannel(browser, c.journey, { startUrl: `${app.origin}/login`, clientId, clientSecret }, sandbox);
		return { name, told };
	} finally {
		await app.stop();
	}
}

async function main(): Promise<number> {
	const options = parseArgs(process.argv.slice(2));
	const only = options.only?.split(',');
	const cases = CASES.filter((c) => only === undefined || only.some((text) => caseName(c).includes(text)));
	const missing = missingToolchains([...new Set(cases.map((c) => c.app))]);
	if (!existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
	if (missing.length > 0) {
		console.error(`The corpus cannot run: missing ${missing.join('; ')}. .ci/run installs them.`);
		return 2;
	}
	buildApps(cases.map((c) => c.app));
	const sandbox = await startSandbox({ hostname: '127.0.0.1' });
	const browser = await chromium.launch({ executablePath: CHROMIUM });
	const matrix: Matrix = {};
	const results: CaseResult[] = [];
	try {
		for (const [i, c] of cases.entries()) {
			const name = caseName(c);
			let result: CaseResult;
			try {
				result = await runCase(sandbox, browser, c, FIRST_APP_PORT + (i % APP_PORTS));
			} catch (error) {
				result = { name, told: {}, failure: error instanceof Error ? error.message : String(error) };
			}
			results.push(result);
			matrix[name] = Object.fromEntries(Object.entries(result.told).map(([ch, t]) => [ch, grade(c, t ?? null, ch as Channel)])) as Record<Channel, Grade>;
			console.log(`${name.padEnd(60)} ${result.failure ? `FAILED: ${result.failure.split('\n')[0]}` : CHANNELS.map((ch) => `${ch}=${matrix[name]![ch]}`).join(' ')}`);
		}
	} finally {
		await browser.close();
		await sandbox.close();
	}
	writeFileSync(options.out, `${formatMatrix(matrix, results, CHANNELS, new Date().toISOString().slice(0, 10))}\n`);
	console.log(`\nTable written to ${options.out}`);
	if (options.writeBaseline) writeFileSync(options.writeBaseline, `${JSON.stringify(matrix, null, '\t')}\n`);
	const failed = results.filter((r) => r.failure);
	if (failed.length > 0) console.error(`${failed.length} case(s) could not run: ${failed.map((r) => r.name).join(', ')}`);
	if (options.check) {
		const worse = regressions(JSON.parse(readFileSync(options.check, 'utf8')) as Matrix, matrix);
		if (worse.length > 0) {
			console.error(`Graded worse than ${options.check}:\n  ${worse.join('\n  ')}`);
			return 1;
		}
		console.log(`No cell graded worse than ${options.check}.`);
	}
	return failed.length > 0 ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(`The corpus could not run: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(2);
	}
);
