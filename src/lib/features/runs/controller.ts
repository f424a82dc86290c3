/**
 * The support toolkit's server side: saved runs (list, permalink, export) and imports (HAR, curl, raw HTTP).
 * Everything a browser gets from here is a redacted run; the list shows a session its own runs only, and a run's
 * still-usable grant codes are hidden from anyone but its owner (run-access.ts).
 */
import { json } from '@sveltejs/kit';
import { z } from 'zod';
import { classifyCallback } from '$lib/flow/callback';
import { callbackTime, flowIso } from '$lib/flow/flow-time';
import { parseCurl, parseRawHttp } from '$lib/features/runs/pure/curl-import';
import { diagnoseRun } from '$lib/features/runs/pure/diagnose-run';
import { describeCut, shownPart } from '$lib/features/runs/pure/exchange-cap';
import { formatBytes, harToRun, MAX_HAR_BYTES, runToHar, type HarImport } from '$lib/features/runs/pure/har/har';
import { scenariosReproducing } from '$lib/features/scenarios/pure';
import { assembleRun, describeRedactions } from '$lib/features/runs/pure/redact/redact';
import { runToMarkdown } from '$lib/features/runs/pure/report';
import { runToShellScript } from '$lib/features/runs/pure/shell-script';
import { newRunId, walkedHereNote, type Run } from '$lib/features/runs/pure/run';
import { timelineOf } from '$lib/features/runs/pure/join';
import { onSandboxHosts } from '$lib/features/runs/pure/sandbox-log-evidence';
import { flowVerdict } from '$lib/flow/verdict';
import { importTitle, parseRunFilters } from '$lib/features/runs/pure/triage';
import type { FlowHints } from '$lib/flow/flags';
import { describeSanitised } from '$lib/features/runs/pure/har/sanitised';
import { runAsSeenBy, runOwner, runSaver } from './access';
import { chunksOf, IMPORT_JSON_LIMIT, readBodyUpTo, tooLarge } from '../../platform/body-limits';
import { services } from '../../platform/services';
import type { RunStore, RunSummary } from './store';
import { config } from '../../platform/config';
import { demoRedirectUri } from '$lib/sandbox/fixtures';
import { badRequest, errorFor, errorResponse, forbidden, notFound } from '../../platform/errors';
import { RUN_LIMITS } from './run-limits';
import { jsonParse } from '$lib/http/json';

const RUN_ID = /^[A-Za-z0-9-]{1,64}$/;

const noSuchRun = (id: string) => notFound(`No saved run "${id}". Runs are listed at /runs.`);

/** The run of this id as the store holds it (redacted), and its owner; a 404 when there is none. */
export function storedRun(runs: RunStore, id: string): { run: Run; owner: string | null } {
	const found = RUN_ID.test(id) ? runs.find(id) : undefined;
	if (!found) throw noSuchRun(id);
	return found;
}

/** Who saved the run of this id, read without the run itself; undefined when there is none. */
const ownerOf = (runs: RunStore, id: string) => (RUN_ID.test(id) ? runs.ownerOf(id) : undefined);

/** Whether this session saved the run. */
export const ownsRun = (owner: string | null, sessionId: string | undefined) => owner !== null && sessionId !== undefined && owner === runOwner(sessionId);

/** The run as this session may see it (see run-access.ts), and whether the session owns it. */
async function findOwnRun(id: string, sessionId: string | undefined): Promise<{ run: Run; owned: boolean }> {
	const found = storedRun((await services()).runs, id);
	return { run: await runAsSeenBy(found.run, found.owner, sessionId), owned: ownsRun(found.owner, sessionId) };
}

async function findRun(id: string, sessionId: string | undefined): Promise<Run> {
	return (await findOwnRun(id, sessionId)).run;
}

/** Everything the run page shows, derived from the stored (redacted) run (and what its source knows beyond it). */
export function presentRun(whole: Run, hints: FlowHints = {}) {
	// A run of thousands of exchanges is diagnosed and shown as far as MAX_SHOWN_EXCHANGES, and says so.
	const { run, cut } = shownPart(whole);
	const linkRedirectUri = run.link && URL.canParse(run.link) ? new URL(run.link).searchParams.get('redirect_uri') : null;
	const diagnosis = diagnoseRun(run, hints);
	const { annotations, flags } = diagnosis;
	const callback = run.callback
		? {
				url: run.callback.url,
				// On the clock the code expired by, as the walk showed it (flow-time.ts).
				receivedAt: flowIso(callbackTime(run.callback)),
				result: classifyCallback(run.callback.url, { redirectUri: linkRedirectUri ?? run.callback.url })
			}
		: null;
	return {
		run,
		annotations,
		callback,
		redactionNotes: describeRedactions(run.redactions),
		sanitised: run.sanitised ? describeSanitised(run.sanitised) : null,
		cut: cut && describeCut(cut),
		flags,
		verdict: flowVerdict(run, diagnosis),
		timeline: timelineOf(run),
		reproduce: scenariosReproducing(annotations.exchanges.filter((a) => a !== null), callback?.result.kind === 'cancel')
	};
}

