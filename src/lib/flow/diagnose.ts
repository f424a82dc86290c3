/**
 * Annotations: what a recorded exchange means. A success is validated with the zod schemas and each field is
 * explained; an error is matched to its row of the interface's tables (7.2, 7.3) and to the likeliest cause from
 * what the walk knows. Against the sandbox the explorer knows the cause; against a custom deployment it can only
 * rank the candidates, most likely first.
 */
import type { z } from 'zod';
import {
	LIMITS,
	SECTIONS,
	TOKEN_ERRORS,
	TOKEN_PARAMETERS,
	meErrorRowFor,
	sandboxChoice,
	tokenErrorRowFor,
	type CauseId,
	type CauseIdOf,
	type ErrorRow,
	type ErrorRowId,
	type MeErrorId,
	type TokenErrorId,
	type TokenParameter
} from '$lib/protocol';
import { MeErrorBody, MeResponse, TokenErrorBody, TokenResponse, type Verification } from '$lib/protocol/schemas';
import { CANCEL_MEANING, type CallbackResult } from './callback';
import { uriParts } from '../http/encoding';
import type { RecordedExchange } from './exchange';
import type { RecordedResponse, TransportFailure } from '../http/exchange';
import { describeVerification, type VerificationDescription } from './verification';
import { headerValue } from '../http/headers';

export type Outcome = 'success' | 'error' | 'cancel' | 'transport';
export type Target = 'sandbox' | 'custom';

export interface Candidate {
	rowId: ErrorRowId;
	causeId: string;
	likelihood: 'likely' | 'possible';
	/** Why this cause is (or may be) the one, from what the explorer knows. */
	why: string;
	/** The table's fix for this cause. */
	fix: string;
}

export interface AnnotatedField {
	name: string;
	value: string;
	explanation: string;
}

export interface UriDiff {
	part: 'scheme' | 'authority' | 'path' | 'query';
	a: string;
	b: string;
}

export interface Annotation {
	outcome: Outcome;
	title: string;
	summary: string;
	rowId?: ErrorRowId;
	causeId?: string;
	candidates: Candidate[];
	fix?: string;
	fields?: AnnotatedField[];
	problems?: string[];
	/** The sandbox's documented choice, when the behaviour is not described by the interface. */
	notDescribed?: string;
	/** For a `redirect_uri` mismatch: the link's redirect URI (a) against the one sent (b), part by part. */
	redirectUriDiff?: UriDiff[];
	/** me.json: which key the verifications used (the interface names both, see 2.4). */
	verificationKey?: 'supergroup' | 'group';
	/** me.json: each verification rendered for a person. */
	verifications?: VerificationDescription[];
	/** me.json, when its body matches 2.4: the account, and every key its verifications used. */
	account?: { sbidNumber: string; verificationKeys: ('supergroup' | 'group')[] };
}

/** What the walk knows when the token exchange comes back. `sent*` are the values the request carried. */
export interface WalkKnowledge {
	target: Target;
	linkRedirectUri?: string;
	linkClientId?: string;
	codeReceivedAt?: string;
	codeExchangedBefore?: boolean;
	codeClientId?: string;
	now: string;
	sentRedirectUri?: string;
	sentClientId?: string;
	sentGrantType?: string;
	sentCode?: string;
	issuedCode?: string;
}

export interface MeKnowledge {
	target: Target;
	sentGrantCode?: boolean;
	sentUserAgent: boolean;
	sentToken: boolean;
	/** Today's date (YYYY-MM-DD) on the target's clock; defaults to the exchange's start date (UTC). */
	today?: string;
}

/* ------------------------------------------------------------------ redirect URI diff */

/** The parts of two redirect URIs that differ, as written. The query part includes any fragment. */
export function redirectUriDiff(a: string, b: string): UriDiff[] {
	const split = (uri: string) => {
		const p = uriParts(uri);
		const query = `${uri.includes('?') ? `?${p.query}` : ''}${uri.includes('#') ? `#${p.fragment}` : ''}`;
		return { scheme: p.scheme, authority: p.authority, path: p.path, query };
	};
	const pa = split(a);
	const pb = split(b);
	return (['scheme', 'authority', 'path', 'query'] as const)
		.filter((part) => pa[part] !== pb[part])
		.map((part) => ({ part, a: pa[part], b: pb[part] }));
}

