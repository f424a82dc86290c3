/**
 * HAR 1.2 import of a run (the export is har-export.ts). An exported HAR gives back the same run, from its
 * `_ssoFlowExplorer` fields. Import also reads HARs saved by a browser's DevTools, finds the flow among the
 * unrelated requests, and redacts before anything is kept.
 */
import { base64DecodeUtf8, encodeQuery } from '$lib/http/encoding';
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import type { HttpHeader, RecordedResponse } from '$lib/http/exchange';
import { discoverFlow } from './discover';
import { utf8Length } from './har-export';
import { harTooLargeMessage, MAX_HAR_BYTES } from './har-limits';
import { scanHar, type EntryIssue, type HarScan, type IndexedEntry } from './har-stream';
import {
	EntryExtrasSchema,
	HarSchema,
	LogExtrasSchema,
	type EntryExtras,
	type Har,
	type HarEntry,
	type LogExtras
} from './har-schema';
import { describeRedactions, redactRun } from '../redact/redact';
import { SanitisedCheck } from './sanitised';
import { currentStep } from '../legacy-step';
import type { SanitisedExport } from '$lib/flow/flags';
import { describeSource, inferTarget, newRun, type ImportOptions, type Run } from '../run';
import { describeKept, MAX_KEPT_EXCHANGES } from '../exchange-cap';
import { JsonTooDeepError, MAX_JSON_DEPTH, jsonParse } from '$lib/http/json';

export { HarSchema, type Har, type HarEntry } from './har-schema';
export { formatBytes, harTooLargeMessage, MAX_HAR_BYTES } from './har-limits';
export { runToHar } from './har-export';

/** `restored`: the HAR was one of the explorer's own exports, and the run (its title too) is as it was saved. */
export type HarImport = { ok: true; run: Run; found: string[]; restored?: true } | { ok: false; message: string; tooLarge?: true };

export interface HarImportOptions extends ImportOptions {
	/** Files larger than this are refused; MAX_HAR_BYTES by default. */
	maxBytes?: number;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
	return path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), root);
}

function pathText(path: PropertyKey[]): string {
	return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
}

/** The first schema problem, in words: which entry, which field, missing or of the wrong type. */
function malformedMessage(root: unknown, issue: EntryIssue): string {
	const [, , entry, ...rest] = issue.path;
	const where = issue.path[1] === 'entries' && typeof entry === 'number' ? `entry ${entry + 1}: ${pathText(rest)}` : pathText(issue.path);
	const missing = valueAt(root, issue.path) === undefined;
	const problem = missing
		? 'is missing'
		: issue.code === 'invalid_type'
			? `should be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${String(issue.expected)}`
			: `is not valid (${issue.message})`;
	return `This HAR is malformed: ${where} ${problem}. Export it again from the browser (DevTools, Network, "Save all as HAR") without editing it.`;
}

type Parsed = { ok: true; har: Har } | { ok: false; message: string };

const NOT_JSON = 'This file is not JSON, so it is not a HAR. Save it from the browser: DevTools, Network panel, "Save all as HAR".';
const NOT_HAR = 'This JSON is not a HAR: it has no log.entries. Save it from the browser: DevTools, Network panel, "Save all as HAR".';
const TOO_DEEP = `This file nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep, and a HAR nests a few: it is not a HAR. Save it from the browser: DevTools, Network panel, "Save all as HAR".`;

/** A file whose log, or one entry, holds far more values than a browser writes: built to fill memory, not saved by a browser. */
const tooManyValues = (where: 'log' | 'entry', index: number) =>
	`This file holds far more values ${where === 'log' ? 'outside its entries' : `in entry ${index + 1}`} than a HAR does (${where === 'log' ? 'its log has a creator, a version and a comment' : 'an entry has its headers, cookies, parameters and timings'}): it is not a HAR a browser saved. Save it from the browser: DevTools, Network panel, "Save all as HAR".`;

function parseHar(text: string, maxBytes: number): Parsed {
	const size = utf8Length(text);
	if (size > maxBytes) return { ok: false, message: harTooLargeMessage(maxBytes, size) };
	let json: unknown;
	try {
		json = jsonParse(text);
	} catch (error) {
		return { ok: false, message: error instanceof JsonTooDeepError ? TOO_DEEP : NOT_JSON };
	}
	if (!Array.isArray(valueAt(json, ['log', 'entries']))) return { ok: false, message: NOT_HAR };
	const parsed = HarSchema.safeParse(json);
	if (!parsed.success) return { ok: false, message: malformedMessage(json, parsed.error.issues[0]!) };
	return { ok: true, har: parsed.data };
}

/** The log's own fields, checked as HarSchema checks them; its entries are checked one by one as they are read. */
const LogHeaderSchema = HarSchema.shape.log.omit({ entries: true });