export async function loadRunPage(id: string, sessionId: string | undefined) {
	const { run, owned } = await findOwnRun(id, sessionId);
	// Only the owner adds evidence (server/evidence.ts refuses anyone else); the page offers it to the owner only.
	// The one-click sandbox log is offered for any run on this sandbox's hosts, imported or walked (evidence.ts).
	return { ...presentRun(run), owned, sandboxLog: onSandboxHosts(run, config().sandbox) };
}

/** The most runs the list shows, and so the most one request deletes. */
export const LISTED_RUNS = 100;

/**
 * The session's own runs, filtered (triage.ts): nobody is listed another person's, and a visitor without a session
 * has made none. `clients`: the clients of the session's runs, for the filter.
 */
export async function loadRunList(params: URLSearchParams, sessionId: string | undefined) {
	const { runs } = await services();
	const query = (params.get('q') ?? '').slice(0, 200);
	const filters = parseRunFilters(params);
	if (sessionId === undefined) return { query, filters, runs: [] as RunSummary[], clients: [] as string[], usage: null };
	const { owner, visitor } = await runSaver(sessionId);
	// This machine's sessions count against no visitor (client-address.ts): nothing to show then.
	const usage = { ...runs.usage(owner), visitor: visitor === null ? null : runs.visitorUsage(visitor), limits: RUN_LIMITS };
	return { query, filters, runs: runs.list({ query, limit: LISTED_RUNS, owner, ...filters }), clients: runs.clients(owner), usage };
}

/** Deletes a run for good: its owner only (a permalink lets others read it, never remove it). */
export async function deleteRun(id: string, sessionId: string | undefined): Promise<void> {
	const { runs } = await services();
	const found = ownerOf(runs, id);
	if (!found) throw noSuchRun(id);
	if (!ownsRun(found.owner, sessionId)) throw forbidden('Only the session that saved this run can delete it.');
	runs.remove(id);
}

/**
 * Deletes the listed runs (the ids the /runs form carries) that this session owns; answers how many. An id that is
 * not the session's, or no longer exists, is left alone: the list is the session's own, so only a forged form has one.
 */
export async function deleteListedRuns(ids: readonly string[], sessionId: string | undefined): Promise<number> {
	if (ids.length > LISTED_RUNS) throw badRequest(`At most ${LISTED_RUNS} runs are deleted at once, as many as the list shows.`);
	const { runs } = await services();
	let deleted = 0;
	for (const id of new Set(ids)) {
		const found = ownerOf(runs, id);
		if (found && ownsRun(found.owner, sessionId) && runs.remove(id)) deleted++;
	}
	return deleted;
}

/** The built-in sandbox's hosts when it runs (SANDBOX=off: none to replay against). */
function runningSandbox() {
	const { sandbox, sandboxService } = config();
	return sandboxService.enabled ? sandbox : undefined;
}

/** The report covers what the run page shows (exchange-cap.ts), and says so. */
function markdownOf(whole: Run): string {
	const { run, cut } = shownPart(whole);
	return runToMarkdown(run, diagnoseRun(run), { origin: config().publicOrigin, cut });
}

const FORMATS = {
	har: { type: 'application/json', extension: 'har', render: (run: Run) => JSON.stringify(runToHar(run), null, 2) },
	markdown: { type: 'text/markdown', extension: 'md', render: markdownOf },
	shell: { type: 'text/x-shellscript', extension: 'sh', render: (run: Run) => runToShellScript(run, { origin: config().publicOrigin, sandbox: runningSandbox() }) }
} as const;

export async function exportRun(id: string, format: string, sessionId: string | undefined): Promise<Response> {
	const exporter = FORMATS[format as keyof typeof FORMATS];
	if (!exporter) throw notFound(`Unknown export format "${format}": use ${Object.keys(FORMATS).join(', ')}.`);
	const run = await findRun(id, sessionId);
	return new Response(exporter.render(run), {
		headers: {
			'content-type': `${exporter.type}; charset=utf-8`,
			'content-disposition': `attachment; filename="run-${run.id}.${exporter.extension}"`,
			'cache-control': 'no-store'
		}
	});
}

const ImportRequest = z.object({
	kind: z.enum(['har', 'curl', 'http']),
	text: z.string().min(1, 'the file or pasted text is empty')
});

