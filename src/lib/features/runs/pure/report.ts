/**
 * A run written out for a ticket: a Markdown report that says what the run page says, once (the verdict with the
 * permalink, the facts, the other flags, the steps with the headers that matter, the redaction notes, with absolute
 * links to the reference page). Built from a redacted run, so it cannot hold a secret. The replay script is
 * shell-script.ts.
 */
import { CANCEL_MEANING } from '$lib/flow/callback';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { HttpHeader } from '$lib/http/exchange';
import type { CrossFlag } from '$lib/flow/flags';
import type { FlowDiagnosis } from '$lib/flow/diagnose-flow';
import { callbackResult } from '$lib/flow/record';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { channelOf, EVIDENCE_NAMES } from './join';
import { describeSource, describeTarget, type Run, type SandboxHosts } from './run';
import { describeSanitised } from './har/sanitised';
import { describeCut, type ExchangeCut } from './exchange-cap';
import { mdCode, mdFence, mdProse, mdText } from '$lib/markdown';
import { codeSpans } from '$lib/code-spans';
import { describeRedactions } from './redact/redact-assembly';
import { requestHeadersThatMatter, responseHeadersThatMatter } from './headers-that-matter';

/** Where the explorer is reached (its PUBLIC_ORIGIN), so a report's links work outside it. */
export interface ReportContext {
	origin: string;
	/** The exchanges left out of the run given (exchange-cap.ts): the report says so. */
	cut?: ExchangeCut | null;
	/** This explorer's built-in sandbox, when it runs: a script replays a run on its hosts with a fresh code from its control API. */
	sandbox?: SandboxHosts;
}


/** Longest body shown in a report; the rest is in the HAR export. */
const REPORT_BODY_LIMIT = 4000;

function cut(body: string): string {
	return body.length > REPORT_BODY_LIMIT ? `${body.slice(0, REPORT_BODY_LIMIT)}\n… (${body.length - REPORT_BODY_LIMIT} more characters)` : body;
}

const headerLines = (headers: HttpHeader[]) => headers.map((h) => `${h.name}: ${h.value}`);

/** The exchange as HTTP, with the headers that matter and those the diagnosis names (`named`, lower case). */
function httpText(exchange: RecordedExchange, named: ReadonlySet<string>): string {
	const { request, response, failure } = exchange;
	const req = [`${request.method} ${request.url} HTTP/1.1`, ...headerLines(requestHeadersThatMatter(request.headers, named))];
	if (request.body !== null) req.push('', cut(request.body));
	if (!response) return [...req, '', failure ? `(no response: ${failure.kind}: ${failure.message})` : '(no response recorded)'].join('\n');
	const res = [`HTTP/1.1 ${response.status} ${response.statusText}`.trim(), ...headerLines(responseHeadersThatMatter(response.headers, named))];
	if (response.body !== '') res.push('', cut(response.body) + (response.truncated ? '\n… (cut when recorded)' : '') + (response.notUtf8 ? '\n(not UTF-8 text: the bytes that are not are shown as �)' : ''));
	return [...req, '', ...res].join('\n');
}

/** The names the diagnosis quotes as code (`Origin`, `User-Agent`), lower case: a header it names stays shown. */
function namedInDiagnosis({ annotations, flags }: FlowDiagnosis): Set<string> {
	const texts = [
		...flags.flatMap((f) => [f.message, f.fix]),
		...[annotations.callback, ...annotations.exchanges].flatMap((a) => (a ? [a.title, a.summary, ...(a.problems ?? [])] : []))
	];
	return new Set(texts.flatMap((t) => codeSpans(t).filter((s) => s.code).map((s) => s.text.toLowerCase())));
}

const rowLink = (rowId: string, origin: string) => `[${mdText(rowId)}](${origin}/reference#${encodeURIComponent(rowId)})`;

export function statusOf(exchange: RecordedExchange): string {
	if (exchange.response) return `${exchange.response.status} ${exchange.response.statusText}`.trim();
	return exchange.failure ? `no response (${exchange.failure.kind})` : 'no response recorded';
}

/** Where an added exchange came from: "back channel, added from a pasted curl command". */
function provenance(exchange: RecordedExchange): string {
	if (!exchange.evidence) return '';
	return ` (${channelOf(exchange)} channel, added from ${EVIDENCE_NAMES[exchange.evidence.source]})`;
}

/**
 * What the report has said, so that each sentence is said once: the verdict's cause and fix are not repeated by
 * the flag or the step they came from.
 */
class Said {
	private readonly texts = new Set<string>();
	private static key = (text: string) => text.trim().replace(/\s+/g, ' ').replace(/\.$/, '');
	add(...texts: string[]): void {
		for (const text of texts) this.texts.add(Said.key(text));
	}
	has(text: string): boolean {
		return this.texts.has(Said.key(text));
	}
}

interface Telling {
	origin: string;
	named: ReadonlySet<string>;
	said: Said;
}

function stepSection(exchange: RecordedExchange, n: number, annotation: Annotation | undefined, { origin, named, said }: Telling): string {
	const heading = `### ${n}. ${mdText(exchange.step)}: ${mdText(exchange.label)}${mdText(provenance(exchange))}`;
	const lines = [heading, '', `${mdCode(`${exchange.request.method} ${exchange.request.url}`)} → ${mdText(statusOf(exchange))}`];
	if (annotation) {
		lines.push('', `**${mdProse(annotation.title)}** (${mdText(annotation.outcome)}). ${mdProse(annotation.summary)}`);
		if (annotation.rowId) lines.push('', `Row: ${rowLink(annotation.rowId, origin)}${annotation.causeId ? `, cause ${mdCode(annotation.causeId)}` : ''}`);
		if (annotation.fix && !said.has(annotation.fix)) lines.push('', `Fix: ${mdProse(annotation.fix)}`);
		for (const problem of annotation.problems ?? []) if (!said.has(problem)) lines.push('', `- ${mdProse(problem)}`);
	}
	lines.push('', mdFence(httpText(exchange, named), 'http'));
	return lines.join('\n');
}

