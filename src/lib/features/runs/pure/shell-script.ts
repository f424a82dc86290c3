/**
 * A run as a shell script of curl commands that replays the server-side steps end to end, stopping at the first
 * that fails: `$CLIENT_SECRET` from the environment, a fresh grant code (from the sandbox's control API, or by
 * hand), the access token read from the exchange's answer. Built from a redacted run, so it cannot hold a secret.
 */
import type { RecordedExchange } from '$lib/flow/exchange';
import { CANCEL_MEANING } from '$lib/flow/callback';
import { callbackResult } from '$lib/flow/record';
import { MASK } from '$lib/http/exchange';
import { shellQuote, toCurl } from '$lib/flow/curl';
import { safeDecodePath } from '$lib/flow/link/link';
import { type Run, type SandboxHosts } from './run';
import { onSandboxHosts } from './sandbox-log-evidence';
import { splitRawQuery } from '$lib/http/form';
import { uriParts } from '$lib/http/encoding';
import { CODE_VALIDITY } from '$lib/protocol';
import { oneLine } from '$lib/markdown';
import { requestHeadersThatMatter } from './headers-that-matter';
import { statusOf, type ReportContext } from './report';

const comment = (text: string) => `# ${oneLine(text)}`;

/** Stands for the grant code in a command until it is written as `"$CODE"`; no recorded text contains it. */
const CODE_PLACEHOLDER = 'SSO-FLOW-EXPLORER-CODE-PLACEHOLDER';

/**
 * The script's helpers. `send` runs one request's curl arguments, prints the answer and its status, and stops the
 * script (exit 1, one line on stderr naming the step and its status, and whether the run recorded the same) when
 * there is no answer or the status is not 2xx: a later step would only fail for a reason this one already gave
 * (me.json with an empty token). A 2xx where the run recorded another status goes on, said on stderr: the replay
 * then does not reproduce the run (a tampered value or the recorded user is not replayed), and the script ends
 * with exit status 2 (`finish`).
 */
const SEND = [
	'ANSWER_FILE=$(mktemp) || exit 1',
	'trap \'rm -f "$ANSWER_FILE"\' EXIT',
	'DIFFERS=0',
	'',
	'# send WHAT RECORDED CURL-ARGUMENTS...: one request; stops the script when it fails.',
	'send() {',
	'\twhat=$1 recorded=$2',
	'\tshift 2',
	'\tstatus=$(curl -sS -o "$ANSWER_FILE" -w \'%{http_code}\' "$@") || {',
	'\t\techo "Stopped at $what: no answer (curl exit $?)." >&2',
	'\t\texit 1',
	'\t}',
	'\tcat "$ANSWER_FILE"',
	'\tprintf \'\\n(HTTP %s)\\n\' "$status"',
	'\tcase $status in',
	'\t2??)',
	'\t\tcase ${recorded%% *} in',
	'\t\t"" | "$status") ;;',
	'\t\t*)',
	'\t\t\techo "Note: $what answered HTTP $status, where the run recorded $recorded: this replay does not reproduce the run." >&2',
	'\t\t\tDIFFERS=1',
	'\t\t\t;;',
	'\t\tesac',
	'\t\t;;',
	'\t*)',
	'\t\tcase ${recorded%% *} in',
	'\t\t"$status") echo "Stopped at $what: it answered HTTP $status, as the run recorded ($recorded): the failure is reproduced; the answer is above." >&2 ;;',
	'\t\t*) echo "Stopped at $what: it answered HTTP $status${recorded:+ (the run recorded $recorded)}; the answer is above." >&2 ;;',
	'\t\tesac',
	'\t\texit 1',
	'\t\t;;',
	'\tesac',
	'}',
	'',
	'# finish: exit status 2 when a step answered otherwise than the run recorded (said above), else 0.',
	'finish() {',
	'\t[ "$DIFFERS" = 0 ] || { echo "The replay ran to the end, but did not reproduce the run (see the notes above)." >&2; exit 2; }',
	'}'
];

