/**
 * A run written out for people: a Markdown report for a ticket (the permalink, the steps, the outcome, the rows
 * matched with absolute links to the reference page, the fix) and a shell script of curl commands that replays the
 * server-side steps end to end: `$CLIENT_SECRET` from the environment, a fresh grant code (from the sandbox's
 * control API, or by hand), the access token taken from the exchange's answer. Both are built from a redacted
 * run, so neither can hold a secret.
 */
import { CANCEL_MEANING, classifyCallback } from '$lib/flow/callback';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { HttpHeader } from '$lib/http/exchange';
import { shellQuote, toCurl } from '$lib/flow/curl';
import { safeDecodePath } from '$lib/flow/link/link';
import type { AnnotatedFlow } from '$lib/flow/annotate-flow';
import type { CrossFlag } from '$lib/flow/flags';
import type { FlowDiagnosis } from '$lib/flow/diagnose-flow';
import { linkRedirectUri } from '$lib/flow/record';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import { channelOf, EVIDENCE_NAMES } from './join';
import { describeSource, type Run } from './run';
import { describeSanitised } from './har/sanitised';
import { splitRawQuery } from '$lib/http/form';
import { uriParts } from '$lib/http/encoding';
import { CODE_VALIDITY } from '$lib/protocol';
import { mdCode, mdFence, mdProse, mdText, oneLine } from '$lib/markdown';

/** Where the explorer is reached (its PUBLIC_ORIGIN), so a report's links work outside it. */
export interface ReportContext {
	origin: string;
}


/** Longest body shown in a report; the rest is in the HAR export. */
const REPORT_BODY_LIMIT = 4000;

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

const rowLink = (rowId: string, origin: string) => `[${mdText(rowId)}](${origin}/reference#${encodeURIComponent(rowId)})`;

function statusOf(exchange: RecordedExchange): string {
	if (exchange.response) return `${exchange.response.status} ${exchange.response.statusText}`.trim();
	return exchange.failure ? `no response (${exchange.failure.kind})` : 'no response recorded';
}

/** Where an added exchange came from: "back channel, added from a pasted curl command". */
function provenance(exchange: RecordedExchange): string {
	if (!exchange.evidence) return '';
	return ` (${channelOf(exchange)} channel, added from ${EVIDENCE_NAMES[exchange.evidence.source]})`;
}

function stepSection(exchange: RecordedExchange, n: number, annotation: Annotation | undefined, origin: string): string {
	const heading = `### ${n}. ${mdText(exchange.step)}: ${mdText(exchange.label)}${mdText(provenance(exchange))}`;
	const lines = [heading, '', `${mdCode(`${exchange.request.method} ${exchange.request.url}`)} → ${mdText(statusOf(exchange))}`];
	if (annotation) {
		lines.push('', `**${mdProse(annotation.title)}** (${mdText(annotation.outcome)}). ${mdProse(annotation.summary)}`);
		if (annotation.rowId) lines.push('', `Row: ${rowLink(annotation.rowId, origin)}${annotation.causeId ? `, cause ${mdCode(annotation.causeId)}` : ''}`);
		if (annotation.fix) lines.push('', `Fix: ${mdProse(annotation.fix)}`);
		for (const problem of annotation.problems ?? []) lines.push('', `- ${mdProse(problem)}`);
	}
	lines.push('', mdFence(httpText(exchange), 'http'));
	return lines.join('\n');
}

function callbackOutcome(run: Run, annotation: Annotation | null): string[] {
	if (!run.callback) return [];
	if (annotation) return [`The redirect back: ${mdProse(annotation.title)}. ${mdProse(annotation.summary)}`];
	const result = classifyCallback(run.callback.url, { redirectUri: linkRedirectUri(run) ?? run.callback.url });
	if (result.kind === 'cancel') return [mdProse(CANCEL_MEANING)];
	if (result.kind === 'code') return ['The user authorised: the redirect back carried a grant code.'];
	return [mdProse(result.reason)];
}

