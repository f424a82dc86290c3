/**
 * The words and choices of the runs list, apart from the diagnosis that decides a verdict: the list's page and its
 * badge import these without shipping the diagnosis (and zod, which it reads responses with) to the browser.
 */
import type { Verdict } from '$lib/flow/verdict';
import type { RunSource } from './run';

export type VerdictSeverity = Verdict['severity'];
export const VERDICT_SEVERITIES = ['error', 'warning', 'unobserved', 'cancel', 'unsent', 'success'] as const satisfies readonly VerdictSeverity[];

/** How a verdict reads in a title or a list: "error", "cancelled". */
export const VERDICT_WORDS: Record<VerdictSeverity, string> = { error: 'error', warning: 'warning', cancel: 'cancelled', unsent: 'not sent yet', unobserved: 'not observed', success: 'succeeded' };

/** The sources the list filters by: an import is any of HAR, curl and raw HTTP. */
export const SOURCE_FILTERS = { walk: ['walk'], import: ['har', 'curl', 'http'], scenario: ['scenario'], live: ['live'] } as const satisfies Record<string, readonly RunSource[]>;
export type SourceFilter = keyof typeof SOURCE_FILTERS;