function scanProblem(scan: Exclude<HarScan, { ok: true }>, maxBytes: number): string {
	switch (scan.problem) {
		case 'too-large':
			return harTooLargeMessage(maxBytes);
		case 'not-json':
			return NOT_JSON;
		case 'not-har':
			return NOT_HAR;
		case 'too-deep':
			return TOO_DEEP;
		case 'too-many-values':
			return tooManyValues(scan.where, scan.index);
		case 'malformed':
			return malformedMessage({ log: { entries: { [scan.index]: scan.entry } } }, { ...scan.issue, path: ['log', 'entries', scan.index, ...scan.issue.path] });
	}
}

/** Request headers without HTTP/2 pseudo-headers (`:authority`…), which are not headers of the request. */
function requestHeaders(entry: HarEntry): HttpHeader[] {
	return entry.request.headers.filter((h) => !h.name.startsWith(':'));
}

function requestBody(entry: HarEntry): string | null {
	const post = entry.request.postData;
	if (!post) return null;
	if (post.text !== undefined) return post.text;
	return encodeQuery((post.params ?? []).map((p) => [p.name, p.value ?? '']));
}

function responseBody(content: HarEntry['response']['content']): string {
	const text = content.text ?? '';
	if (content.encoding !== 'base64') return text;
	return base64DecodeUtf8(text) ?? `(a binary body of ${content.size} bytes, not shown)`;
}

function entryResponse(entry: HarEntry, truncated: boolean): RecordedResponse | null {
	const { response } = entry;
	if (response.status === 0) return null;
	return { status: response.status, statusText: response.statusText, headers: response.headers, body: responseBody(response.content), truncated };
}

function entryExchange(entry: HarEntry, base: { id: string; step: StepId; label: string }): RecordedExchange {
	const response = entryResponse(entry, false);
	const error = entry.response._error;
	return {
		...base,
		startedAt: entry.startedDateTime,
		durationMs: Math.max(0, entry.time),
		request: { method: entry.request.method, url: entry.request.url, headers: requestHeaders(entry), body: requestBody(entry) },
		response,
		failure: response === null && error ? { kind: 'unreachable', message: error } : null,
		masked: []
	};
}

function extrasOf(entry: HarEntry): EntryExtras | null {
	const parsed = EntryExtrasSchema.safeParse(entry._ssoFlowExplorer);
	return parsed.success ? parsed.data : null;
}

/** One of our own exports: the run exactly as it was saved. */
function restoreRun(entries: HarEntry[], extras: LogExtras): Run {
	const tagged = entries.map((entry) => ({ entry, extras: extrasOf(entry) }));
	// An export made before exchanges carried their own mark: the run's note covered every exchange.
	const unmarked = !tagged.some((t) => t.extras?.exchange?.strippedHeaders) && extras.sanitised ? extras.sanitised.hidden : undefined;
	const exchanges = tagged
		.flatMap(({ entry, extras: e }) => (e?.exchange ? [{ entry, meta: e.exchange }] : []))
		.sort((a, b) => a.meta.index - b.meta.index)
		.map(({ entry, meta }) => ({
			...entryExchange(entry, { id: meta.id, step: currentStep(meta.step, extras.source, meta.evidence?.source), label: meta.label }),
			response: meta.hasResponse ? entryResponse(entry, meta.truncated) : null,
			failure: meta.failure,
			masked: meta.masked,
			...(meta.evidence ? { evidence: meta.evidence } : {}),
			...(meta.tokenTails ? { tokenTails: meta.tokenTails } : {}),
			...((meta.strippedHeaders ?? unmarked) ? { strippedHeaders: meta.strippedHeaders ?? unmarked } : {})
		}));
	const link = tagged.find((t) => t.extras?.runLink)?.entry;
	const callback = tagged.find((t) => t.extras?.runCallback)?.entry;
	const { format: _, ...run } = extras;
	return newRun({
		...run,
		link: link?.request.url ?? null,
		callback: callback ? { url: callback.request.url, receivedAt: callback.startedDateTime } : null,
		exchanges
	});
}

/** The steps a browser's HAR holds (the service's sign-in pages are not looked for). */
const STEP_NAMES: Record<Exclude<StepId, 'sign-in'>, [string, string]> = {
	link: ['the authorisation link', 'authorisation links'],
	arrival: ['the arrival at the redirect URI', 'arrivals at the redirect URI'],
	token: ['the token exchange', 'token exchanges'],
	me: ['the me.json call', 'me.json calls']
};

function foundSentences(run: Run, total: number): string[] {
	const steps = (['link', 'arrival', 'token', 'me'] as const).flatMap((step) => {
		const n = run.exchanges.filter((e) => e.step === step).length;
		const [one, many] = STEP_NAMES[step];
		return n === 0 ? [] : [`found ${n === 1 ? one : `${n} ${many}`}`];
	});
	const code = run.callback && URL.canParse(run.callback.url) ? new URL(run.callback.url).searchParams.has('code') : null;
	const outcome =
		code === null ? [] : [code ? 'the redirect back carries a code: the user authorised' : 'the redirect back carries no code: the user cancelled'];
	const ignored = total - run.exchanges.length;
	return [...steps, ...outcome, ...(ignored > 0 ? [`ignored ${ignored} unrelated request${ignored === 1 ? '' : 's'}`] : [])];
}