function lastOutcome(run: Run, annotations: AnnotatedFlow): string[] {
	const n = run.exchanges.length;
	const last = run.exchanges.at(-1);
	if (!last) return [];
	const annotation = annotations.exchanges[n - 1] ?? undefined;
	const head = `The last step, ${n} (${mdText(last.step)}), ended with ${mdText(statusOf(last))}`;
	if (!annotation) return [`${head}.`];
	return [`${head}: ${mdProse(annotation.title)}. ${mdProse(annotation.summary)}`, ...(annotation.fix && annotation.outcome !== 'success' ? [`Fix: ${mdProse(annotation.fix)}`] : [])];
}

function flagLines(flags: CrossFlag[], origin: string): string[] {
	return flags.flatMap((f) => [
		`- **${mdText(f.severity)}** (section ${mdText(f.section)}): ${mdProse(f.message)} Fix: ${mdProse(f.fix)}`,
		...(f.candidates ?? []).map(
			(c, i) => `  ${i + 1}. ${rowLink(c.rowId, origin)} ${mdCode(c.causeId)} (${mdText(c.likelihood)}): ${mdProse(c.why)} Fix: ${mdProse(c.fix)}`
		)
	]);
}

function rowsMatched(annotations: AnnotatedFlow, origin: string): string[] {
	const rows = [...new Set(annotations.exchanges.flatMap((a) => a?.rowId ?? []))];
	return rows.map((id) => `- ${rowLink(id, origin)}`);
}

function section(title: string, lines: string[], empty: string): string {
	return [`## ${title}`, '', ...(lines.length ? lines : [empty])].join('\n');
}

/** The verdict's lines, which lead the report: what happened, where the reference explains it, the cause, the fix. */
export function verdictLines(verdict: Verdict, permalink: string, origin: string): string[] {
	const reference = verdict.reference
		? verdict.reference.kind === 'row'
			? `- Row: [${mdText(`${verdict.reference.table} ${verdict.reference.rowId}`)}](${origin}/reference#${encodeURIComponent(verdict.reference.anchor)})`
			: `- Section: [${mdText(verdict.reference.section)}](${origin}/reference#${encodeURIComponent(verdict.reference.anchor)})`
		: null;
	const exchange = verdict.exchange ? ` (exchange ${verdict.exchange.n})` : '';
	return [
		`**${VERDICT_WORDS[verdict.severity]}:** ${mdProse(verdict.what)}`,
		'',
		...(reference ? [reference] : []),
		`- Likely cause: ${mdProse(verdict.cause)}`,
		`- Fix: ${mdProse(verdict.fix)}`,
		`- Run: ${permalink}${exchange}`
	];
}

const VERDICT_WORDS: Record<Verdict['severity'], string> = {
	error: 'What went wrong',
	warning: 'What to look at',
	cancel: 'What happened',
	unsent: 'What to do next',
	success: 'What happened'
};

export function runToMarkdown(run: Run, diagnosis: FlowDiagnosis, { origin }: ReportContext): string {
	const { annotations, flags } = diagnosis;
	const permalink = `${origin}/runs/${run.id}`;
	const target = `${mdText(run.target.kind)} (authorisation host ${mdCode(run.target.authUrl || 'unknown')}, accounts host ${mdCode(run.target.accountsUrl || 'unknown')})`;
	const facts = [
		`- Permalink: ${permalink} (exports: ${permalink}/export/har, ${permalink}/export/shell)`,
		`- Recorded: ${mdText(run.createdAt)}, from ${mdText(describeSource(run.source))}`,
		`- Target: ${target}`,
		...(run.sandboxClock ? [`- Sandbox clock: ${mdText(run.sandboxClock)}`] : []),
		...(run.link ? [`- Authorisation link: ${mdCode(run.link)}`] : []),
		...(run.callback ? [`- Redirect back: ${mdCode(run.callback.url)} at ${mdText(run.callback.receivedAt)}`] : []),
		...(run.sanitised ? [`- Sanitised HAR: ${mdProse(describeSanitised(run.sanitised))}`] : [])
	];
	return [
		`# ${mdText(run.title)}`,
		verdictLines(flowVerdict(run, diagnosis), permalink, origin).join('\n'),
		facts.join('\n'),
		section('Outcome', [...callbackOutcome(run, annotations.callback), ...lastOutcome(run, annotations)], 'No step was recorded.'),
		section('What is wrong across the requests', flagLines(flags, origin), 'Nothing: each request is consistent with the others.'),
		section('Rows matched', rowsMatched(annotations, origin), 'No row of the error tables.'),
		section('Steps', run.exchanges.map((e, i) => stepSection(e, i + 1, annotations.exchanges[i] ?? undefined, origin)), 'No exchange was recorded.'),
		section('Redacted', run.redactions.map((r) => `- ${mdText(r.what)}: ${mdText(r.where)}`), 'Nothing.')
	].join('\n\n') + '\n';
}