/* ------------------------------------------------------------------ shared pieces */

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		return { ok: false, problem: (error as Error).message };
	}
}

function zodProblems(error: z.ZodError): string[] {
	return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`);
}

function formatDuration(seconds: number): string {
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
	return m > 0 ? `${m} min` : `${Math.max(0, Math.round(seconds))} s`;
}

const TRANSPORT: Record<TransportFailure['kind'], { title: string; fix: string }> = {
	refused: {
		title: 'Not sent: the target is not allowed',
		fix: "The operator's configuration (the environment variable listing allowed hosts) does not allow this host. Use the built-in sandbox, or ask the operator to add the host."
	},
	unreachable: {
		title: 'The target could not be reached',
		fix: 'Check the address (host, port, http or https) and that the target is running. The request is sent from the explorer\'s server, so the host must be reachable from there, not just from your browser.'
	},
	timeout: {
		title: 'No complete answer in time',
		fix: 'The target is down, overloaded, or a firewall is silently dropping the connection. Check it is up, then try again.'
	},
	'too-large': {
		title: 'The answer was too large',
		fix: 'The token endpoint and me.json answer with small JSON bodies, so this address is probably not the right endpoint. Check accounts_url.'
	}
};

/**
 * A request that got no complete answer. When the status line and headers came before the failure (a body cut,
 * stalled or too large), the summary says so: the target did answer, just not all of it.
 */
function transportAnnotation({ failure, response }: { failure: TransportFailure; response: RecordedResponse | null }): Annotation {
	const { title, fix } = TRANSPORT[failure.kind];
	const waited = failure.kind === 'timeout' ? ` (waited ${Math.round(failure.timeoutMs / 1000)} s)` : '';
	const message = failure.message.replace(/\.$/, '');
	const status = response && `${response.status} ${response.statusText}`.trim();
	const summary = response
		? `The target began to answer (${status}, then ${response.body.length} characters of body) but the answer never completed${waited}: ${message}. Nothing in the interface's tables applies to an incomplete answer.`
		: `No response from the target${waited}: ${message}. Nothing in the interface's tables applies, because the service never answered.`;
	return { outcome: 'transport', title, summary, candidates: [], fix };
}

const NO_RESPONSE: Annotation = {
	outcome: 'transport',
	title: 'No response recorded',
	summary: 'The exchange has neither a response nor a recorded failure.',
	candidates: [],
	fix: 'Send the request again.'
};

type Endpoint = 'token' | 'me';

const ENDPOINT_PATH: Record<Endpoint, string> = { token: '{accounts_url}/oauth/token', me: '{accounts_url}/api/v3/me.json' };

/** A response that matches no row of the tables: say what it is and what to check. */
function undescribedResponse(response: RecordedResponse, endpoint: Endpoint, target: Target): Annotation {
	const { status } = response;
	const type = headerValue(response.headers, 'content-type') ?? '';
	const isHtml = /html/i.test(type) || /^\s*</.test(response.body);
	const cut = response.truncated ? ' (the body was cut at the recording limit)' : '';
	const table = endpoint === 'token' ? SECTIONS.errorsToken : SECTIONS.errorsMe;
	let what: string;
	let fix: string;
	if (status >= 300 && status < 400) {
		const location = headerValue(response.headers, 'location');
		what = `The endpoint answered with a redirect${location ? ` to ${location}` : ''}. The interface does not describe redirects here.`;
		fix = `Point the request at ${ENDPOINT_PATH[endpoint]} exactly: check http versus https, the host, and any path prefix. A redirect to a login page means a proxy is in front of the API.`;
	} else if (status >= 500) {
		what = `The service failed while handling the request (${status}).`;
		fix = 'This is the service\'s fault, not usually your request\'s. Try again later; if it persists, give the operator the time of the request.';
	} else if (isHtml) {
		what = 'The answer is an HTML page, not JSON: the request probably reached a web page (the authorisation host, a login page or a proxy) instead of the accounts API.';
		fix = `Check that accounts_url is the accounts host and the path is ${ENDPOINT_PATH[endpoint]}.`;
	} else if (status === 404 || status === 405) {
		what = status === 404 ? 'Nothing was found at this address.' : 'The endpoint does not accept this method.';
		fix = `Send ${endpoint === 'token' ? 'POST' : 'GET'} to ${ENDPOINT_PATH[endpoint]}.`;
	} else {
		const json = parseJson(response.body);
		what = json.ok ? 'The JSON body is not one the tables describe.' : `The body is not JSON (${json.problem}).`;
		fix = `Compare the response with section ${table}; if the target is a real deployment, ask its operator what this answer means.`;
	}
	return {
		outcome: 'error',
		title: `${status} ${response.statusText}: not in the interface's tables`.replace(/\s+:/, ':'),
		summary: `${what} No row of ${table} matches this status and body${cut}.`,
		candidates: [],
		fix,
		...(target === 'sandbox' && status === 405 ? { notDescribed: sandboxChoice('wrong-method').sandbox } : {})
	};
}

