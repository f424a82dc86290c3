/**
 * What the /runs list needs to triage a run without opening it: the client it was for and the one verdict its run
 * page shows (flow/verdict.ts over diagnose-run.ts). Worked out when the run is saved, so the list never diagnoses.
 */
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { requestClientId, requestParam } from '$lib/flow/request-params';
import { diagnoseRun } from './diagnose-run';
import { shownPart } from './exchange-cap';
import { exchangeHeadline, type Run, type RunSource } from './run';
import { SOURCE_FILTERS, VERDICT_SEVERITIES, VERDICT_WORDS, type SourceFilter, type VerdictSeverity } from './verdict-words';

export interface RunTriage {
	clientId: string | null;
	verdict: VerdictSeverity;
	/** The verdict's sentence: "The token exchange (exchange 2) failed: …". */
	verdictWhat: string;
}

/** The client the run was for: the link's `client_id`, else the one a request carried (token exchange first). */
export function runClientId(run: Pick<Run, 'link' | 'exchanges'>): string | null {
	const fromLink = run.link && URL.canParse(run.link) ? new URL(run.link).searchParams.get('client_id') : null;
	if (fromLink) return fromLink;
	for (const step of ['token', 'link', 'sign-in'] as const) {
		const exchange = run.exchanges.find((e) => e.step === step);
		const id = exchange && (step === 'token' ? requestClientId(exchange.request) : requestParam(exchange.request, 'client_id'));
		if (id) return id;
	}
	return null;
}

/** The verdict is the one the run page shows: of the part it diagnoses (exchange-cap.ts), not of every exchange. */
export function triageOf(run: Run, verdict: Verdict = shownVerdict(run)): RunTriage {
	return { clientId: runClientId(run), verdict: verdict.severity, verdictWhat: verdict.what };
}

function shownVerdict(run: Run): Verdict {
	const shown = shownPart(run).run;
	return flowVerdict(shown, diagnoseRun(shown));
}

const IMPORT_NAMES: Partial<Record<RunSource, string>> = { har: 'Imported HAR', curl: 'Pasted curl command', http: 'Pasted HTTP exchange' };

/**
 * An imported run's title: what it is, the client, the verdict and the exchange it is about (else the last), and
 * the day: "Imported HAR, demo-client: error, token 400 (2026-11-26)".
 */
export function importTitle(run: Run, verdict: Verdict): string {
	const about = verdict.exchange ? run.exchanges[verdict.exchange.n - 1] : run.exchanges.at(-1);
	const headline = about ? `, ${exchangeHeadline(about)}` : '';
	const client = runClientId(run) ?? 'client unknown';
	return `${IMPORT_NAMES[run.source] ?? 'Imported run'}, ${client}: ${VERDICT_WORDS[verdict.severity]}${headline} (${run.createdAt.slice(0, 10)})`;
}

/**
 * The run with evidence joined (`after`), titled again when `before` still had the title its import gave it: an
 * import's title names its verdict, which the evidence may change ("not observed" becoming "succeeded"). A run
 * titled otherwise (a walk, a restored export) keeps its title.
 */
export function retitleAfterJoin(before: Run, after: Run): Run {
	const importTitled = IMPORT_NAMES[before.source] !== undefined && before.title === importTitle(before, shownVerdict(before));
	return importTitled ? { ...after, title: importTitle(after, shownVerdict(after)) } : after;
}

export interface RunFilters {
	verdict?: VerdictSeverity;
	client?: string;
	source?: SourceFilter;
}

const isOneOf = <T extends string>(options: readonly T[], value: string | null): value is T => value !== null && (options as readonly string[]).includes(value);

/** The list's filters from its query string; an unknown value is no filter (a stale or hand-made link still lists). */
export function parseRunFilters(params: URLSearchParams): RunFilters {
	const verdict = params.get('verdict');
	const source = params.get('source');
	const client = params.get('client')?.trim().slice(0, 200);
	return {
		...(isOneOf(VERDICT_SEVERITIES, verdict) ? { verdict } : {}),
		...(isOneOf(Object.keys(SOURCE_FILTERS) as SourceFilter[], source) ? { source } : {}),
		...(client ? { client } : {})
	};
}
