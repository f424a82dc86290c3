import { describe, expect, it } from 'vitest';
import { MASK, type RecordedRequest, type RecordedResponse } from '$lib/http/exchange';
import { formatRequest, formatResponse } from './format';

const tokenRequest: RecordedRequest = {
	method: 'POST',
	url: `http://127.0.0.1:4002/oauth/token?grant_type=authorization_code&code=abc&redirect_uri=http%3A%2F%2Flocalhost%3A4000%2Fcallback%3Fx%3D1&client_id=demo&client_secret=${MASK}`,
	headers: [
		{ name: 'Host', value: '127.0.0.1:4002' },
		{ name: 'User-Agent', value: 'sso-flow-explorer' }
	],
	body: null
};

function response(overrides: Partial<RecordedResponse>): RecordedResponse {
	return { status: 200, statusText: 'OK', headers: [], body: '', truncated: false, ...overrides };
}

describe('formatRequest', () => {
	it('writes the request line with path and query exactly as sent, then the headers', () => {
		expect(formatRequest(tokenRequest)).toBe(
			[
				`POST /oauth/token?grant_type=authorization_code&code=abc&redirect_uri=http%3A%2F%2Flocalhost%3A4000%2Fcallback%3Fx%3D1&client_id=demo&client_secret=${MASK} HTTP/1.1`,
				'Host: 127.0.0.1:4002',
				'User-Agent: sso-flow-explorer',
				''
			].join('\n')
		);
	});

	it('separates a body from the headers by a blank line', () => {
		const text = formatRequest({
			...tokenRequest,
			url: 'http://127.0.0.1:4002/oauth/token',
			headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
			body: 'grant_type=authorization_code&code=abc'
		});
		expect(text).toBe(
			'POST /oauth/token HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=authorization_code&code=abc'
		);
	});

	it('shows a mask the log stored percent-encoded as the mask, in the query, the body and a Location', () => {
		const encoded = encodeURIComponent(`${MASK}x4Tw`);
		const text = formatRequest({ ...tokenRequest, url: `http://h.example/cb?code=${encoded}&next=%2Fhome`, headers: [], body: `client_secret=${encodeURIComponent(MASK)}` });
		expect(text).toBe(`POST /cb?code=${MASK}x4Tw&next=%2Fhome HTTP/1.1\n\nclient_secret=${MASK}`);
		const redirect = formatResponse(response({ status: 302, statusText: 'Found', headers: [{ name: 'Location', value: `http://app/cb?code=${encoded}` }] }));
		expect(redirect).toContain(`Location: http://app/cb?code=${MASK}x4Tw`);
	});

	it('uses / as the target of a URL without a path and drops the fragment', () => {
		expect(formatRequest({ ...tokenRequest, url: 'http://h.example?a=1#frag', headers: [] })).toBe('POST /?a=1 HTTP/1.1\n');
	});
});

describe('formatResponse', () => {
	it('writes the status line and headers, and pretty-prints a JSON body', () => {
		const text = formatResponse(
			response({
				status: 400,
				statusText: 'Bad Request',
				headers: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }],
				body: '{"error":"invalid_grant","error_description":"used"}'
			})
		);
		expect(text).toBe(
			'HTTP/1.1 400 Bad Request\nContent-Type: application/json; charset=utf-8\n\n{\n  "error": "invalid_grant",\n  "error_description": "used"\n}'
		);
	});

	it('leaves a body alone when it is not JSON by content type, does not parse, or was cut', () => {
		const body = '{"a":1}';
		expect(formatResponse(response({ headers: [{ name: 'content-type', value: 'text/plain' }], body }))).toContain(`\n\n${body}`);
		const html = '<html>oops</html>';
		expect(formatResponse(response({ headers: [{ name: 'content-type', value: 'application/json' }], body: html }))).toContain(`\n\n${html}`);
		expect(
			formatResponse(response({ headers: [{ name: 'content-type', value: 'application/json' }], body, truncated: true }))
		).toContain(`\n\n${body}`);
	});

	it('omits an empty status text and an empty body', () => {
		expect(formatResponse(response({ status: 403, statusText: '' }))).toBe('HTTP/1.1 403\n');
	});
});
