/**
 * The token exchange's annotation (step 3): a success validated against 2.3 with each field explained, or an error
 * matched to its row of 7.2 with causes ranked from what the walk knows and what the error_description says.
 */
import {
	LIMITS,
	TOKEN_ERRORS,
	TOKEN_PARAMETERS,
	tokenErrorRowFor,
	type CauseIdOf,
	type TokenErrorId,
	type TokenParameter
} from '$lib/protocol';
import { TokenErrorBody, TokenResponse } from '$lib/protocol/schemas';
import type { RecordedResponse } from '../../http/exchange';
import { headerValue } from '../../http/headers';
import { MASK } from '../../http/exchange';
import { sameSecret, valueTail } from '../../http/secret-tail';
import { readJson, schemaProblems } from '$lib/http/json';
import { expiredAgo, formatDuration, redirectUriDiff, type AnnotatedField, type Annotation, type Target } from './diagnose-annotation';
import { rankCandidates, rowAnnotation, type EvidenceOf } from './diagnose-rank';
import { UNSENT, transportAnnotation, undescribedResponse } from './diagnose-unmatched';
import type { RecordedExchange } from '../exchange';
import { NAMES_HEADER_FORMAT } from './token-header-credentials';

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

/** The token request parameter an error_description names, if any (`code` not inside `authorization_code`). */
function namedParameter(description: string): TokenParameter | undefined {
	return TOKEN_PARAMETERS.find((name) => new RegExp(`(?<![\\w])${name}(?![\\w])`).test(description));
}

/** Words in an error_description that point at a cause, for services that say more than the table. */
const DESCRIPTION_HINTS: { [R in TokenErrorId]?: [RegExp, CauseIdOf<R>][] } = {
	'token-invalid-grant': [
		[/already (been )?used|reused|consumed|redeemed/i, 'used'],
		[/expired/i, 'expired'],
		// The parameter, not any "redirect": the sandbox's unknown code tells the app to pass the one "from the redirect".
		[/redirect[ _-]?ur[il]/i, 'redirect-mismatch'],
		[/not one this service issued|unknown code|no such code/i, 'unknown-code'],
		[/revoked/i, 'revoked'],
		[/another client|different client|client id/i, 'other-client']
	],
	// "missing" first: a description naming the missing parameter ("client_secret is missing") also says "secret",
	// as does one naming a header it could not read ("must be base64(client_id:client_secret)").
	'token-invalid-client': [
		[/missing|absent|not included|no client authentication/i, 'missing-credentials'],
		[NAMES_HEADER_FORMAT, 'missing-credentials'],
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

/**
 * Two codes as recorded that surely differ: each shows itself (whole, or masked but for its tail, as the sandbox's
 * log keeps one) and they do not match. A HAR's arrival holds the code whole, the log's exchange its tail only.
 */
function codesDiffer(sent: string | undefined, issued: string | undefined): boolean {
	const shown = (code: string) => !code.includes(MASK) || valueTail(code) !== null;
	return sent !== undefined && issued !== undefined && shown(sent) && shown(issued) && !sameSecret(sent, issued);
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
				why: `The code arrived ${formatDuration(age)} ago: ${expiredAgo(age, LIMITS.codeTtlSeconds)}.`
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
	if (codesDiffer(known.sentCode, known.issuedCode))
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
	const problems = parsed.success ? [] : schemaProblems(parsed.error);
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
	if (!response) return UNSENT;
	const json = readJson(response.body);
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
