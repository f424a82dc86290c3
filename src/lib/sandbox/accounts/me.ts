/**
 * `GET {accounts_url}/api/v3/me.json` (4.3, 7.3). Checked in the order of sandbox choice 'me-check-order';
 * error bodies per 'me-error-bodies' (400 and 403 empty, 401 and 404 `{message}`). The access token finds the
 * request's workspace: its expiry and the verifications' are judged on that workspace's clock. The request is
 * attributed to that workspace first (log/attribute.ts), so a refused one (no User-Agent) is logged there too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { addDays } from '../../dates';
import { OUTCOME_RULE_HEADER, SUPERGROUP_VALUES, type MeResponse, type OutcomeOfStage } from '../../protocol';
import { requestNames } from '../../http/correlation';
import { attribute, attributePresented, namesAsSent } from '../log';
import type { AccessTokenFound, AccessTokenLookup, SandboxStore, SandboxUser, SandboxWorkspace, VerificationKey } from '../store';
import { activeVerifications } from '../verifications';
import { parseParams, sendEmpty, sendJsonText, type Params, type ParamsResult } from './http';

export type MeOutcome = (
	| { status: 200; body: MeResponse }
	| { status: 400 | 403; body: null }
	| { status: 401 | 404 | 405; body: { message: string } }
) & {
	/** The outcome rule that produced the answer, named in its OUTCOME_RULE_HEADER. */
	rule?: OutcomeOfStage<'me'>;
};

export interface MeInput {
	method: string;
	host: string | undefined;
	userAgent: string | undefined;
	authorization: string | undefined;
	/** The query string, parsed. */
	params: ParamsResult;
}

/** Codes and tokens are 32 bytes, base64url (see `credential-codec.ts`). */
const CREDENTIAL_FORMAT = /^[A-Za-z0-9_-]{43}$/;

const unauthorized = (message: string): MeOutcome => ({ status: 401, body: { message } });

type TokenFound = { ok: true; token: string } | { ok: false; outcome: MeOutcome };

/** Sandbox choice 'me-token-transport': the Authorization header if present, else the `access_token` parameter. */
function findToken(input: MeInput, params: Params): TokenFound {
	if (input.authorization !== undefined) {
		const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(input.authorization);
		if (!match) return { ok: false, outcome: unauthorized('The Authorization header must be `Bearer <access_token>`.') };
		return { ok: true, token: match[1]! };
	}
	const token = params.get('access_token');
	if (token === undefined) {
		return {
			ok: false,
			outcome: unauthorized('No access token: send `Authorization: Bearer <access_token>` or the `access_token` query parameter.')
		};
	}
	return { ok: true, token };
}

/**
 * The last answer built for each user, with its JSON: the store replaces a user object whenever the user changes,
 * so an answer stays right for as long as its user object, verification key and day.
 */
const answers = new WeakMap<SandboxUser, { key: VerificationKey; today: string; body: MeResponse }>();
/** Each answer's JSON, made once. */
const answerTexts = new WeakMap<MeResponse, string>();

function answerFor(user: SandboxUser, key: VerificationKey, today: string) {
	const known = answers.get(user);
	if (known && known.key === key && known.today === today) return known;
	const body: MeResponse = {
		sbid_number: user.sbid_number,
		verifications: activeVerifications(user.verifications, today).map((v) =>
			key === 'group' ? { group: v.supergroup, expires_on: v.expires_on } : { supergroup: v.supergroup, expires_on: v.expires_on }
		)
	};
	const answer = { key, today, body };
	answers.set(user, answer);
	answerTexts.set(body, JSON.stringify(body));
	return answer;
}

/**
 * The token me.json reads from a request whose query parsed (`findToken`), with the store's finding for it, made
 * once by the attribution; or why it reads none.
 */
type Presented = { ok: true; token: string; found: AccessTokenFound } | { ok: false; outcome: MeOutcome };

function meDecision(store: SandboxStore, input: MeInput, presented: Presented | null): MeOutcome {
	if (!input.host) return { status: 400, body: null };
	if (!input.userAgent) return { status: 403, body: null };
	// Sandbox choice 'wrong-method'.
	if (input.method !== 'GET' && input.method !== 'HEAD') {
		return { status: 405, body: { message: `me.json only answers GET, not ${input.method}.` } };
	}
	// A malformed query string (bad percent-encoding, repeated parameters) is a malformed request.
	if (!input.params.ok || presented === null) return { status: 400, body: null };
	if (!presented.ok) return presented.outcome;
	if (!CREDENTIAL_FORMAT.test(presented.token)) {
		return unauthorized('The access token is malformed: send the `access_token` from the token response exactly as received.');
	}
	const { lookup, workspace } = presented.found;
	return tokenAnswer(lookup, workspace ?? store, `${input.method} /api/v3/me.json`);
}