interface Evidence {
	causeId: CauseId;
	likelihood: 'likely' | 'possible';
	why: string;
}

/** What points at a cause of row `R`: the cause must be one of that row's, or it does not compile. */
type EvidenceOf<R extends ErrorRowId> = Evidence & { causeId: CauseIdOf<R> };

/**
 * Candidates for a row, ranked: the causes the evidence points at first, then the row's other causes as
 * possible. A row with a single cause needs no evidence. Against the sandbox, known causes are the answer.
 */
function rankCandidates(row: ErrorRow, evidence: Evidence[], target: Target): Candidate[] {
	const rowId = row.id as ErrorRowId;
	const fixOf = (causeId: CauseId) => row.causes.find((c) => c.id === causeId)?.fix ?? '';
	const pointed = evidence.filter((e, i) => evidence.findIndex((f) => f.causeId === e.causeId) === i);
	const single = row.causes.length === 1 && pointed.length === 0;
	const rest = row.causes
		.filter((c) => !pointed.some((e) => e.causeId === c.id))
		.map((c): Evidence => ({ causeId: c.id as CauseId, likelihood: single ? 'likely' : 'possible', why: c.text }));
	const hasLikely = pointed.some((e) => e.likelihood === 'likely');
	const ranked = target === 'sandbox' && hasLikely ? pointed : [...pointed, ...rest];
	return ranked
		.sort((a, b) => (a.likelihood === b.likelihood ? 0 : a.likelihood === 'likely' ? -1 : 1))
		.map((e) => ({ rowId, causeId: e.causeId, likelihood: e.likelihood, why: e.why, fix: fixOf(e.causeId) }));
}

/** The row-matched annotation: title, summary and fix from the best candidate. */
function rowAnnotation(
	row: ErrorRow,
	candidates: Candidate[],
	target: Target,
	head: string,
	extra: Partial<Annotation>
): Annotation {
	const best = candidates[0]?.likelihood === 'likely' ? candidates[0] : undefined;
	const cause = best && row.causes.find((c) => c.id === best.causeId);
	const anchor = `section ${row.table}, row ${row.id}`;
	let summary: string;
	if (best && cause) {
		// The cause's own text is shown beside the summary (and in the candidates): the summary says the evidence.
		const evidence = best.why;
		summary =
			target === 'sandbox' || candidates.length === 1
				? evidence
				: `The service does not say which cause applies. Most likely: ${evidence}`;
	} else if (candidates.length === 1 && candidates[0]) {
		summary = `This is ${anchor}. ${candidates[0].why}`;
	} else {
		summary = `This is ${anchor}. The explorer cannot tell which of its causes applies; check the candidates below in order.`;
	}
	return {
		outcome: 'error',
		title: head,
		summary,
		rowId: row.id as ErrorRowId,
		...(best ? { causeId: best.causeId, fix: best.fix } : { fix: 'Check each candidate cause below; each says how to fix it.' }),
		candidates,
		...extra
	};
}

/* ------------------------------------------------------------------ token exchange */

/** The token request parameter an error_description names, if any (`code` not inside `authorization_code`). */
function namedParameter(description: string): TokenParameter | undefined {
	return TOKEN_PARAMETERS.find((name) => new RegExp(`(?<![\\w])${name}(?![\\w])`).test(description));
}