/* ------------------------------------------------------------------ shell script */

const comment = (text: string) => `# ${oneLine(text)}`;

/** Stands for the grant code in a command until it is written as `"$CODE"`; no recorded text contains it. */
const CODE_PLACEHOLDER = 'SSO-FLOW-EXPLORER-CODE-PLACEHOLDER';

/** The JSON string's value of `name` in the answer held in shell variable `from`, with sed only. */
const jsonField = (from: string, name: string) =>
	`$(printf '%s' "$${from}" | sed -n 's/.*"${name}"[[:space:]]*:[[:space:]]*"\\([^"]*\\)".*/\\1/p')`;

function queryValue(query: string, name: string): string | undefined {
	return splitRawQuery(query).find((p) => p.name === name)?.value;
}

/** A request's `code` parameter (URL or form body) replaced by the placeholder where it is `code`'s value. */
function withCodePlaceholder(request: RecordedExchange['request'], code: string): RecordedExchange['request'] {
	const swap = (query: string) =>
		splitRawQuery(query)
			.map((p) => `${p.rawName}=${p.name === 'code' && p.value === code ? CODE_PLACEHOLDER : p.rawValue}`)
			.join('&');
	const { scheme, authority, path, query, fragment } = uriParts(request.url);
	const url = `${scheme}://${authority}${path}${query === '' ? '' : `?${swap(query)}`}${fragment === '' ? '' : `#${fragment}`}`;
	const form = /application\/x-www-form-urlencoded/i.test(request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '');
	return { ...request, url, body: request.body !== null && form ? swap(request.body) : request.body };
}

/** How the script gets a grant code: from the sandbox's control API, or from the person running it. */
function codeLines(run: Run, code: string, usedUp: boolean): string[] {
	const link = run.link ? uriParts(run.link) : null;
	const linkParam = (name: string) => (link ? queryValue(link.query, name) : undefined);
	const supergroup = link ? safeDecodePath(/\/sso\/([^/]+)$/.exec(link.path)?.[1] ?? '') : '';
	const authorize = {
		supergroup,
		response_type: 'code',
		client_id: linkParam('client_id') ?? '',
		redirect_uri: linkParam('redirect_uri') ?? '',
		country: linkParam('country') ?? ''
	};
	if (run.target.kind === 'sandbox' && run.link && authorize.client_id && authorize.redirect_uri) {
		const login = supergroup === 'student' ? 'student@example.com' : 'multi@example.com';
		const body = JSON.stringify(authorize).replace(/}$/, `,"login":"LOGIN","decision":"authorize"}`);
		const [before, after] = body.split('LOGIN') as [string, string];
		return [
			comment(`A grant code is single use and valid for ${CODE_VALIDITY}, so the recorded one cannot be replayed: the sandbox's control API (POST /sandbox/authorize) issues a fresh one, as if ${login} (or $LOGIN) authorised the link.`),
			'# With SANDBOX_ADMIN_TOKEN set on the explorer, export it here too; from the same machine none is needed.',
			`AUTHORIZE_ANSWER=$(curl -sS -X POST ${shellQuote(`${run.target.accountsUrl}/sandbox/authorize`)} -H 'content-type: application/json' \${SANDBOX_ADMIN_TOKEN:+-H "X-Sandbox-Admin-Token: $SANDBOX_ADMIN_TOKEN"} --data-raw ${shellQuote(before)}"\${LOGIN:-${login}}"${shellQuote(after)})`,
			`CODE=$(printf '%s' "$AUTHORIZE_ANSWER" | sed -n 's/.*[?&]code=\\([^&"#]*\\).*/\\1/p')`,
			`[ -n "$CODE" ] || { echo "No grant code from the sandbox: $AUTHORIZE_ANSWER" >&2; exit 1; }`
		];
	}
	return [
		comment(
			usedUp
				? `The recorded grant code was exchanged in this run, and a code is single use (and valid for ${CODE_VALIDITY}): replayed, it answers invalid_grant. Set CODE to a fresh one: open the authorisation link in a browser, sign in, and take code= from the redirect.`
				: `A grant code is valid for ${CODE_VALIDITY}: the recorded one has probably expired. Set CODE to a fresh one from the redirect after opening the authorisation link.`
		),
		`CODE="\${CODE:-${code.replace(/[^A-Za-z0-9._~%-]/g, '')}}"`
	];
}

