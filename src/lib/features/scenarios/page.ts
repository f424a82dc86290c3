/**
 * Scenarios in the browser: the page's list, and `POST /api/scenarios/{id}`, which walks one scenario on the
 * built-in sandbox and streams it as NDJSON, one line per step as it happens (masked exchange and annotation),
 * then a line with the result and the saved run's id. Nothing unmasked leaves the server: the runner masks each
 * exchange, and the run is stored redacted.
 */
import { allErrorRows } from '$lib/protocol';
import { config } from '$lib/platform/config';
import { ndjsonResponse } from '$lib/platform/streams/ndjson';
import { services } from '$lib/platform/services';
import { SCENARIOS, findScenario, type Expected } from '$lib/features/scenarios/pure/library';
import type { Observed, ScenarioStepResult } from '$lib/features/scenarios/pure/result';
import { runScenario } from './runner';
import { runSaver } from '../runs';
import { conflict, notFound, sandboxOff, type ExplorerError } from '$lib/platform/errors';

/** What the browser is told a scenario expects: the row, and the check in words. */
export interface ExpectedView {
	step: Expected['step'];
	row: Expected['row'];
	cause?: string;
	check?: string;
	/** `/reference#<rowId>` for a row of the tables. */
	href?: string;
}

export interface ScenarioListing {
	id: string;
	title: string;
	shows: string;
	expected: ExpectedView;
}

export type StreamLine =
	| { type: 'step'; step: ScenarioStepResult }
	| {
			type: 'result';
			passed: boolean | 'skipped';
			reason?: string;
			observed: Observed | null;
			runId: string | null;
	  }
	| { type: 'error'; message: string };

const ROW_IDS = new Set<string>(allErrorRows().map((r) => r.id));

function expectedView(expected: Expected): ExpectedView {
	return {
		step: expected.step,
		row: expected.row,
		...(expected.cause ? { cause: expected.cause } : {}),
		...(expected.check ? { check: expected.check.text } : {}),
		...(ROW_IDS.has(expected.row) ? { href: `/reference#${expected.row}` } : {})
	};
}

/** Why the browser cannot run scenarios here, or null when it can. */
async function unavailable(): Promise<ExplorerError | null> {
	const { sandbox } = await services();
	if (!sandbox) return sandboxOff('scenarios run on the sandbox only; start the explorer with the sandbox on, or use `npm run scenarios` against another target.');
	if (!config().sandboxService.controlApi) return conflict('The sandbox control API is off (SANDBOX_CONTROL_API=off). Scenarios set up their users, clients and clock through it; turn it on to run them.');
	return null;
}

export async function loadScenariosPage() {
	return {
		scenarios: SCENARIOS.map((s): ScenarioListing => ({ id: s.id, title: s.title, shows: s.shows, expected: expectedView(s.expected) })),
		unavailable: (await unavailable())?.message ?? null
	};
}

/** Runs one scenario; its saved run belongs to the session that ran it (runs/access.ts). */
export async function scenarioStream(id: string, sessionId: string): Promise<Response> {
	const scenario = findScenario(id);
	if (!scenario) throw notFound(`No scenario "${id}". The scenarios are listed at /scenarios.`);
	const problem = await unavailable();
	if (problem) throw problem;
	const { runs, sandbox } = await services();
	const cfg = config();
	// The sandbox's addresses as the explorer's configuration knows them: the ones its outbound guard allows. A run
	// is the explorer's own work: its workspace spends no visitor's allowance.
	const ctx = {
		config: cfg,
		...cfg.sandbox,
		explorerOrigin: cfg.publicOrigin,
		control: true,
		adminToken: cfg.sandboxService.adminToken,
		internalWork: sandbox?.admission.internalCredential ?? null
	};

	return ndjsonResponse<StreamLine>(async (send) => {
		const result = await runScenario(scenario, ctx, (step) => send({ type: 'step', step }));
		let runId: string | null = null;
		try {
			const { owner, visitor } = await runSaver(sessionId);
			runId = runs.save(result.run, result.secrets, owner, { visitor }).head.id;
		} catch (error) {
			send({ type: 'error', message: `The run could not be saved: ${error instanceof Error ? error.message : String(error)}` });
		}
		send({ type: 'result', passed: result.passed, ...(result.reason ? { reason: result.reason } : {}), observed: result.observed, runId });
	});
}