/** Words in an error_description that point at a cause, for services that say more than the table. */
const DESCRIPTION_HINTS: { [R in TokenErrorId]?: [RegExp, CauseIdOf<R>][] } = {
	'token-invalid-grant': [
		[/already (been )?used|reused|consumed|redeemed/i, 'used'],
		[/expired/i, 'expired'],
		[/redirect/i, 'redirect-mismatch'],
		[/revoked/i, 'revoked'],
		[/another client|different client|client id/i, 'other-client']
	],
	// "missing" first: a description naming the missing parameter ("client_secret is missing") also says "secret".
	'token-invalid-client': [
		[/missing|absent|not included|no client authentication/i, 'missing-credentials'],
		[/secret/i, 'wrong-secret'],
		[/unknown|not found|no such/i, 'unknown-client']
	]
};

/**
 * Rows whose description names one cause: the first hint that matches decides, as a description that names what is
 * missing ("`client_id` is missing; send client_id and client_secret") also mentions the secret.
 */
const ONE_CAUSE_DESCRIPTIONS: readonly TokenErrorId[] = ['token-invalid-client'];

function descriptionEvidence<R extends TokenErrorId>(rowId: R, description: string): EvidenceOf<R>[] {
	const hints: [RegExp, CauseIdOf<R>][] = DESCRIPTION_HINTS[rowId] ?? [];
	const matching = hints.filter(([pattern]) => pattern.test(description));
	return (ONE_CAUSE_DESCRIPTIONS.includes(rowId) ? matching.slice(0, 1) : matching).map(([, causeId]) => ({
		causeId,
		likelihood: 'likely' as const,
		why: `The error_description says "${description}".`
	}));
}

function differs(a: string | undefined, b: string | undefined): boolean {
	return a !== undefined && b !== undefined && a !== b;
}

function invalidGrantEvidence(known: WalkKnowledge): EvidenceOf<'token-invalid-grant'>[] {
	const evidence: EvidenceOf<'token-invalid-grant'>[] = [];
	if (known.codeExchangedBefore)
		evidence.push({ causeId: 'used', likelihood: 'likely', why: 'This code was already exchanged earlier in this walk.' });
	if (known.codeReceivedAt) {
		const age = (Date.parse(known.now) - Date.parse(known.codeReceivedAt)) / 1000;
		if (age > LIMITS.codeTtlSeconds)
			evidence.push({
				causeId: 'expired',
				likelihood: 'likely',
				why: `The code arrived ${formatDuration(age)} ago; a code is valid for ${formatDuration(LIMITS.codeTtlSeconds)}.`
			});
	}
	if (differs(known.sentRedirectUri, known.linkRedirectUri))
		evidence.push({
			causeId: 'redirect-mismatch',
			likelihood: 'likely',
			why: 'The redirect_uri sent differs from the one in the authorisation link (see the diff).'
		});
	if (differs(known.sentClientId, known.codeClientId))
		evidence.push({
			causeId: 'other-client',
			likelihood: 'likely',
			why: `The code was issued to client "${known.codeClientId}", but it was exchanged as client "${known.sentClientId}".`
		});
	if (differs(known.sentCode, known.issuedCode))
		evidence.push({ causeId: 'unknown-code', likelihood: 'likely', why: 'The code sent is not the one the redirect delivered.' });
	return evidence;
}

function invalidClientEvidence(known: WalkKnowledge): EvidenceOf<'token-invalid-client'>[] {
	if (known.sentClientId === '')
		return [{ causeId: 'missing-credentials', likelihood: 'likely', why: 'The request carried an empty client_id.' }];
	if (differs(known.sentClientId, known.linkClientId))
		return [
			{
				causeId: 'unknown-client',
				likelihood: 'likely',
				why: `The client_id sent ("${known.sentClientId}") is not the link's ("${known.linkClientId}").`
			}
		];
	return [];
}