const INVALID_TOKEN = 'The access token is not valid: unknown or revoked.';
const deletionRequested = (): MeOutcome => ({ status: 404, body: { message: 'The user of this token has asked for their account to be deleted.' } });

/**
 * What a me.json outcome rule answers for a valid token (sandbox choice 'outcome-rules'): the 7.3 row's answer as
 * the sandbox gives it (choice 'me-error-bodies'), or a 200 changed as the rule says.
 */
function ruleAnswer(rule: OutcomeOfStage<'me'>, user: SandboxUser, key: VerificationKey, today: string): MeOutcome {
	switch (rule) {
		case 'me-401':
			return unauthorized(INVALID_TOKEN);
		case 'me-403':
			return { status: 403, body: null };
		case 'me-404':
			return deletionRequested();
		case 'me-empty-verifications':
			return { status: 200, body: { sbid_number: user.sbid_number, verifications: [] } };
		case 'me-expired-verification': {
			// Each of the user's supergroups (a student's for a user with none), ended yesterday on the workspace clock.
			const supergroups = user.verifications.length > 0 ? user.verifications.map((v) => v.supergroup) : [SUPERGROUP_VALUES[0]];
			const expiresOn = addDays(today, -1);
			return {
				status: 200,
				body: {
					sbid_number: user.sbid_number,
					verifications: supergroups.map((supergroup) => (key === 'group' ? { group: supergroup, expires_on: expiresOn } : { supergroup, expires_on: expiresOn }))
				}
			};
		}
		case 'me-group-key':
			return { status: 200, body: answerFor(user, 'group', today).body };
	}
}

/**
 * The answer for a looked-up token; `workspace` is the token's, whose clock says which verifications are active and
 * whose client's outcome rule, if any, answers instead (`request` names the request in the rule's history).
 */
function tokenAnswer(lookup: AccessTokenLookup, workspace: Pick<SandboxWorkspace, 'today' | 'takeOutcome'>, request: string): MeOutcome {
	switch (lookup.kind) {
		case 'grant-code':
			return unauthorized('This is an authorisation grant code, not an access token: exchange it at /oauth/token first.');
		case 'refresh-token':
			return unauthorized('This is a refresh token, not an access token: send the `access_token` from the token response.');
		case 'expired':
			return unauthorized(`The access token expired at ${lookup.expiredAt.toISOString()}; send the user through the flow again.`);
		case 'unknown':
			return unauthorized(INVALID_TOKEN);
		case 'valid': {
			const rule = workspace.takeOutcome(lookup.client.client_id, 'me', request);
			if (rule !== null) return { ...ruleAnswer(rule, lookup.user, lookup.client.verification_key, workspace.today()), rule };
			if (lookup.user.deletion_requested) return deletionRequested();
			return { status: 200, body: answerFor(lookup.user, lookup.client.verification_key, workspace.today()).body };
		}
	}
}

/**
 * 0. Attribution, before any check: by the token me.json reads, looked up once here for the checks to reuse; when
 * it reads none (a malformed Authorization header or query, which the checks refuse before any lookup), by what
 * the request names otherwise, or for a query that does not parse, by what it carried as sent.
 */
function attributeMe(store: SandboxStore, req: IncomingMessage, input: MeInput): Presented | null {
	const { params } = input;
	const read = params.ok ? findToken(input, params.params) : null;
	if (read?.ok) return { ok: true, token: read.token, found: attributePresented(store, req, read.token) };
	attribute(store, req, params.ok ? requestNames('me', (name) => params.params.get(name), input.authorization ?? '') : namesAsSent(req, null));
	return read;
}

export function handleMe(store: SandboxStore, req: IncomingMessage, res: ServerResponse, query: string): void {
	const input: MeInput = {
		method: req.method ?? 'GET',
		host: req.headers.host,
		userAgent: req.headers['user-agent'],
		authorization: req.headers.authorization,
		params: parseParams(query, 'query string')
	};
	const outcome = meDecision(store, input, attributeMe(store, req, input));
	// Personal data and credential errors: never cached.
	const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
	if (outcome.status === 405) headers.Allow = 'GET, HEAD';
	if (outcome.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="SSO sandbox accounts"';
	if (outcome.rule) headers[OUTCOME_RULE_HEADER] = outcome.rule;
	if (outcome.body === null) sendEmpty(res, outcome.status, headers);
	else sendJsonText(res, outcome.status, (outcome.status === 200 && answerTexts.get(outcome.body)) || JSON.stringify(outcome.body), headers);
}