/** What the redirect back was, in the words the run page uses. */
function callbackOutcome(run: Run, annotation: Annotation | null): string {
	if (annotation) return `${mdProse(annotation.title)}. ${mdProse(annotation.summary)}`;
	const result = callbackResult(run)!;
	if (result.kind === 'cancel') return mdProse(CANCEL_MEANING);
	if (result.kind === 'code') return 'The user authorised: the redirect back carried a grant code.';
	return mdProse(result.reason);
}

/** The flags the verdict did not already tell, each once. */
function flagLines(flags: CrossFlag[], { origin, said }: Telling): string[] {
	return flags
		.filter((f) => !said.has(f.message))
		.flatMap((f) => [
			`- **${mdText(f.severity)}** (section ${mdText(f.section)}): ${mdProse(f.message)}${said.has(f.fix) ? '' : ` Fix: ${mdProse(f.fix)}`}`,
			...(f.candidates ?? []).map(
				(c, i) => `  ${i + 1}. ${rowLink(c.rowId, origin)} ${mdCode(c.causeId)} (${mdText(c.likelihood)}): ${mdProse(c.why)} Fix: ${mdProse(c.fix)}`
			)
		]);
}

function section(title: string, lines: string[], empty: string): string {
	return [`## ${title}`, '', ...(lines.length ? lines : [empty])].join('\n');
}

/** The verdict's lines, which lead the report as they lead the run page: what happened, the row, the cause, the fix, the permalink. */
function verdictLines(verdict: Verdict, permalink: string, origin: string): string[] {
	const exchange = verdict.exchange ? ` · exchange ${verdict.exchange.n}` : '';
	const reference = verdict.reference
		? verdict.reference.kind === 'row'
			? `- Row: [${mdText(`${verdict.reference.table} ${verdict.reference.rowId}`)}](${origin}/reference#${encodeURIComponent(verdict.reference.anchor)})${exchange}`
			: `- Section: [${mdText(verdict.reference.section)}](${origin}/reference#${encodeURIComponent(verdict.reference.anchor)})${exchange}`
		: verdict.exchange
			? `- Exchange: ${verdict.exchange.n}`
			: null;
	return [
		`**${VERDICT_WORDS[verdict.severity]}:** ${mdProse(verdict.what)}`,
		'',
		...(reference ? [reference] : []),
		`- Likely cause: ${mdProse(verdict.cause)}`,
		`- Fix: ${mdProse(verdict.fix)}`,
		`- Permalink: ${permalink}`
	];
}

const VERDICT_WORDS: Record<Verdict['severity'], string> = {
	error: 'What went wrong',
	warning: 'What to look at',
	cancel: 'What happened',
	unsent: 'What to do next',
	unobserved: 'What is not known',
	success: 'What happened'
};

/**
 * The report says what the run page says, each thing once: the verdict (with the permalink), the facts, the flags
 * the verdict did not tell, each step with the headers that matter, and the redaction notes in the page's words.
 */
export function runToMarkdown(run: Run, diagnosis: FlowDiagnosis, { origin, cut }: ReportContext): string {
	const { annotations, flags } = diagnosis;
	const permalink = `${origin}/runs/${run.id}`;
	const verdict = flowVerdict(run, diagnosis);
	const said = new Said();
	said.add(verdict.cause, verdict.fix);
	const telling: Telling = { origin, named: namedInDiagnosis(diagnosis), said };
	const target = mdText(describeTarget(run.target));
	const facts = [
		`- Exports: [HAR](${permalink}/export/har), [curl script](${permalink}/export/shell)`,
		`- Recorded: ${mdText(run.createdAt)}, from ${mdText(describeSource(run.source))}`,
		`- Target: ${target}`,
		...(run.sandboxClock ? [`- Sandbox clock: ${mdText(run.sandboxClock)}`] : []),
		...(run.link ? [`- Authorisation link: ${mdCode(run.link)}`] : []),
		...(run.callback ? [`- Redirect back: ${mdCode(run.callback.url)} at ${mdText(run.callback.receivedAt)}: ${callbackOutcome(run, annotations.callback)}`] : []),
		...(run.sanitised ? [`- Sanitised HAR: ${mdProse(describeSanitised(run.sanitised))}`] : []),
		...(cut ? [`- Cut: ${mdProse(describeCut(cut))}`] : [])
	];
	const flagged = flagLines(flags, telling);
	const steps = run.exchanges.map((e, i) => stepSection(e, i + 1, annotations.exchanges[i] ?? undefined, telling));
	return [
		`# ${mdText(run.title)}`,
		verdictLines(verdict, permalink, origin).join('\n'),
		facts.join('\n'),
		// A flag the verdict told is not told again; with none left, the section goes.
		...(flags.length === 0 || flagged.length > 0 ? [section('What is wrong across the requests', flagged, 'Nothing: each request is consistent with the others.')] : []),
		section('Steps', steps.length ? ['Each step shows the headers the service reads and those the diagnosis names; the HAR export has every header.', '', ...steps] : [], 'No exchange was recorded.'),
		section('Redacted', describeRedactions(run.redactions).map((note) => `- ${mdText(note)}`), 'Nothing needed redacting.')
	].join('\n\n') + '\n';
}
