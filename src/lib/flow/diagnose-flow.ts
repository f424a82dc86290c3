/**
 * The flow engine's one entry: everything the tables and the cross-request rules say about a recorded flow. A walk,
 * an imported run and the sandbox's live flows are all diagnosed here, so each source shows the same findings.
 */
import { annotateFlow, type AnnotatedFlow } from './annotate-flow';
import { readBrowserSide } from './browser/browser-flags';
import { crossFlags, type CrossFlag, type FlowHints } from './flags';
import type { FlowRecord } from './record';
import { excusedRefusals, refusalsAsSpecified } from './diagnose/refused-as-specified';

export interface FlowDiagnosis {
	/** Each exchange's and the callback's row of the tables. */
	annotations: AnnotatedFlow;
	/** What is wrong across the requests, errors first. */
	flags: CrossFlag[];
	/**
	 * The exchanges refused as the interface specifies after what the user did, with the app's page not failing
	 * after: no fault of their requests (diagnose/refused-as-specified.ts).
	 */
	excused: ReadonlySet<string>;
}

export function diagnoseFlow(flow: FlowRecord, hints: FlowHints = {}): FlowDiagnosis {
	const browser = readBrowserSide(flow);
	const refused = refusalsAsSpecified(flow);
	return { annotations: annotateFlow(flow, browser), flags: crossFlags(flow, hints, browser, refused), excused: excusedRefusals(refused, browser) };
}