/** Each 7.2 row's evidence from the walk and the error_description: every row has an entry, each names its own causes. */
const TOKEN_EVIDENCE: { [R in TokenErrorId]: (known: WalkKnowledge, description: string) => EvidenceOf<R>[] } = {
	'token-invalid-grant': (known, description) => [
		...invalidGrantEvidence(known),
		...descriptionEvidence('token-invalid-grant', description)
	],
	'token-invalid-client': (known, description) => [
		...invalidClientEvidence(known),
		...descriptionEvidence('token-invalid-client', description)
	],
	'token-invalid-request': (_known, description) => {
		const name = namedParameter(description);
		if (!name) return [];
		return [
			name === 'code'
				? {
						causeId: 'missing-code',
						likelihood: 'likely',
						why: 'The error_description names `code`. If the user cancelled, there was no code to send: that is a cancel, not an error.'
					}
				: { causeId: 'missing-parameter', likelihood: 'likely', why: `The error_description names \`${name}\`.` }
		];
	},
	'token-unsupported-grant-type': (known) =>
		known.sentGrantType === undefined
			? []
			: [{ causeId: 'wrong-grant-type', likelihood: 'likely', why: `The request sent grant_type "${known.sentGrantType}".` }]
};

function tokenSuccess(response: RecordedResponse, body: unknown): Annotation {
	const parsed = TokenResponse.safeParse(body);
	const problems = parsed.success ? [] : zodProblems(parsed.error);
	const fields = tokenFields(body);
	const expiresIn = (body as Record<string, unknown> | null)?.['expires_in'];
	if (typeof expiresIn === 'number' && expiresIn !== LIMITS.accessTokenExpiresIn)
		problems.push(
			`Note: expires_in is ${expiresIn}; the interface's responses show ${LIMITS.accessTokenExpiresIn} (5.7). Use the value you receive.`
		);
	if (!/no-store/i.test(headerValue(response.headers, 'cache-control') ?? ''))
		problems.push(
			'Note: no `Cache-Control: no-store`. The interface does not ask for it, but OAuth 2 (RFC 6749 5.1) does for responses carrying tokens.'
		);
	return {
		outcome: 'success',
		title: parsed.success ? '200: access token issued' : '200: a token response that does not match 2.3',
		summary: parsed.success
			? 'The code was exchanged for an access token. The code is now used up; keep the token on your server and call me.json with it.'
			: 'The exchange answered 200, but the body does not match the token response of 2.3; see the problems.',
		candidates: [],
		fields,
		...(problems.length ? { problems } : {})
	};
}