/** Reading JSON answers: with Node.js (the explorer runs on it, so whoever uses it has it), never by pattern matching. */
const READ_JSON = [
	'command -v node >/dev/null 2>&1 || {',
	'\techo "This script reads the JSON answers with Node.js (node), which is not on PATH: install Node.js 18 or later (https://nodejs.org, or your package manager\'s nodejs) and run it again." >&2',
	'\texit 1',
	'}',
	'',
	'# answer_field NAME: the string field NAME of the last answer; fails when the answer is not JSON or has none.',
	'answer_field() {',
	'\tnode -e \'const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]; if (typeof v !== "string" || v === "") process.exit(1); process.stdout.write(v);\' "$ANSWER_FILE" "$1" 2>/dev/null',
	'}'
];

/** `VAR=$(answer_field field)`, stopping the script with a clear line when the answer of `what` has no such field. */
const takeField = (variable: string, field: string, what: string) =>
	`${variable}=$(answer_field ${field}) || { echo ${shellQuote(`Stopped after ${what}: its answer has no ${field}.`)} >&2; exit 1; }`;

function queryValue(query: string, name: string): string | undefined {
	return splitRawQuery(query).find((p) => p.name === name)?.value;
}

/**
 * A request's `code` parameter (URL or form body) replaced by the placeholder where it is the callback's `code`, or
 * a masked one (the sandbox's log keeps only a code's last characters): either way a fresh code is sent.
 */
function withCodePlaceholder(request: RecordedExchange['request'], code: string | undefined): RecordedExchange['request'] {
	const replaced = (value: string) => (code !== undefined && value === code) || value.includes(MASK);
	const swap = (query: string) =>
		splitRawQuery(query)
			.map((p) => `${p.rawName}=${p.name === 'code' && replaced(p.value) ? CODE_PLACEHOLDER : p.rawValue}`)
			.join('&');
	const { scheme, authority, path, query, fragment } = uriParts(request.url);
	const url = `${scheme}://${authority}${path}${query === '' ? '' : `?${swap(query)}`}${fragment === '' ? '' : `#${fragment}`}`;
	const form = /application\/x-www-form-urlencoded/i.test(request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '');
	return { ...request, url, body: request.body !== null && form ? swap(request.body) : request.body };
}

/**
 * The control API's request for a fresh code on the sandbox, as if a test user authorised the run's link: for a walk
 * of the sandbox, or a run recorded against this explorer's sandbox (`sandbox`) and imported; null elsewhere.
 */
function sandboxAuthorize(run: Run, sandbox: SandboxHosts | undefined): { login: string; url: string; before: string; after: string } | null {
	const link = run.link ? uriParts(run.link) : null;
	const onSandbox = run.target.kind === 'sandbox' || (sandbox !== undefined && onSandboxHosts(run, sandbox));
	// An import may not have reached the accounts host (a browser's HAR): the sandbox's is the one.
	const accountsUrl = run.target.accountsUrl || sandbox?.accountsUrl;
	if (!onSandbox || !link || !accountsUrl) return null;
	const linkParam = (name: string) => queryValue(link.query, name) ?? '';
	const supergroup = safeDecodePath(/\/sso\/([^/]+)$/.exec(link.path)?.[1] ?? '');
	const authorize = { supergroup, response_type: 'code', client_id: linkParam('client_id'), redirect_uri: linkParam('redirect_uri'), country: linkParam('country') };
	if (!authorize.client_id || !authorize.redirect_uri) return null;
	const body = JSON.stringify(authorize).replace(/}$/, `,"login":"LOGIN","decision":"authorize"}`);
	const [before, after] = body.split('LOGIN') as [string, string];
	return { login: supergroup === 'student' ? 'student@example.com' : 'multi@example.com', url: `${accountsUrl}/sandbox/authorize`, before, after };
}

/**
 * How the script gets a grant code: from the sandbox's control API, or from the person running it (`code`: the
 * callback's, offered as the default; undefined when the run holds none in full).
 */
