/**
 * A saved run's diagnosis: the flow engine's, told what redaction found that the redacted run no longer shows. What
 * a sanitised HAR export hid, each exchange from one says itself (`strippedHeaders`).
 */
import { diagnoseFlow, type FlowDiagnosis } from '$lib/flow/diagnose-flow';
import type { FlowHints } from '$lib/flow/flags';
import { secretFoundInLink } from './redact/redact';
import type { Run } from './run';

/** `hints`: what the run's source knows beyond the run (the live view: that the flow followed a cancel). */
export function diagnoseRun(run: Run, hints: FlowHints = {}): FlowDiagnosis {
	return diagnoseFlow(run, { ...hints, secretInLink: secretFoundInLink(run) });
}