/** A Unix time in seconds as ISO 8601, or undefined when it is out of any date's range. */
function isoFromUnix(seconds: number): string | undefined {
	const date = new Date(seconds * 1000);
	return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function tokenFields(body: unknown): AnnotatedField[] {
	if (body === null || typeof body !== 'object') return [];
	const record = body as Record<string, unknown>;
	const explain: Record<string, (value: unknown) => string> = {
		access_token: () =>
			'Opaque token bound to the one user who authorised. Send it to me.json as `Authorization: Bearer …` or the `access_token` parameter. Keep it on your server.',
		token_type: () => 'Always `Bearer`: send the access token with the Bearer prefix.',
		expires_in: (v) =>
			typeof v === 'number'
				? `Lifetime of the access token: ${v} seconds, about ${Math.round(v / 86400)} days. After that, me.json answers 401.`
				: 'Lifetime of the access token in seconds.',
		refresh_token: () =>
			'For getting a new access token at the same /oauth/token address. The interface does not show the refresh request.',
		created_at: (v) => {
			const created = typeof v === 'number' ? isoFromUnix(v) : undefined;
			const lifetime = record['expires_in'];
			const expires = typeof v === 'number' && typeof lifetime === 'number' ? isoFromUnix(v + lifetime) : undefined;
			if (!created) return 'When the token was created, as a Unix timestamp (seconds).';
			return `When the token was created: ${created} (Unix time, seconds).${expires ? ` With expires_in, the token expires at ${expires}.` : ''}`;
		}
	};
	return Object.entries(record).map(([name, value]) => ({
		name,
		value: typeof value === 'string' ? value : JSON.stringify(value),
		explanation: explain[name]?.(value) ?? 'Not a field of the token response (2.3).'
	}));
}

export function annotateTokenExchange(exchange: RecordedExchange, known: WalkKnowledge): Annotation {
	if (exchange.failure) return transportAnnotation({ failure: exchange.failure, response: exchange.response });
	const response = exchange.response;
	if (!response) return NO_RESPONSE;
	const json = parseJson(response.body);
	if (response.status === 200 && json.ok) return tokenSuccess(response, json.value);
	const body = json.ok ? TokenErrorBody.safeParse(json.value) : undefined;
	const row = body?.success ? tokenErrorRowFor(body.data.error) : undefined;
	// A known `error` under a status the table never uses (e.g. 405) is not a row of the table.
	const tableStatus = TOKEN_ERRORS.some((r) => r.status === response.status);
	if (!body?.success || !row || !tableStatus) return undescribedResponse(response, 'token', known.target);
	const { error, error_description: description } = body.data;
	const candidates = rankCandidates(row, TOKEN_EVIDENCE[row.id](known, description), known.target);
	const best = candidates[0]?.likelihood === 'likely' ? candidates[0] : undefined;
	const problems =
		row.status === response.status ? [] : [`The table gives status ${row.status} for ${error}; this answer was ${response.status}.`];
	const mismatch =
		best?.causeId === 'redirect-mismatch' && known.linkRedirectUri !== undefined && known.sentRedirectUri !== undefined
			? { redirectUriDiff: redirectUriDiff(known.linkRedirectUri, known.sentRedirectUri) }
			: {};
	return rowAnnotation(row, candidates, known.target, `${response.status} ${error}`, {
		fields: [
			{ name: 'error', value: error, explanation: `Row ${row.id} of 7.2: ${row.condition}` },
			{
				name: 'error_description',
				value: description,
				explanation: 'Free text from the service. For invalid_request it names the missing parameter.'
			}
		],
		...(problems.length ? { problems } : {}),
		...mismatch
	});
}

/* ------------------------------------------------------------------ me.json */

/** Each 7.3 row's evidence from what the request sent: every row has an entry, each names its own causes. */
const ME_EVIDENCE: { [R in MeErrorId]: (known: MeKnowledge) => EvidenceOf<R>[] } = {
	'me-bad-request': () => [],
	'me-unauthorized': (known) => {
		if (!known.sentToken) return [{ causeId: 'missing-token', likelihood: 'likely', why: 'This request sent no token.' }];
		if (known.sentGrantCode)
			return [{ causeId: 'grant-code', likelihood: 'likely', why: 'This request sent the grant code, not the access token.' }];
		return [
			{
				causeId: 'invalid-token',
				likelihood: 'likely',
				why: 'An access token was sent, so the service did not accept it: it is malformed, unknown, revoked or expired.'
			}
		];
	},
	'me-forbidden': (known) =>
		known.sentUserAgent
			? [
					{
						causeId: 'missing-user-agent',
						likelihood: 'possible',
						why: 'A User-Agent was sent, so the one cause the interface gives does not fit. The operator may block your User-Agent or address; ask them.'
					}
				]
			: [{ causeId: 'missing-user-agent', likelihood: 'likely', why: 'This request sent no User-Agent header.' }],
	'me-not-found': () => []
};

function verificationKeyOf(item: unknown): 'supergroup' | 'group' | undefined {
	if (item === null || typeof item !== 'object') return undefined;
	if ('supergroup' in item) return 'supergroup';
	if ('group' in item) return 'group';
	return undefined;
}

function meSuccess(body: unknown, known: MeKnowledge, today: string): Annotation {
	const parsed = MeResponse.safeParse(body);
	const problems = parsed.success ? [] : zodProblems(parsed.error);
	if (known.sentGrantCode)
		problems.push('The service accepted a grant code in place of an access token; 5.4 says it must not.');
	if (!known.sentToken) problems.push('The service answered without a token; 4.3 requires one.');
	const record = (body ?? {}) as Record<string, unknown>;
	const rawItems = Array.isArray(record['verifications']) ? (record['verifications'] as unknown[]) : [];
	const keys = [...new Set(rawItems.map(verificationKeyOf).filter((k) => k !== undefined))];
	if (keys.length > 1)
		problems.push('The verifications mix the keys `supergroup` and `group`; a reader must accept either, per element.');
	const verifications = parsed.success ? parsed.data.verifications.map((v: Verification) => describeVerification(v, today)) : [];
	if (verifications.some((v) => !v.active))
		problems.push('me.json lists a verification that has already expired; the interface says only active verifications are listed.');
	const sbid = record['sbid_number'];
	const fields: AnnotatedField[] = [
		{
			name: 'sbid_number',
			value: typeof sbid === 'string' ? sbid : JSON.stringify(sbid ?? null),
			explanation: `The user's account identifier (${LIMITS.sbidLength} alphanumeric characters). Having one does not mean the user is verified in any group.`
		},
		...verifications.map((v, i) => ({
			name: `verifications[${i}]`,
			value: `${v.name} (${v.supergroup}), expires_on ${v.expiresOn}`,
			explanation: v.active
				? `Active until ${v.lastValidDay} (the day before expires_on): ${v.daysLeft} day${v.daysLeft === 1 ? '' : 's'} left, today included.`
				: `Expired: its last valid day was ${v.lastValidDay}.`
		}))
	];
	const key = keys[0];
	const keyNote =
		key === 'group'
			? ' The verifications use the key `group`, as the interface\'s sample does (its field reference says `supergroup`): read either.'
			: '';
	const who =
		verifications.length === 0
			? 'The user has no active verification: an empty list is a normal answer, not an error.'
			: `The user is verified in: ${verifications.map((v) => v.name).join(', ')}.`;
	return {
		outcome: 'success',
		title: parsed.success ? '200: the user\'s verification information' : '200: a body that does not match 2.4',
		summary: `${who}${keyNote}`,
		candidates: [],
		fields,
		verifications,
		...(key ? { verificationKey: key } : {}),
		...(parsed.success ? { account: { sbidNumber: parsed.data.sbid_number, verificationKeys: keys } } : {}),
		...(problems.length ? { problems } : {})
	};
}

export function annotateMeExchange(exchange: RecordedExchange, known: MeKnowledge): Annotation {
	if (exchange.failure) return transportAnnotation({ failure: exchange.failure, response: exchange.response });
	const response = exchange.response;
	if (!response) return NO_RESPONSE;
	const json = parseJson(response.body);
	if (response.status === 200 && json.ok) return meSuccess(json.value, known, known.today ?? exchange.startedAt.slice(0, 10));
	const row = meErrorRowFor(response.status);
	if (!row) return undescribedResponse(response, 'me', known.target);
	const message = json.ok ? MeErrorBody.safeParse(json.value) : undefined;
	const candidates = rankCandidates(row, ME_EVIDENCE[row.id](known), known.target);
	return rowAnnotation(row, candidates, known.target, `${response.status}: ${row.condition}`, {
		fields: message?.success
			? [{ name: 'message', value: message.data.message, explanation: 'Free text from the service (2.6).' }]
			: []
	});
}

/* ------------------------------------------------------------------ the callback */

/** Step 2's outcome as an annotation, so the UI shows every step the same way. A cancel is not an error. */
export function annotateCallback(result: CallbackResult): Annotation {
	if (result.kind === 'unexpected')
		return {
			outcome: 'error',
			title: 'An unexpected redirect',
			summary: result.reason,
			candidates: [],
			fix: 'Check the redirect URI in the link, and what the target sends back.'
		};
	const preserved = result.preserved.length
		? ` Extra parameters preserved: ${result.preserved.map((p) => p.name).join(', ')}.`
		: '';
	const problems = result.missingExtras.length
		? {
				problems: [
					`Extra parameters of the redirect URI did not come back: ${result.missingExtras.map((p) => p.name).join(', ')}. 4.1.1 says they are preserved.`
				]
			}
		: {};
	if (result.kind === 'cancel')
		return {
			outcome: 'cancel',
			title: 'Cancelled by the user',
			summary: `${CANCEL_MEANING} The redirect came back without \`code\`.${preserved}`,
			candidates: [],
			fix: 'Nothing to fix. Your app should show its sign-in option again, and not try to exchange a code: there is none.',
			...problems
		};
	return {
		outcome: 'success',
		title: 'Authorised: a grant code arrived',
		summary: `The user authorised the client and the redirect carries \`code\`. Exchange it from your server within ${formatDuration(LIMITS.codeTtlSeconds)}; it works once.${preserved}`,
		candidates: [],
		...problems
	};
}
