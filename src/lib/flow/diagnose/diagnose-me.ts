/**
 * The me.json call's annotation (step 4): a success validated against 2.4 with each verification described, or an
 * error matched to its row of 7.3 with causes ranked from what the request sent.
 */
import { LIMITS, meErrorRowFor, type MeErrorId } from '$lib/protocol';
import { MeErrorBody, MeResponse, type Verification } from '$lib/protocol/schemas';
import { readJson, schemaProblems } from '$lib/http/json';
import { type AnnotatedField, type Annotation, type Target } from './diagnose-annotation';
import { rankCandidates, rowAnnotation, type EvidenceOf } from './diagnose-rank';
import { UNSENT, transportAnnotation, undescribedResponse } from './diagnose-unmatched';
import type { RecordedExchange } from '../exchange';
import { describeVerification } from './verification';

export interface MeKnowledge {
	target: Target;
	sentGrantCode?: boolean;
	sentUserAgent: boolean;
	/** 'unknown': the record cannot show it (a sanitised HAR export stripped `Authorization`). */
	sentToken: boolean | 'unknown';
	/** Today's date (YYYY-MM-DD) on the target's clock; defaults to the exchange's start date (UTC). */
	today?: string;
}

/** Each 7.3 row's evidence from what the request sent: every row has an entry, each names its own causes. */
const ME_EVIDENCE: { [R in MeErrorId]: (known: MeKnowledge) => EvidenceOf<R>[] } = {
	'me-bad-request': () => [],
	'me-unauthorized': (known) => {
		if (known.sentToken === 'unknown')
			return [
				{
					causeId: 'missing-token',
					likelihood: 'possible',
					why: 'The HAR was exported sanitised: its export removed `Authorization`, so whether this request sent a token is unknown.'
				}
			];
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
	const problems = parsed.success ? [] : schemaProblems(parsed.error);
	if (known.sentGrantCode)
		problems.push('The service accepted a grant code in place of an access token; 5.4 says it must not.');
	if (known.sentToken === false) problems.push('The service answered without a token; 4.3 requires one.');
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
	if (!response) return UNSENT;
	const json = readJson(response.body);
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
