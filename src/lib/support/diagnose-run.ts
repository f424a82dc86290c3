/**
 * A saved run's diagnosis: the flow engine's, told what redaction found that the redacted run no longer shows, and
 * which headers a sanitised HAR export hid.
 */
import { diagnoseFlow, type FlowDiagnosis } from '$lib/flow/diagnose-flow';
import { secretFoundInLink } from './redact';
import type { Run } from './run';

export function diagnoseRun(run: Run): FlowDiagnosis {
	return diagnoseFlow(run, { secretInLink: secretFoundInLink(run), ...(run.sanitised ? { sanitised: run.sanitised } : {}) });
}