/** Each import gets a new id, so importing the same file twice gives two runs, never a collision. */
function parseImport(kind: z.infer<typeof ImportRequest>['kind'], text: string) {
	const options = { id: newRunId() };
	if (kind === 'har') return harToRun(text, options);
	const result = kind === 'curl' ? parseCurl(text, options) : parseRawHttp(text, options);
	return result.ok ? { ...result, found: [`read the pasted ${kind === 'curl' ? 'curl command' : 'HTTP exchange'}`] } : result;
}

const KINDS = ImportRequest.shape.kind.options;

/** The body as JSON, or why not: too large for the JSON form, or not JSON. */
async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
	const bytes = request.body === null ? new Uint8Array() : await readBodyUpTo(request.body, IMPORT_JSON_LIMIT);
	if (bytes === null) {
		const message = `Pasted text takes at most ${formatBytes(IMPORT_JSON_LIMIT)}. Import a larger HAR as a file: the HAR file field, or the file itself as the body of POST /api/import?kind=har.`;
		return { ok: false, response: errorResponse(errorFor(413, message)) };
	}
	try {
		return { ok: true, value: jsonParse(new TextDecoder().decode(bytes)) };
	} catch {
		const message = `Nothing to import: the body is not JSON. Send {"kind": "har" | "curl" | "http", "text": "…"}, or the file itself to /api/import?kind=har.`;
		return { ok: false, response: errorResponse(badRequest(message)) };
	}
}

/** The file itself as the body (`?kind=har|curl|http`): a HAR is read as it streams, the others are small. */
async function importBody(kind: string, request: Request): Promise<HarImport | Response> {
	if (!(KINDS as readonly string[]).includes(kind)) throw badRequest(`Unknown kind "${kind}": use ${KINDS.join(', ')}.`);
	if (request.body === null) throw badRequest('Nothing to import: the body is empty, or came without a Content-Type header. Send the file itself as the body, with a Content-Type such as application/octet-stream.');
	if (kind === 'har') {
		const { readHar } = await import('./har-import-thread');
		const result = await readHar(chunksOf(request.body), { id: newRunId(), maxBytes: MAX_HAR_BYTES });
		return !result.ok && result.tooLarge ? errorResponse(errorFor(413, result.message)) : result;
	}
	const bytes = await readBodyUpTo(request.body, IMPORT_JSON_LIMIT);
	if (bytes === null) return tooLarge(IMPORT_JSON_LIMIT);
	return parseImport(kind as 'curl' | 'http', new TextDecoder().decode(bytes));
}

/**
 * POST /api/import: parse, redact, store as the importer's; answers the new run's id and what was found. The body is either the file
 * itself, with `?kind=`, or the JSON form `{kind, text}` (pasted text, small files).
 */
export async function importRun(request: Request, url: URL, sessionId: string): Promise<Response> {
	const kind = url.searchParams.get('kind');
	let result: HarImport | ReturnType<typeof parseImport>;
	if (kind !== null) {
		const read = await importBody(kind, request);
		if (read instanceof Response) return read;
		result = read;
	} else {
		const body = await readJson(request);
		if (!body.ok) return body.response;
		const parsed = ImportRequest.safeParse(body.value);
		if (!parsed.success) throw badRequest(`Nothing to import: ${parsed.error.issues[0]!.message}.`);
		result = parseImport(parsed.data.kind, parsed.data.text);
	}
	if (!result.ok) throw badRequest(result.message);
	const { runs } = await services();
	// A run restored from the explorer's own export keeps the title it was saved with; others are titled by their verdict.
	const restored = 'restored' in result && result.restored === true;
	const shown = shownPart(result.run).run;
	const verdict = restored ? undefined : flowVerdict(shown, diagnoseRun(shown));
	const titled = verdict ? { ...result.run, title: importTitle(result.run, verdict) } : result.run;
	// The import's run is redacted already, so its verdict is that of the run as stored: the save need not diagnose it again.
	const { owner, visitor } = await runSaver(sessionId);
	const saved = assembleRun(runs.save(titled, {}, owner, { visitor, ...(verdict ? { verdict } : {}) }));
	const redacted = describeRedactions(saved.redactions);
	const sandbox = runningSandbox();
	const walkedHere = walkedHereNote(saved, demoRedirectUri(config().publicOrigin), sandbox !== undefined && onSandboxHosts(saved, sandbox));
	// The run page lists the redactions under "Redacted": the notes say only what the import found.
	return json({ id: saved.id, found: [...result.found.filter((line) => !redacted.includes(line)), ...(walkedHere ? [walkedHere] : [])], redacted });
}