function codeLines(run: Run, code: string | undefined, usedUp: boolean, sandbox: SandboxHosts | undefined): string[] {
	const authorize = sandboxAuthorize(run, sandbox);
	if (authorize) {
		const what = 'the fresh grant code (POST /sandbox/authorize)';
		return [
			comment(`A grant code is single use and valid for ${CODE_VALIDITY}, so the recorded one cannot be replayed: the sandbox's control API (POST /sandbox/authorize) issues a fresh one, as if ${authorize.login} (or $LOGIN) authorised the link.`),
			'# With SANDBOX_ADMIN_TOKEN set on the explorer, export it here too; from the same machine none is needed.',
			`send ${shellQuote(what)} '' -X POST ${shellQuote(authorize.url)} -H 'content-type: application/json' \${SANDBOX_ADMIN_TOKEN:+-H "X-Sandbox-Admin-Token: $SANDBOX_ADMIN_TOKEN"} --data-raw ${shellQuote(authorize.before)}"\${LOGIN:-${authorize.login}}"${shellQuote(authorize.after)}`,
			takeField('LOCATION', 'location', what),
			`CODE=$(node -e 'process.stdout.write(encodeURIComponent(new URL(process.argv[1]).searchParams.get("code") ?? ""))' "$LOCATION")`,
			`[ -n "$CODE" ] || { echo "Stopped after ${what}: the redirect it answered carries no code: $LOCATION" >&2; exit 1; }`
		];
	}
	if (code === undefined) {
		const how = 'open the authorisation link in a browser, sign in, and take code= from the redirect';
		return [
			comment(`This run holds no grant code in full (a log keeps only its last characters, or none arrived), and a code is single use and valid for ${CODE_VALIDITY}: set CODE to a fresh one: ${how}.`),
			`: "\${CODE:?set CODE to a fresh grant code: ${how}}"`
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

/** Whether curl replays the step: the browser's steps are opened in a browser, not replayed. */
const replayed = (exchange: RecordedExchange) => exchange.step === 'token' || exchange.step === 'me';

/** Whether a step after this one sends the access token, or the refresh token, an exchange issues. */
interface LaterUse {
	accessToken: boolean;
	refreshToken: boolean;
}

function scriptStep(exchange: RecordedExchange, n: number, code: string | undefined, usedBefore: boolean, laterUse: LaterUse): string[] {
	if (!replayed(exchange)) return [comment(`Step ${n} (${exchange.step}) happens in a browser; open: ${exchange.request.url}`)];
	// Only what the service reads: a browser's headers would change nothing, or break the replay.
	const request = { ...exchange.request, headers: requestHeadersThatMatter(exchange.request.headers) };
	const sendsCode = exchange.step === 'token';
	const what = `step ${n} (${exchange.step})`;
	const curl = toCurl(sendsCode ? withCodePlaceholder(request, code) : request)
		.replaceAll(CODE_PLACEHOLDER, `'"$CODE"'`)
		.replace(/^curl/, `send ${shellQuote(what)} ${shellQuote(statusOf(exchange))}`);
	const lines = [comment(`Step ${n} (${exchange.step}): ${exchange.label}; it answered ${statusOf(exchange)}.`)];
	if (sendsCode && usedBefore && curl.includes('"$CODE"'))
		lines.push(comment('This sends the code again after a successful exchange: a code is single use, so expect 400 invalid_grant, where the script stops.'));
	if (exchange.step === 'token' && exchange.response?.status === 200) {
		// The steps after it use the tokens this answer issues.
		return [
			...lines,
			curl,
			...(laterUse.accessToken ? [takeField('ACCESS_TOKEN', 'access_token', what)] : []),
			...(laterUse.refreshToken ? [takeField('REFRESH_TOKEN', 'refresh_token', what)] : [])
		];
	}
	return [...lines, curl];
}

/** Whether the run's redirect back was a cancel (no code, no error): nothing to exchange, and not an error (3). */
function endsInCancel(run: Run): boolean {
	return callbackResult(run)?.kind === 'cancel';
}

/** A cancelled run: nothing to replay, said as the outcome it is, with exit status 0. */
function cancelled(): string[] {
	const message = `Nothing to replay: the user cancelled on the authorisation page, so the redirect back carried no code to exchange. ${CANCEL_MEANING}`;
	return [comment(message), comment('To replay an exchange, walk the flow again and authorise; that run exports a script that replays it.'), `echo ${shellQuote(message)}`, 'exit 0'];
}

/** A run with nothing curl can replay (a browser's HAR sees no token exchange): a script that says so, and how to get a code. */
function nothingToReplay(run: Run, sandbox: SandboxHosts | undefined): string[] {
	if (endsInCancel(run)) return cancelled();
	const authorize = sandboxAuthorize(run, sandbox);
	const message =
		"Nothing to replay: this run recorded only the browser's steps, and the token exchange and me.json call (which the app's server makes) are not in it.";
	return [
		comment(message),
		comment(
			authorize
				? `To get a grant code: open the authorisation link above in a browser and sign in (or, without a browser, POST ${authorize.url} as the sandbox's control API describes); code= is in the redirect back.`
				: 'To get a grant code: open the authorisation link above in a browser and sign in; code= is in the address it redirects to.'
		),
		comment(`Then exchange it from your server (section 4.2 of the interface), or walk the flow in the explorer, whose run exports a script that replays it.`),
		`echo ${shellQuote(message)} >&2`,
		'exit 1'
	];
}

/**
 * A POSIX shell script that replays the run's server-side requests against the same target, stopping at the first
 * that fails: secrets come from the environment, a fresh grant code from the sandbox's control API (or from
 * whoever runs it), tokens from the answer, read with Node.js.
 */
export function runToShellScript(run: Run, { origin, sandbox }: ReportContext): string {
	const head = [
		'#!/bin/sh',
		comment(`SSO Flow Explorer run: ${run.title}`),
		comment(`Permalink: ${origin}/runs/${run.id}`),
		comment(`Recorded ${run.createdAt} against ${run.target.accountsUrl || run.target.authUrl || 'an unknown target'}.`),
		...(run.link ? [comment(`Authorisation link (open in a browser): ${run.link}`)] : [])
	];
	if (!run.exchanges.some(replayed)) return [...head, ...nothingToReplay(run, sandbox), ''].join('\n');

	const code = run.callback ? (queryValue(uriParts(run.callback.url).query, 'code') ?? undefined) : undefined;
	const firstAccepted = run.exchanges.findIndex((e) => e.step === 'token' && e.response?.status === 200);
	// Written from the last step back, so a token exchange reads only the tokens the steps after it send; what
	// those steps send is carried along, not re-read, so a run of thousands of steps stays linear.
	const stepTexts: string[][] = new Array(run.exchanges.length);
	const later: LaterUse = { accessToken: false, refreshToken: false };
	for (let i = run.exchanges.length - 1; i >= 0; i--) {
		const lines = scriptStep(run.exchanges[i]!, i + 1, code, firstAccepted !== -1 && firstAccepted < i, later);
		stepTexts[i] = ['', ...lines];
		later.accessToken ||= lines.some((line) => line.includes('$ACCESS_TOKEN'));
		later.refreshToken ||= lines.some((line) => line.includes('$REFRESH_TOKEN'));
	}
	const body = stepTexts.flat().join('\n');
	const usesCode = body.includes('"$CODE"');
	const codes = usesCode ? codeLines(run, code, firstAccepted !== -1, sandbox) : [];
	const readsJson = [body, ...codes].some((line) => line.includes('answer_field'));
	const issued = (name: string) => body.includes(`${name}=$(answer_field`);
	const needs = (name: string, why: string) => (body.includes(`$${name}`) ? [`: "\${${name}:?${why}}"`] : []);
	return [
		...head,
		`# Needs curl${readsJson ? ', and Node.js (node) to read the JSON answers: the explorer runs on it, so any machine that runs the explorer has it' : ''}.`,
		'# Secrets are never written here: set them in the environment first.',
		'# It stops at the first step that fails (no answer, or a status other than 2xx), saying which, with exit status 1;',
		'# a step that answers 2xx where the run recorded another status is noted, and the script then ends with exit status 2.',
		'set -u',
		...needs('CLIENT_SECRET', 'set CLIENT_SECRET to the client secret'),
		...(issued('ACCESS_TOKEN') ? [] : needs('ACCESS_TOKEN', 'set ACCESS_TOKEN to the access_token of a token response')),
		...(issued('REFRESH_TOKEN') ? [] : needs('REFRESH_TOKEN', 'set REFRESH_TOKEN to the refresh_token of a token response')),
		...(readsJson ? ['', ...READ_JSON] : []),
		'',
		...SEND,
		...(codes.length ? ['', ...codes] : []),
		body,
		'',
		'finish',
		''
	].join('\n');
}