function scriptStep(exchange: RecordedExchange, n: number, code: string | undefined, usedBefore: boolean): string[] {
	if (exchange.step === 'link' || exchange.step === 'authorise')
		return [comment(`Step ${n} (${exchange.step}) happens in a browser; open: ${exchange.request.url}`)];
	// Cookies were redacted, and the accounts host does not use them.
	const headers = exchange.request.headers.filter((h) => h.name.toLowerCase() !== 'cookie');
	const request = { ...exchange.request, headers };
	const sendsCode = exchange.step === 'token' && code !== undefined;
	const curl = toCurl(sendsCode ? withCodePlaceholder(request, code) : request)
		.replaceAll(CODE_PLACEHOLDER, `'"$CODE"'`)
		.replace(/^curl/, `curl -sS -w '\\n(HTTP %{http_code})\\n'`);
	const lines = [comment(`Step ${n} (${exchange.step}): ${exchange.label}; it answered ${statusOf(exchange)}.`)];
	if (sendsCode && usedBefore && curl.includes('"$CODE"'))
		lines.push(comment('This sends the code again after a successful exchange: a code is single use, so expect 400 invalid_grant.'));
	if (exchange.step === 'token' && exchange.response?.status === 200) {
		// The token comes from this answer, so the steps after it use the token just issued.
		return [
			...lines,
			`TOKEN_ANSWER=$(${curl})`,
			'printf \'%s\\n\' "$TOKEN_ANSWER"',
			`ACCESS_TOKEN=${jsonField('TOKEN_ANSWER', 'access_token')}`,
			`REFRESH_TOKEN=${jsonField('TOKEN_ANSWER', 'refresh_token')}`
		];
	}
	return [...lines, curl];
}

/**
 * A POSIX shell script that replays the run's server-side requests against the same target: secrets come from the
 * environment, a fresh grant code from the sandbox's control API (or from whoever runs it), tokens from the answer.
 */
export function runToShellScript(run: Run, { origin }: ReportContext): string {
	const code = run.callback ? (queryValue(uriParts(run.callback.url).query, 'code') ?? undefined) : undefined;
	const tokenSteps = run.exchanges.map((e) => e.step === 'token' && e.response?.status === 200);
	const steps = run.exchanges.flatMap((e, i) => ['', ...scriptStep(e, i + 1, code, tokenSteps.slice(0, i).includes(true))]);
	const body = steps.join('\n');
	const usesCode = body.includes('"$CODE"');
	const issued = body.includes('TOKEN_ANSWER=');
	const needs = (name: string, why: string) => (body.includes(`$${name}`) ? [`: "\${${name}:?${why}}"`] : []);
	return [
		'#!/bin/sh',
		comment(`SSO Flow Explorer run: ${run.title}`),
		comment(`Permalink: ${origin}/runs/${run.id}`),
		comment(`Recorded ${run.createdAt} against ${run.target.accountsUrl || run.target.authUrl || 'an unknown target'}.`),
		...(run.link ? [comment(`Authorisation link (open in a browser): ${run.link}`)] : []),
		'# Secrets are never written here: set them in the environment first.',
		'set -u',
		...needs('CLIENT_SECRET', 'set CLIENT_SECRET to the client secret'),
		...(issued ? [] : needs('ACCESS_TOKEN', 'set ACCESS_TOKEN to the access_token of a token response')),
		...(issued ? [] : needs('REFRESH_TOKEN', 'set REFRESH_TOKEN to the refresh_token of a token response')),
		...(usesCode && code !== undefined ? ['', ...codeLines(run, code, tokenSteps.includes(true))] : []),
		body,
		''
	].join('\n');
}