const NOTHING_FOUND =
	'requests belongs to the sign-in flow: there is no authorisation link (GET …/sso/{supergroup}), no arrival at a redirect URI, no POST …/oauth/token and no GET …/api/v3/me.json. In DevTools, tick "Preserve log", then click the sign-in link and save the HAR once the flow has finished.';

const sanitisedNote = (s: SanitisedExport) =>
	`the HAR was exported sanitised: no ${s.hidden.join(', ')} header anywhere, so what they carried is unknown (see the note on the run)`;

/**
 * A browser's HAR: the flow found among `indexed` (the file's entries that may belong to it) of its `total`;
 * `sanitised` when the file is a sanitised export.
 */
function discoverRun(indexed: IndexedEntry[], total: number, sanitised: SanitisedExport | undefined, options: HarImportOptions): HarImport {
	const entries = indexed.map((e) => e.entry);
	const flow = discoverFlow(entries);
	if (flow.entries.length === 0 && flow.link === null) return { ok: false, message: `None of the ${total} ${NOTHING_FOUND}` };
	const exchanges = flow.entries.slice(0, MAX_KEPT_EXCHANGES).map((f) => ({
		...entryExchange(entries[f.index]!, { id: `har-${indexed[f.index]!.index + 1}`, step: f.step, label: f.label }),
		...(sanitised ? { strippedHeaders: sanitised.hidden } : {})
	}));
	const createdAt = (options.now ?? new Date()).toISOString();
	const run = newRun({
		id: options.id,
		title: `Imported HAR (${createdAt.slice(0, 10)})`,
		createdAt,
		target: inferTarget(flow.link, exchanges),
		link: flow.link,
		callback: flow.callback,
		exchanges,
		source: 'har',
		...(sanitised ? { sanitised } : {})
	});
	const redacted = redactRun(run);
	return {
		ok: true,
		run: redacted,
		found: [
			...foundSentences(redacted, total),
			...(flow.entries.length > MAX_KEPT_EXCHANGES ? [describeKept(flow.entries.length)] : []),
			...(sanitised ? [sanitisedNote(sanitised)] : []),
			...describeRedactions(redacted.redactions)
		]
	};
}

/** A HAR given whole, as pasted text or a small file. */
export function harToRun(text: string, options: HarImportOptions = {}): HarImport {
	const parsed = parseHar(text, options.maxBytes ?? MAX_HAR_BYTES);
	if (!parsed.ok) return parsed;
	const { entries } = parsed.har.log;
	const check = new SanitisedCheck();
	for (const entry of entries) check.observe(entry);
	return runFromHar(parsed.har.log, entries.map((entry, index) => ({ entry, index })), entries.length, check.result(), options);
}

/**
 * A HAR read as it arrives (an upload's body): only the entries that may belong to the flow are kept (see
 * har-stream.ts), so a file of hundreds of megabytes costs the memory of its flow.
 */
export async function harStreamToRun(chunks: AsyncIterable<Uint8Array | string>, options: HarImportOptions = {}): Promise<HarImport> {
	const maxBytes = options.maxBytes ?? MAX_HAR_BYTES;
	const scan = await scanHar(chunks, { maxBytes });
	if (!scan.ok) return { ok: false, message: scanProblem(scan, maxBytes), ...(scan.problem === 'too-large' ? { tooLarge: true as const } : {}) };
	const header = LogHeaderSchema.safeParse(scan.log);
	if (!header.success) {
		const issue = header.error.issues[0]!;
		return { ok: false, message: malformedMessage({ log: scan.log }, { ...issue, path: ['log', ...issue.path] }) };
	}
	return runFromHar(header.data, scan.entries, scan.total, scan.sanitised, options);
}

function runFromHar(
	log: Pick<Har['log'], '_ssoFlowExplorer'>,
	entries: IndexedEntry[],
	total: number,
	sanitised: SanitisedExport | undefined,
	options: HarImportOptions
): HarImport {
	const extras = LogExtrasSchema.safeParse(log._ssoFlowExplorer);
	if (!extras.success) return discoverRun(entries, total, sanitised, options);
	const before = extras.data.redactions.length;
	// A new id when the caller gives one: an import never overwrites the saved run it was exported from.
	const restored = restoreRun(
		entries.map((e) => e.entry),
		extras.data
	);
	// Imported now, whatever it was when exported: the run page says "from an imported HAR", the note what it was.
	const run = redactRun({ ...restored, id: options.id ?? restored.id, source: 'har', exchanges: restored.exchanges.slice(0, MAX_KEPT_EXCHANGES) });
	return {
		ok: true,
		run,
		restored: true,
		found: [
			`an SSO Flow Explorer export of ${describeSource(restored.source)}: the run is restored as it was saved`,
			...(restored.exchanges.length > MAX_KEPT_EXCHANGES ? [describeKept(restored.exchanges.length)] : []),
			...describeRedactions(run.redactions.slice(before))
		]
	};
}
