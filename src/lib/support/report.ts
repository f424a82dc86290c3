/**
 * A run written out for people: a Markdown report for a ticket (the steps, the outcome, the rows matched with
 * links to the reference page, the fix) and a shell script of curl commands that replays the server-side steps
 * with `$CLIENT_SECRET` from the environment. Both are built from a redacted run, so neither can hold a secret.
 */
import { CANCEL_MEANING, classifyCallback } from '$lib/flow/callback';
import type { Annotation } from '$lib/flow/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { HttpHeader } from '$lib/http/exchange';
import { toCurl } from '$lib/flow/curl';
import type { AnnotatedRun } from './annotate';
import { crossFlags } from './flags';
import { describeSource, linkRedirectUri, type Run } from './run';


/** Longest body shown in a report; the rest is in the HAR export. */
const REPORT_BODY_LIMIT = 4000;

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

/** Inline code that survives backticks in the text. */
function code(text: string): string {
	const longest = Math.max(0, ...(oneLine(text).match(/`+/g) ?? []).map((run) => run.length));
	const ticks = '`'.repeat(longest + 1);
	const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
	return `${ticks}${pad}${oneLine(text)}${pad}${ticks}`;
}

/** A fenced block whose fence is longer than any run of backticks inside. */
function fenced(text: string, lang: string): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}${lang}\n${text}\n${fence}`;
}

function cut(body: string): string {
	return body.length > REPORT_BODY_LIMIT ? `${body.slice(0, REPORT_BODY_LIMIT)}\n… (${body.length - REPORT_BODY_LIMIT} more characters)` : body;
}

const headerLines = (headers: HttpHeader[]) => headers.map((h) => `${h.name}: ${h.value}`);

function httpText(exchange: RecordedExchange): string {
	const { request, response, failure } = exchange;
	const req = [`${request.method} ${request.url} HTTP/1.1`, ...headerLines(request.headers)];
	if (request.body !== null) req.push('', cut(request.body));
	if (!response) return [...req, '', failure ? `(no response: ${failure.kind}: ${failure.message})` : '(no response recorded)'].join('\n');
	const res = [`HTTP/1.1 ${response.status} ${response.statusText}`.trim(), ...headerLines(response.headers)];
	if (response.body !== '') res.push('', cut(response.body) + (response.truncated ? '\n… (cut when recorded)' : ''));
	return [...req, '', ...res].join('\n');
}

const rowLink = (rowId: string) => `[${rowId}](/reference#${rowId})`;

function statusOf(exchange: RecordedExchange): string {
	if (exchange.response) return `${exchange.response.status} ${exchange.response.statusText}`.trim();
	return exchange.failure ? `no response (${exchange.failure.kind})` : 'no response recorded';
}

function stepSection(exchange: RecordedExchange, n: number, annotation: Annotation | undefined): string {
	const lines = [`### ${n}. ${exchange.step}: ${oneLine(exchange.label)}`, '', `${code(`${exchange.request.method} ${exchange.request.url}`)} → ${statusOf(exchange)}`];
	if (annotation) {
		lines.push('', `**${oneLine(annotation.title)}** (${annotation.outcome}). ${oneLine(annotation.summary)}`);
		if (annotation.rowId) lines.push('', `Row: ${rowLink(annotation.rowId)}${annotation.causeId ? `, cause \`${annotation.causeId}\`` : ''}`);
		if (annotation.fix) lines.push('', `Fix: ${oneLine(annotation.fix)}`);
		for (const problem of annotation.problems ?? []) lines.push('', `- ${oneLine(problem)}`);
	}
	lines.push('', fenced(httpText(exchange), 'http'));
	return lines.join('\n');
}

function callbackOutcome(run: Run, annotation: Annotation | null): string[] {
	if (!run.callback) return [];
	if (annotation) return [`The redirect back: ${oneLine(annotation.title)}. ${oneLine(annotation.summary)}`];
	const result = classifyCallback(run.callback.url, { redirectUri: linkRedirectUri(run) ?? run.callback.url });
	if (result.kind === 'cancel') return [CANCEL_MEANING];
	if (result.kind === 'code') return ['The user authorised: the redirect back carried a grant code.'];
	return [oneLine(result.reason)];
}

function lastOutcome(run: Run, annotations: AnnotatedRun): string[] {
	const n = run.exchanges.length;
	const last = run.exchanges.at(-1);
	if (!last) return [];
	const annotation = annotations.exchanges[n - 1] ?? undefined;
	const head = `The last step, ${n} (${last.step}), ended with ${statusOf(last)}`;
	if (!annotation) return [`${head}.`];
	return [`${head}: ${oneLine(annotation.title)}. ${oneLine(annotation.summary)}`, ...(annotation.fix && annotation.outcome !== 'success' ? [`Fix: ${oneLine(annotation.fix)}`] : [])];
}

function flagLines(run: Run): string[] {
	return crossFlags(run).map((f) => `- **${f.severity}** (section ${f.section}): ${oneLine(f.message)} Fix: ${oneLine(f.fix)}`);
}

function rowsMatched(annotations: AnnotatedRun): string[] {
	const rows = [...new Set(annotations.exchanges.flatMap((a) => a?.rowId ?? []))];
	return rows.map((id) => `- ${rowLink(id)}`);
}

function section(title: string, lines: string[], empty: string): string {
	return [`## ${title}`, '', ...(lines.length ? lines : [empty])].join('\n');
}

export function runToMarkdown(run: Run, annotations: AnnotatedRun): string {
	const target = `${run.target.kind} (authorisation host ${code(run.target.authUrl || 'unknown')}, accounts host ${code(run.target.accountsUrl || 'unknown')})`;
	const facts = [
		`- Recorded: ${run.createdAt}, from ${describeSource(run.source)}`,
		`- Target: ${target}`,
		...(run.sandboxClock ? [`- Sandbox clock: ${run.sandboxClock}`] : []),
		...(run.link ? [`- Authorisation link: ${code(run.link)}`] : []),
		...(run.callback ? [`- Redirect back: ${code(run.callback.url)} at ${run.callback.receivedAt}`] : [])
	];
	return [
		`# ${oneLine(run.title)}`,
		facts.join('\n'),
		section('Outcome', [...callbackOutcome(run, annotations.callback), ...lastOutcome(run, annotations)], 'No step was recorded.'),
		section('What is wrong across the requests', flagLines(run), 'Nothing: each request is consistent with the others.'),
		section('Rows matched', rowsMatched(annotations), 'No row of the error tables.'),
		section('Steps', run.exchanges.map((e, i) => stepSection(e, i + 1, annotations.exchanges[i] ?? undefined)), 'No exchange was recorded.'),
		section('Redacted', run.redactions.map((r) => `- ${oneLine(r.what)}: ${oneLine(r.where)}`), 'Nothing.')
	].join('\n\n') + '\n';
}

/* ------------------------------------------------------------------ shell script */

const comment = (text: string) => `# ${oneLine(text)}`;

function scriptStep(exchange: RecordedExchange, n: number): string[] {
	if (exchange.step === 'link' || exchange.step === 'authorise')
		return [comment(`Step ${n} (${exchange.step}) happens in a browser; open: ${exchange.request.url}`)];
	// Cookies were redacted, and the accounts host does not use them.
	const request = { ...exchange.request, headers: exchange.request.headers.filter((h) => h.name.toLowerCase() !== 'cookie') };
	return [comment(`Step ${n} (${exchange.step}): ${exchange.label}; it answered ${statusOf(exchange)}.`), toCurl(request), 'echo'];
}

/** A POSIX shell script that replays the run's server-side requests; secrets come from the environment. */
export function runToShellScript(run: Run): string {
	const steps = run.exchanges.flatMap((e, i) => ['', ...scriptStep(e, i + 1)]);
	const body = steps.join('\n');
	const needs = (name: string, why: string) => (body.includes(`$${name}`) ? [`: "\${${name}:?${why}}"`] : []);
	return [
		'#!/bin/sh',
		comment(`SSO Flow Explorer run: ${run.title}`),
		comment(`Recorded ${run.createdAt} against ${run.target.accountsUrl || run.target.authUrl || 'an unknown target'}.`),
		...(run.link ? [comment(`Authorisation link (open in a browser): ${run.link}`)] : []),
		'# Secrets are never written here: set them in the environment first.',
		'set -u',
		...needs('CLIENT_SECRET', 'set CLIENT_SECRET to the client secret'),
		...needs('ACCESS_TOKEN', 'set ACCESS_TOKEN to the access_token of a token response'),
		...needs('REFRESH_TOKEN', 'set REFRESH_TOKEN to the refresh_token of a token response'),
		body,
		''
	].join('\n');
}
