/**
 * A copy-pasteable curl script for every row and cause of the error tables, and for success and cancel, against
 * the sandbox: its control API (`/sandbox/authorize`, `/sandbox/clock`, `/sandbox/clients`) stands in for a
 * person's browser. The reference page shows them beside their rows, and `curl-examples.test.ts` runs every one
 * against a real sandbox and checks that it gives its row. What each prints comes from the row itself.
 *
 * Scripts use `$CLIENT_SECRET` for the demo client's secret, never its value, so a script copied for another
 * client stays free of secrets; the reference page shows the demo client's (public, shipped with the sandbox) once,
 * above the scripts.
 */
import { AUTHORIZATION_CODE, allErrorRows, type ErrorRow, type TokenParameter } from '$lib/protocol';
import { escapeRegExp } from '$lib/http/encoding';
import { UNPRODUCIBLE_CAUSES } from './library';

/** Where the sandbox answers, and the demo client's registered redirect URI. */
export interface SandboxAddresses {
	authUrl: string;
	accountsUrl: string;
	redirectUri: string;
}

export type CurlExample =
	/** `script` prints what the page shows (the row's message) and then `HTTP <status>`. */
	| { kind: 'page'; script: string }
	/** `script` prints the response body, then `HTTP <status>` on a line of its own. */
	| { kind: 'api'; script: string }
	| { kind: 'unavailable'; why: string };

/** The outcomes that are not a row of the tables. */
export type FlowOutcome = 'success' | 'cancel';

export const exampleKey = (rowId: string, causeId: string) => `${rowId}#${causeId}`;

const DEMO_CLIENT = 'demo-client';
const STUDENT = 'student@example.com';
/** Written after each response so the status can be read, by a person and by the test. */
const SHOW_STATUS = `-w '\\nHTTP %{http_code}\\n'`;

/** Single-quoted for the shell: nothing in it is expanded. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A query string; values starting with `$` stay shell variables (the URL is then double-quoted). */
function query(params: Record<string, string>): string {
	return Object.entries(params)
		.map(([name, value]) => `${name}=${value.startsWith('$') ? value : encodeURIComponent(value)}`)
		.join('&');
}

const without = (params: Record<string, string>, name: string) => Object.fromEntries(Object.entries(params).filter(([n]) => n !== name));

function scripts(a: SandboxAddresses) {
	const authorizeBody = (decision: 'authorize' | 'cancel', login = STUDENT) =>
		JSON.stringify({ supergroup: 'student', response_type: 'code', client_id: DEMO_CLIENT, redirect_uri: a.redirectUri, country: 'uk', login, decision });
	const control = (path: string, body: unknown) =>
		`curl -s ${a.accountsUrl}/sandbox/${path} -H 'content-type: application/json' -d ${quoted(JSON.stringify(body))}`;
	/** Signs `login` in and authorises the demo client, headless: the code of the redirect the page would make. */
	const getCode = (login = STUDENT) =>
		`CODE=$(curl -s ${a.accountsUrl}/sandbox/authorize -H 'content-type: application/json' \\\n  -d ${quoted(authorizeBody('authorize', login))} \\\n  | sed -E 's/.*[?&]code=([^&"]*).*/\\1/')`;

	const exchange: Record<TokenParameter, string> = { grant_type: AUTHORIZATION_CODE, code: '$CODE', redirect_uri: a.redirectUri, client_id: DEMO_CLIENT, client_secret: '$CLIENT_SECRET' };
	const token = (params: Record<string, string>, show = true) =>
		`curl -s ${show ? `${SHOW_STATUS} ` : ''}-X POST "${a.accountsUrl}/oauth/token?${query(params)}"`;
	const getToken = (login = STUDENT) =>
		`${getCode(login)}\nTOKEN=$(${token(exchange, false)} | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')`;
	const me = (...headers: string[]) => `curl -s ${SHOW_STATUS} ${headers.map((h) => `-H ${h.includes('$') ? `"${h}"` : quoted(h)} `).join('')}${a.accountsUrl}/api/v3/me.json`;

	const link = { response_type: 'code', client_id: DEMO_CLIENT, redirect_uri: a.redirectUri, country: 'uk' };
	const page = (params: Record<string, string>, row: ErrorRow) =>
		`curl -s ${SHOW_STATUS} ${quoted(`${a.authUrl}/sso/student?${query(params)}`)} \\\n  | grep -oE ${quoted(`${escapeRegExp(row.table === '7.1' ? row.message : '')}|^HTTP [0-9]+$`)}`;

	return { control, getCode, getToken, token, exchange, me, link, page, authorizeBody };
}

