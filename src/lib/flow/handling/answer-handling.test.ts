import { describe, expect, it } from 'vitest';
import { OUTCOME_RULE_HEADER } from '$lib/protocol';
import { answerName, handlingOf } from './answer-handling';
import { exchange, flow } from '../test-helpers';
import { flowVerdict } from '../verdict';
import { diagnoseFlow } from '../diagnose-flow';

const ME = 'https://accounts.example.com/api/v3/me.json';
const me = (status: number, body = '', rule?: string) =>
	exchange('me', { url: ME, headers: { Authorization: 'Bearer t', 'User-Agent': 'shop/1' } }, { status, body, headers: rule ? { [OUTCOME_RULE_HEADER]: rule } : {} });
const TODAY = '2026-01-01';

describe('handlingOf', () => {
	it("names what was special in a me.json 200: the `group` key, an empty list; nothing for an ordinary answer", () => {
		expect(handlingOf(me(200, '{"sbid_number":"STU0001","verifications":[{"group":"student","expires_on":"2027-01-01"}]}'), TODAY)).toMatch(/either key.*`supergroup`, else its `group`/);
		expect(handlingOf(me(200, '{"sbid_number":"STU0001","verifications":[]}'), TODAY)).toMatch(/empty `verifications`/);
		expect(handlingOf(me(200, '{"sbid_number":"STU0001","verifications":[{"supergroup":"student","expires_on":"2027-01-01"}]}'), TODAY)).toBeNull();
	});

	it("says how to handle me.json's refusals by their status, and a token endpoint's by its error", () => {
		expect(handlingOf(me(401), TODAY)).toMatch(/401.*sign-in again for a new token/);
		expect(handlingOf(me(403), TODAY)).toMatch(/Handle me\.json's 403.*User-Agent/);
		expect(handlingOf(me(404), TODAY)).toMatch(/404.*account is closed/);
		const refused = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 401, body: '{"error":"invalid_client","error_description":"x"}' });
		expect(handlingOf(refused, TODAY)).toMatch(/Handle the token endpoint's 401 `invalid_client` with a page of your own/);
	});

	it("names an answer by its status and its JSON error, as the crash after a rule's refusal says it", () => {
		const refused = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 401, body: '{"error":"invalid_client","error_description":"x"}' });
		expect(answerName(refused)).toBe('401 `invalid_client`');
		expect(answerName(me(403))).toBe('403');
	});
});

describe("a rule's answer in the verdict", () => {
	it('keeps the rule\'s fix and adds how that answer is handled', () => {
		const record = flow({ sandboxClock: '2026-01-01T10:00:00.000Z', exchanges: [me(200, '{"sbid_number":"STU0001","verifications":[{"group":"student","expires_on":"2027-01-01"}]}', 'me-group-key')] });
		const verdict = flowVerdict(record, diagnoseFlow(record));
		expect(verdict.fix).toMatch(/^Nothing to fix in this request\..*For this answer: Accept either key/);
	});
});
