/**
 * The live page's app check, as the server streams it (NDJSON, one line per event): each check's result as it is
 * judged, then the summary, or why the check could not run. Everything in it is already redacted.
 */
import type { AppCheckResult } from './judge';
import type { AppCheckRunInfo } from './report';

export type AppCheckStreamLine =
	| { type: 'started'; checks: { id: string; title: string }[] }
	| { type: 'result'; result: AppCheckResult }
	| { type: 'done'; summary: string; info: AppCheckRunInfo; passed: boolean }
	| { type: 'error'; message: string };