/** Every row and cause, keyed by `exampleKey`, and the two flow outcomes. */
export function curlExamples(a: SandboxAddresses): Map<string, CurlExample> {
	const s = scripts(a);
	const rows = new Map(allErrorRows().map((row) => [row.id, row]));
	const pageOf = (rowId: string, params: Record<string, string>): CurlExample => ({ kind: 'page', script: s.page(params, rows.get(rowId as ErrorRow['id'])!) });
	const api = (...lines: string[]): CurlExample => ({ kind: 'api', script: lines.join('\n') });
	const tokenWith = (changes: Partial<Record<TokenParameter, string>>, drop?: TokenParameter) => s.token(drop ? without({ ...s.exchange, ...changes }, drop) : { ...s.exchange, ...changes });

	const examples: [string, CurlExample][] = [
		[exampleKey('auth-invalid-redirect-uri', 'not-registered'), pageOf('auth-invalid-redirect-uri', { ...s.link, redirect_uri: 'https://elsewhere.example/callback' })],
		[exampleKey('auth-invalid-redirect-uri', 'missing'), pageOf('auth-invalid-redirect-uri', without(s.link, 'redirect_uri'))],
		[exampleKey('auth-invalid-client', 'unknown-client'), pageOf('auth-invalid-client', { ...s.link, client_id: 'no-such-client' })],
		[exampleKey('auth-invalid-client', 'missing'), pageOf('auth-invalid-client', without(s.link, 'client_id'))],
		[exampleKey('auth-unsupported-response-type', 'not-code'), pageOf('auth-unsupported-response-type', { ...s.link, response_type: 'token' })],

		[exampleKey('token-invalid-grant', 'unknown-code'), api(tokenWith({ code: 'not-a-code-the-sandbox-issued' }))],
		[exampleKey('token-invalid-grant', 'used'), api(s.getCode(), `${s.token(s.exchange, false)} > /dev/null  # the first exchange succeeds`, tokenWith({}))],
		[
			exampleKey('token-invalid-grant', 'expired'),
			api(
				s.getCode(),
				`${s.control('clock', { advance_seconds: 2 * 3600 + 60 })} > /dev/null  # 2 h 1 min later`,
				tokenWith({}),
				// The clock is the workspace's, shared by whoever uses it: put it back.
				`${s.control('clock', { reset: true })} > /dev/null  # the clock back to real time`
			)
		],
		[
			exampleKey('token-invalid-grant', 'other-client'),
			api(
				`${s.control('clients', { client_id: 'other-client', client_secret: 'other-client-secret', redirect_uris: [a.redirectUri], countries: ['uk'] })} > /dev/null  # a second client, kept until a reset`,
				s.getCode(),
				tokenWith({ client_id: 'other-client', client_secret: 'other-client-secret' })
			)
		],
		[exampleKey('token-invalid-grant', 'redirect-mismatch'), api(s.getCode(), tokenWith({ redirect_uri: `${a.redirectUri}?extra=1` }))],
		[exampleKey('token-invalid-request', 'missing-code'), api(tokenWith({}, 'code'))],
		[exampleKey('token-invalid-request', 'missing-parameter'), api(s.getCode(), tokenWith({}, 'redirect_uri'))],
		[exampleKey('token-unsupported-grant-type', 'wrong-grant-type'), api(s.getCode(), tokenWith({ grant_type: 'password' }))],
		[exampleKey('token-invalid-client', 'wrong-secret'), api(s.getCode(), tokenWith({ client_secret: 'not-the-secret' }))],
		[exampleKey('token-invalid-client', 'unknown-client'), api(s.getCode(), tokenWith({ client_id: 'no-such-client' }))],
		[exampleKey('token-invalid-client', 'missing-credentials'), api(s.getCode(), tokenWith({}, 'client_secret'))],

		[exampleKey('me-bad-request', 'missing-host'), api(s.getToken(), s.me('Host:', 'Authorization: Bearer $TOKEN'))],
		[exampleKey('me-unauthorized', 'missing-token'), api(s.me())],
		[exampleKey('me-unauthorized', 'grant-code'), api(s.getCode(), s.me('Authorization: Bearer $CODE'))],
		[exampleKey('me-unauthorized', 'invalid-token'), api(s.me('Authorization: Bearer not-a-token'))],
		[exampleKey('me-forbidden', 'missing-user-agent'), api(s.getToken(), s.me('User-Agent:', 'Authorization: Bearer $TOKEN'))],
		[exampleKey('me-not-found', 'deletion-requested'), api(s.getToken('deleted@example.com'), s.me('Authorization: Bearer $TOKEN'))],

		['success', api(s.getToken(), s.me('Authorization: Bearer $TOKEN'))],
		['cancel', api(`curl -s ${SHOW_STATUS} ${a.accountsUrl}/sandbox/authorize -H 'content-type: application/json' \\\n  -d ${quoted(s.authorizeBody('cancel'))}`)]
	];
	for (const { rowId, causeId, why } of UNPRODUCIBLE_CAUSES) examples.push([exampleKey(rowId, causeId), { kind: 'unavailable', why }]);
	return new Map(examples);
}

/** What a script prints, for a person: the row's status and error, or its message. */
export function expectedOutput(row: ErrorRow): string {
	if (row.table === '7.1') return `the page's message, "${row.message}", and \`HTTP 400\` (the sandbox's status for a 7.1 page)`;
	if (row.table === '7.2') return `a JSON body with \`"error":"${row.error}"\`, then \`HTTP ${row.status}\``;
	return `\`HTTP ${row.status}\` after the body (${row.body})`;
}

export const FLOW_OUTCOME_EXPECTED: Record<FlowOutcome, string> = {
	success: 'the user verification object (2.4), then `HTTP 200`',
	cancel: 'the redirect the page would make, `{"location":…}` without `code`, then `HTTP 200`'
};
