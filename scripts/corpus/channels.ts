/**
 * The channels a user has to a diagnosis of the same sign-in, each run the way the explorer runs it, in process:
 * - live: the client's flows rebuilt from the sandbox's request log (flow/reconstruct: evidenceOf, reconstructFlows),
 *   presented by the live page's own presentFlow;
 * - har / har-sanitised: the browser's HAR imported (runs/pure harToRun, redacted as the store saves it) and
 *   diagnosed as its run page does; sanitised as Chrome's default export;
 * - har+log: that run with the sandbox's log of the client added as evidence (runs/pure join);
 * - app-check: the app check's one check of the case's journey, run on the app in Chromium (app-check-channel.ts).
 * Each gives the verdict and every finding's text, for grading.
 */
import { readFileSync } from 'node:fs';
import { reconstructFlows } from '../../src/lib/flow/reconstruct/reconstruct';
import type { Verdict } from '../../src/lib/flow/verdict';
import { evidenceOf } from '../../src/lib/flow/reconstruct/log-evidence';
import { presentFlow } from '../../src/lib/features/live/live';
import { presentRun } from '../../src/lib/features/runs/controller';
import { harToRun } from '../../src/lib/features/runs/pure/har/har';
import { joinEvidence } from '../../src/lib/features/runs/pure/join';
import { sandboxLogEvidence } from '../../src/lib/features/runs/pure/sandbox-log-evidence';
import { LOG_CAPACITY } from '../../src/lib/sandbox/log';
import { redactRun } from '../../src/lib/features/runs/pure/redact/redact';
import type { Run } from '../../src/lib/features/runs/pure/run';
import type { LogEntry } from '../../src/lib/http/logged-exchange';
import { sanitise } from '../../tests/support/record-har';
import type { Har } from '../../src/lib/features/runs/pure/har/har-schema';

export const CHANNELS = ['live', 'app-check', 'har', 'har-sanitised', 'har+log'] as const;
export type Channel = (typeof CHANNELS)[number];
/** The channels that read a case's recorded evidence, in this process; the app check drives the app itself. */
export type RecordChannel = Exclude<Channel, 'app-check'>;

/** What a channel told the user: its verdict, and every finding's words (flags and rows), for partial credit. */
export interface Told {
	verdict: Pick<Verdict, 'severity' | 'what' | 'cause' | 'fix'> & { row: string | null };
	findings: string[];
}

/** What a channel needs of one case's sign-in. */
export interface Evidence {
	harPath: string;
	/** The sandbox's log, newest first (GET /sandbox/log). */
	log: LogEntry[];
	clientId: string;
	clientSecret: string;
	/** The sandbox's two hosts. */
	hosts: { authUrl: string; accountsUrl: string };
}

function told(presented: ReturnType<typeof presentRun>): Told {
	const { verdict, flags, annotations } = presented;
	// An exchange's row counts as a finding when it failed or has problems; a success's description is no finding.
	const rows = annotations.exchanges.flatMap((a) => (a && (a.outcome === 'error' || a.outcome === 'transport' || (a.problems?.length ?? 0) > 0) ? [a] : []));
	return {
		verdict: { severity: verdict.severity, what: verdict.what, cause: verdict.cause, fix: verdict.fix, row: verdict.reference?.kind === 'row' ? verdict.reference.rowId : null },
		findings: [...flags.map((f) => `${f.message} ${f.fix}`), ...rows.map((a) => [a.title, a.summary, a.rowId ?? '', a.fix ?? '', ...(a.problems ?? [])].join(' '))]
	};
}

const SEVERITY_ORDER: Told['verdict']['severity'][] = ['error', 'warning', 'unsent', 'unobserved', 'cancel', 'success'];

/** The flow the user would open on the live page: the newest with an error, else with a warning, else the newest. */
function mostTelling(all: Told[]): Told | null {
	for (const severity of SEVERITY_ORDER) {
		const found = all.find((t) => t.verdict.severity === severity);
		if (found) return found;
	}
	return null;
}

function live(evidence: Evidence): Told | null {
	const entries = [...evidence.log].reverse().map((e) => e.entry);
	const flows = reconstructFlows(entries.flatMap((e) => evidenceOf(e) ?? [])).filter((f) => f.clientId === evidence.clientId);
	return mostTelling(flows.reverse().map((f) => told(presentFlow(f, { client_id: evidence.clientId, client_secret: evidence.clientSecret }, evidence.hosts))));
}

/** As POST /api/import stores a HAR: read, redacted (with no secret known to it). */
function importHar(text: string): Run {
	const result = harToRun(text, { id: 'corpus-import' });
	if (!result.ok) throw new Error(`The HAR import refused the recording: ${result.message}`);
	return redactRun(result.run, {});
}

function harText(evidence: Evidence, sanitised: boolean): string {
	const text = readFileSync(evidence.harPath, 'utf8');
	return sanitised ? JSON.stringify(sanitise(JSON.parse(text) as Har)) : text;
}

/** As the run page's "add the sandbox's log" does: the client's entries joined to the run, redacted again. */
function withSandboxLog(run: Run, evidence: Evidence): Run {
	const joined = joinEvidence(run, sandboxLogEvidence(evidence.log, evidence.clientId, run, LOG_CAPACITY));
	return redactRun(joined.run, { clientSecrets: [evidence.clientSecret] });
}

export function runChannel(channel: RecordChannel, evidence: Evidence): Told | null {
	if (channel === 'live') return live(evidence);
	const run = importHar(harText(evidence, channel === 'har-sanitised'));
	return told(presentRun(channel === 'har+log' ? withSandboxLog(run, evidence) : run));
}
