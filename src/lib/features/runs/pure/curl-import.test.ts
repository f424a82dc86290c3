import { describe, expect, it } from 'vitest';
import { base64DecodeUtf8 } from '$lib/http/encoding';
import { MASK } from '$lib/http/exchange';
import { toCurl } from '$lib/flow/curl';
import { MAX_PASTED_HEADERS, parseCurl, parseRawHttp } from './curl-import';
import { leaks } from '$lib/http/leak-forms';

const OPTIONS = { id: 'r', now: new Date('2026-01-01T00:00:00Z') };
const SECRET = 'Sh0p-Secret-4f8a9b2c1d';

function request(result: ReturnType<typeof parseCurl>) {
	if (!result.ok) throw new Error(result.message);
	return result.run.exchanges[0]!.request;
}
const header = (r: { headers: { name: string; value: string }[] }, name: string) =>
	r.headers.filter((h) => h.name.toLowerCase() === name.toLowerCase()).map((h) => h.value);
const message = (result: ReturnType<typeof parseCurl>) => (result.ok ? '' : result.message);

describe('parseCurl', () => {
	it('reads a multi-line command with -X, -H and --data-raw, as a token exchange, redacted', () => {
		const result = parseCurl(
			`curl -X POST \\\n  'https://accounts.example.com/oauth/token' \\\n  -H "Accept: application/json" \\\n  --data-raw 'grant_type=authorization_code&code=abc&client_secret=${SECRET}'`,
			OPTIONS
		);
		const r = request(result);
		expect(r.method).toBe('POST');
		expect(r.url).toBe('https://accounts.example.com/oauth/token');
		expect(r.body).toBe(`grant_type=authorization_code&code=abc&client_secret=${MASK}`);
		expect(header(r, 'Content-Type')).toEqual(['application/x-www-form-urlencoded']);
		expect(header(r, 'Accept')).toEqual(['application/json']);
		expect(result.ok && result.run).toMatchObject({ source: 'curl', target: { accountsUrl: 'https://accounts.example.com' }, link: null });
		expect(leaks(JSON.stringify(result), SECRET)).toEqual([]);
	});

	it('sends curl\'s default User-Agent, and none when the command removes it', () => {
		expect(header(request(parseCurl('curl https://a.example/api/v3/me.json')), 'User-Agent')).toEqual(['curl']);
		expect(header(request(parseCurl("curl https://a.example/api/v3/me.json -H 'User-Agent:'")), 'User-Agent')).toEqual([]);
		expect(header(request(parseCurl('curl -A my-app/1.0 https://a.example/api/v3/me.json')), 'User-Agent')).toEqual(['my-app/1.0']);
	});

	it('turns -u user:pass into a Basic header, with the secret redacted inside it', () => {
		const r = request(parseCurl(`curl -u 'shop:${SECRET}' -XPOST https://a.example/oauth/token?code=x`));
		expect(r.method).toBe('POST');
		const value = header(r, 'Authorization')[0] ?? '';
		expect(base64DecodeUtf8(value.replace('Basic ', ''))).toBe(`shop:${MASK}`);
	});

	it('joins several -d, encodes --data-urlencode as curl does, and moves data to the query with -G', () => {
		const post = request(parseCurl("curl https://a.example/oauth/token -d a=1 --data-urlencode 'redirect_uri=https://s/cb?x=1 2' --data-urlencode '=(x)'"));
		expect(post.body).toBe('a=1&redirect_uri=https%3A%2F%2Fs%2Fcb%3Fx%3D1%202&%28x%29');
		const get = request(parseCurl('curl -G https://a.example/api/v3/me.json?v=1 --data-urlencode access_token=t'));
		expect(get).toMatchObject({ method: 'GET', url: `https://a.example/api/v3/me.json?v=1&access_token=${MASK}`, body: null });
	});

	it('reads --url, combined flags (-sSL) and a URL without scheme', () => {
		const r = request(parseCurl('curl -sSL --compressed --url accounts.example.com/api/v3/me.json'));
		expect(r.url).toBe('http://accounts.example.com/api/v3/me.json');
	});

	it('reads DevTools\' $\'…\' quoting', () => {
		const r = request(parseCurl("curl 'https://a.example/oauth/token' --data-raw $'code=a\\u0026b'"));
		expect(r.body).toBe('code=a&b');
	});

	it('gives back a command that parses to the same request as toCurl wrote it', () => {
		const original = { method: 'POST', url: 'https://a.example/oauth/token?code=c1', headers: [{ name: 'User-Agent', value: 'x/1' }, { name: 'Accept', value: 'application/json' }], body: null };
		const r = request(parseCurl(toCurl(original)));
		expect(r).toMatchObject({ method: 'POST', url: original.url, body: null });
		expect(header(r, 'User-Agent')).toEqual(['x/1']);
	});

	it('keeps every header of a command with a thousand, removes and replaces them as curl does, and refuses more', () => {
		const many = Array.from({ length: MAX_PASTED_HEADERS - 3 }, (_, i) => `-H 'X-${i}: v${i}'`).join(' ');
		const result = parseCurl(`curl 'https://accounts.example.com/oauth/token' ${many} -H 'X-5:' -H 'User-Agent: shop/1' -H 'X-7: again'`);
		if (!result.ok) throw new Error(result.message);
		const headers = result.run.exchanges[0]!.request.headers;
		// curl's three defaults, one replaced; the command's less the one removed; X-7 a second time.
		expect(headers).toHaveLength(3 + MAX_PASTED_HEADERS - 3 - 1 + 1);
		expect(headers.slice(0, 2)).toEqual([{ name: 'Host', value: 'accounts.example.com' }, { name: 'Accept', value: '*/*' }]);
		expect(headers.filter((h) => h.name === 'X-5')).toEqual([]);
		expect(headers.filter((h) => h.name === 'X-7').map((h) => h.value)).toEqual(['v7', 'again']);
		expect(headers.at(-2)).toEqual({ name: 'User-Agent', value: 'shop/1' });
		const tooMany = parseCurl(`curl https://a.example ${Array.from({ length: MAX_PASTED_HEADERS + 1 }, (_, i) => `-H 'X-${i}: v'`).join(' ')}`);
		expect(tooMany).toEqual({ ok: false, message: expect.stringContaining('more than 1,000 headers') });
		const raw = parseRawHttp(`GET / HTTP/1.1\nHost: a.example\n${'X-A: b\n'.repeat(MAX_PASTED_HEADERS)}\n`);
		expect(raw).toEqual({ ok: false, message: expect.stringContaining('more than 1,000 headers') });
	});

	it('explains what is wrong with bad commands', () => {
		expect(message(parseCurl('wget https://a'))).toMatch(/not a curl command/);
		expect(message(parseCurl('curl -d x'))).toMatch(/no URL/);
		expect(message(parseCurl('curl https://a/x https://b/y'))).toMatch(/more than one URL/);
		expect(message(parseCurl('curl --frobnicate https://a/oauth/token'))).toMatch(/--frobnicate is not understood/);
		expect(message(parseCurl('curl -d @body.txt https://a/oauth/token'))).toMatch(/reads a file/);
		expect(message(parseCurl('curl -u shop https://a/oauth/token'))).toMatch(/user:password/);
		expect(message(parseCurl('curl -H'))).toMatch(/-H needs a value/);
		expect(message(parseCurl("curl 'https://a/oauth/token"))).toMatch(/not closed/);
		expect(message(parseCurl('curl https://shop.example.com/cart'))).toMatch(/not one of the flow's: it goes to \/cart/);
	});
});

describe('parseRawHttp', () => {
	const RAW = [
		'POST /oauth/token HTTP/1.1',
		'Host: accounts.example.com',
		'Content-Type: application/x-www-form-urlencoded',
		'',
		`grant_type=authorization_code&code=c1&client_secret=${SECRET}`,
		'',
		'HTTP/1.1 400 Bad Request',
		'Content-Type: application/json',
		'',
		'{"error":"invalid_grant","error_description":"used"}',
		''
	].join('\r\n');

	it('reads a request and its response, builds the URL from Host, and redacts', () => {
		const result = parseRawHttp(RAW, OPTIONS);
		if (!result.ok) throw new Error(result.message);
		const e = result.run.exchanges[0]!;
		expect(e.step).toBe('token');
		expect(e.request).toMatchObject({ method: 'POST', url: 'https://accounts.example.com/oauth/token', body: `grant_type=authorization_code&code=c1&client_secret=${MASK}` });
		expect(e.response).toMatchObject({ status: 400, statusText: 'Bad Request', body: '{"error":"invalid_grant","error_description":"used"}' });
		expect(result.run.source).toBe('http');
		expect(leaks(JSON.stringify(result), SECRET)).toEqual([]);
	});

	it('reads a request alone, with no body, and uses http for localhost', () => {
		const result = parseRawHttp('GET /api/v3/me.json HTTP/1.1\nHost: localhost:5175\nAuthorization: Bearer tok-1234567890\n');
		expect(result.ok && result.run.exchanges[0]).toMatchObject({
			request: { url: 'http://localhost:5175/api/v3/me.json', body: null, headers: [{ name: 'Host', value: 'localhost:5175' }, { name: 'Authorization', value: `Bearer ${MASK}` }] },
			response: null
		});
	});

	it('explains what is wrong with bad input', () => {
		const fail = (text: string) => {
			const r = parseRawHttp(text);
			return r.ok ? '' : r.message;
		};
		expect(fail('hello there friend')).toMatch(/first line should be a request line/);
		expect(fail('GET /api/v3/me.json HTTP/1.1\nAccept: */*')).toMatch(/no Host header/);
		expect(fail('GET /api/v3/me.json HTTP/1.1\nHost: a\nnot a header')).toMatch(/is not a header/);
		expect(fail('GET /api/v3/me.json HTTP/1.1\nHost: a\n\nHTTP/1.1 200 OK\nnot a header')).toMatch(/In the response, .* is not a header/);
	});
});
