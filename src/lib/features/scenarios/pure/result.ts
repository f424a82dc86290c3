/**
 * What a scenario run gives: what was observed, each step as it happened, and the result. The runner
 * (`features/scenarios/runner.ts`) builds these; the report (`report.ts`) and the scenarios page show them.
 */
import type { ErrorRowId } from '$lib/protocol';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { KnownSecrets } from '$lib/features/runs/pure';
import type { Run } from '$lib/features/runs/pure';
import type { Expected, FlowStep, Step } from './library';

export interface Observed {
	step: FlowStep;
	/** `none`: the answer matched no row of the tables (or there was no answer). */
	row: ErrorRowId | 'success' | 'cancel' | 'none';
	cause?: string;
	/** The annotation's title, or what happened instead. */
	summary: string;
}

export interface ScenarioStepResult {
	index: number;
	kind: 'setup' | 'stand-in' | Step['kind'];
	text: string;
	/** Masked: no client secret or token. */
	exchange?: RecordedExchange;
	annotation?: Annotation;
}

export interface ScenarioResult {
	id: string;
	title: string;
	expected: Expected;
	observed: Observed | null;
	passed: boolean | 'skipped';
	reason?: string;
	steps: ScenarioStepResult[];
	/** The run's exchanges, masked. */
	exchanges: RecordedExchange[];
	/** Unredacted: save it with `secrets` (the run store redacts), never send it anywhere as it is. */
	run: Run;
	secrets: KnownSecrets;
}
