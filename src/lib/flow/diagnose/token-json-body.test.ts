import { describe, expect, it } from 'vitest';
import { diagnoseFlow } from '../diagnose-flow';
import { exchange, flow } from '../test-helpers';
import { refusedJsonBody } from './token-json-body';
import { flowVerdict } from '../verdict';

const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;
const JSON_BODY = JSON.stringify({ grant_type: 'authorization_code', code: 'abc', redirect_uri: REDIRECT, client_id: 'shop', client_secret: 'x' });
const REFUSAL = '{"error":"invalid_request","error_description":"JSON bodies are not accepted."}';

const tokenExchange = (body: string, type: string, status: number, answer = REFUSAL) =>
	exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { 'Content-Type': type }, body }, { status, body: answer });

describe('refusedJsonBody', () => {
	it('holds for a JSON body the endpoint refused, not for one it accepted nor for a refused form body', () => {
		expect(refusedJsonBody(tokenExchange(JSON_BODY, 'application/json', 400))).toBe(true);
		expect(refusedJsonBody(tokenExchange(JSON_BODY, 'application/json', 200, '{"access_token":"t"}'))).toBe(false);
		expect(refusedJsonBody(tokenExchange('grant_type=authorization_code&code=abc', 'application/x-www-form-urlencoded', 400))).toBe(false);
	});
});

describe('a token exchange sent as JSON', () => {
	it("is the verdict's cause, with the format the endpoint reads as the fix, not a missing redirect_uri", () => {
		const diagnosis = diagnoseFlow(flow({ link: LINK, exchanges: [tokenExchange(JSON_BODY, 'application/json', 400)] }));
		expect(diagnosis.flags.map((f) => f.id)).toEqual(['token-json-body']);
		const verdict = flowVerdict(flow({ link: LINK, exchanges: [tokenExchange(JSON_BODY, 'application/json', 400)] }), diagnosis);
		expect(verdict.cause).toMatch(/sent a JSON body \(Content-Type: application\/json\).*application\/x-www-form-urlencoded/);
		expect(verdict.fix).toMatch(/query string .* form body .* not as JSON/);
		expect(verdict.cause).toContain('holding `grant_type`, `code`, `redirect_uri`, `client_id`, `client_secret`');
		expect(verdict.cause).toContain('The query string carried none of them.');
	});

	it('says what the query string carried besides: some parameters, or all of them (then the fix is to send no body)', () => {
		const query = 'grant_type=authorization_code&code=abc&redirect_uri=' + encodeURIComponent(REDIRECT) + '&client_id=shop';
		const some = exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?${query}`, headers: { 'Content-Type': 'application/json' }, body: '{"client_secret":"x"}' }, { status: 400, body: REFUSAL });
		const partly = flowVerdict(flow({ link: LINK, exchanges: [some] }), diagnoseFlow(flow({ link: LINK, exchanges: [some] })));
		expect(partly.cause).toContain('holding `client_secret`');
		expect(partly.cause).toContain('The query string carried `grant_type`, `code`, `redirect_uri`, `client_id`: the JSON body, not a missing parameter, is what to change.');
		const all = exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?${query}&client_secret=x`, headers: { 'Content-Type': 'application/json' }, body: '{}' }, { status: 400, body: REFUSAL });
		const whole = flowVerdict(flow({ link: LINK, exchanges: [all] }), diagnoseFlow(flow({ link: LINK, exchanges: [all] })));
		expect(whole.cause).toContain('The query string carried all of them');
		expect(whole.fix).toBe('Send the request without a body: its query string already carries every parameter (4.2).');
	});
});
