import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../protocol';
import { TokenErrorBody, TokenResponse } from '../../protocol/schemas';
import { CALLBACK, DEMO, exchangeParams, issueCode, postToken, startAccounts, type RunningAccounts } from './test-support';

let sandbox: RunningAccounts;
beforeEach(async () => {
	sandbox = await startAccounts();
});
afterEach(() => sandbox.close());

async function expectError(res: Response, status: number, error: string): Promise<string> {
	expect(res.status).toBe(status);
	expect(res.headers.get('cache-control')).toBe('no-store');
	const body = TokenErrorBody.parse(await res.json());
	expect(body.error).toBe(error);
	return body.error_description;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('token endpoint: success (2.3)', () => {
	it('answers exactly the token response, with no-store', async () => {
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)));
		expect(res.status).toBe(200);
		expect(res.headers.get('cache-control')).toBe('no-store');
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		const body = TokenResponse.parse(await res.json());
		expect(body.expires_in).toBe(LIMITS.accessTokenExpiresIn);
		expect(body.access_token).not.toBe(body.refresh_token);
		expect(Buffer.from(body.access_token, 'base64url').length).toBeGreaterThanOrEqual(16);
		expect(Math.abs(body.created_at - Date.now() / 1000)).toBeLessThan(5);
	});
	it('takes created_at from the sandbox clock', async () => {
		sandbox.store.advanceClock(86400);
		const code = issueCode(sandbox.store);
		const body = TokenResponse.parse(await (await postToken(sandbox.url, exchangeParams(code))).json());
		expect(body.created_at - Date.now() / 1000).toBeGreaterThan(86390);
	});
	it('accepts the parameters in a form body', async () => {
		const res = await fetch(`${sandbox.url}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(exchangeParams(issueCode(sandbox.store)))
		});
		expect(res.status).toBe(200);
	});
	it('answers requests with no body headers at all, one after another on one connection (4.2: query string, no body)', async () => {
		const codes = [issueCode(sandbox.store), issueCode(sandbox.store)];
		const { hostname, port } = new URL(sandbox.url);
		const socket = connect(Number(port), hostname);
		const request = (code: string) => `POST /oauth/token?${new URLSearchParams(exchangeParams(code))} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
		let received = '';
		socket.setEncoding('utf8');
		socket.on('data', (chunk: string) => (received += chunk));
		socket.write(request(codes[0]!) + request(codes[1]!));
		await expect.poll(() => received.match(/HTTP\/1\.1 200 OK/g)?.length ?? 0).toBe(2);
		socket.destroy();
	});
	it('takes the query string\'s value when a parameter is also in the body', async () => {
		const code = issueCode(sandbox.store);
		const res = await fetch(`${sandbox.url}/oauth/token?${new URLSearchParams({ code })}`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(exchangeParams('wrong-code'))
		});
		expect(res.status).toBe(200);
	});
	it('ignores state and scope', async () => {
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store), { state: 'xyz', scope: 'openid profile' }));
		expect(res.status).toBe(200);
	});
});

describe('token endpoint: client credentials in the Authorization header', () => {
	it('accepts Basic base64(client_id:client_secret)', async () => {
		const { client_id: _id, client_secret: _secret, ...params } = exchangeParams(issueCode(sandbox.store));
		const res = await postToken(sandbox.url, params, { headers: { authorization: basic(DEMO.client_id, DEMO.client_secret) } });
		expect(res.status).toBe(200);
	});
	it('accepts Bearer base64(client_id:client_secret)', async () => {
		const { client_secret: _secret, ...params } = exchangeParams(issueCode(sandbox.store));
		const payload = Buffer.from(`${DEMO.client_id}:${DEMO.client_secret}`).toString('base64');
		const res = await postToken(sandbox.url, params, { headers: { authorization: `Bearer ${payload}` } });
		expect(res.status).toBe(200);
	});
	it('form-decodes the parts of Basic credentials (RFC 6749 2.3.1)', async () => {
		sandbox.store.upsertClient({ ...sandbox.store.getClient('demo-client')!, client_id: 'odd:client', client_secret: 'p@ss:w%rd+1' });
		const code = issueCode(sandbox.store, { clientId: 'odd:client' });
		const res = await postToken(sandbox.url, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK }, {
			headers: { authorization: basic('odd:client', 'p@ss:w%rd+1') }
		});
		expect(res.status).toBe(200);
	});
	it('answers a failed header authentication with WWW-Authenticate', async () => {
		const res = await postToken(sandbox.url, { grant_type: 'authorization_code', code: issueCode(sandbox.store), redirect_uri: CALLBACK }, {
			headers: { authorization: basic(DEMO.client_id, 'wrong') }
		});
		await expectError(res, 401, 'invalid_client');
		expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
	});
	it('refuses a header in another format, with WWW-Authenticate', async () => {
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)), { headers: { authorization: 'Bearer demo-secret-change-me!' } });
		expect(await expectError(res, 401, 'invalid_client')).toMatch(/base64\(client_id:client_secret\)/);
		expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
	});
	it('reads a secret sent alone after Bearer as no credentials, even when its bytes hold a colon', async () => {
		// Read leniently, '/zr+/fz7' is the bytes FF 3A FE FD FC FB: not UTF-8 text, yet a colon at index 1.
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)), { headers: { authorization: 'Bearer /zr+/fz7' } });
		expect(await expectError(res, 401, 'invalid_client')).toMatch(/base64\(client_id:client_secret\)/);
	});
	it('refuses a client_id parameter that differs from the header\'s', async () => {
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store), { client_id: 'group-key-client' }), {
			headers: { authorization: basic(DEMO.client_id, DEMO.client_secret) }
		});
		expect(await expectError(res, 401, 'invalid_client')).toMatch(/differs/);
	});
});

describe('token endpoint: 7.2 rows', () => {
	it('unsupported_grant_type: absent', async () => {
		const { grant_type: _g, ...params } = exchangeParams(issueCode(sandbox.store));
		expect(await expectError(await postToken(sandbox.url, params), 400, 'unsupported_grant_type')).toMatch(/grant_type.*missing/);
	});
	it('unsupported_grant_type: not authorization_code', async () => {
		const res = await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store), { grant_type: 'password' }));
		expect(await expectError(res, 400, 'unsupported_grant_type')).toContain('password');
	});
	it('invalid_client: unknown client, wrong secret, missing id, missing secret (no WWW-Authenticate without the header)', async () => {
		const code = issueCode(sandbox.store);
		const cases: [Record<string, string>, RegExp][] = [
			[exchangeParams(code, { client_id: 'nope' }), /No client has the id `nope`/],
			[exchangeParams(code, { client_secret: 'wrong' }), /not the secret/],
			[{ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_secret: DEMO.client_secret }, /`client_id` is missing/],
			[{ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: DEMO.client_id }, /`client_secret` is missing/]
		];
		for (const [params, description] of cases) {
			const res = await postToken(sandbox.url, params);
			expect(await expectError(res, 401, 'invalid_client')).toMatch(description);
			expect(res.headers.get('www-authenticate')).toBeNull();
		}
	});
	it('invalid_request: missing code names it and explains the cancel', async () => {
		const { code: _c, ...params } = exchangeParams('x');
		const description = await expectError(await postToken(sandbox.url, params), 400, 'invalid_request');
		expect(description).toMatch(/`code` is missing/);
		expect(description).toMatch(/cancelled/);
	});
	it('invalid_request: missing redirect_uri names it; both missing names both', async () => {
		const { redirect_uri: _r, ...params } = exchangeParams(issueCode(sandbox.store));
		expect(await expectError(await postToken(sandbox.url, params), 400, 'invalid_request')).toMatch(/`redirect_uri` is missing/);
		const { code: _c, ...neither } = params;
		expect(await expectError(await postToken(sandbox.url, neither), 400, 'invalid_request')).toMatch(/`code` and `redirect_uri` are missing/);
	});
	it('invalid_grant: unknown code', async () => {
		expect(await expectError(await postToken(sandbox.url, exchangeParams('not-a-code')), 400, 'invalid_grant')).toMatch(/not one this service issued/);
	});
	it('invalid_grant: code used twice (single use); the first tokens stay valid', async () => {
		const code = issueCode(sandbox.store);
		const first = TokenResponse.parse(await (await postToken(sandbox.url, exchangeParams(code))).json());
		expect(await expectError(await postToken(sandbox.url, exchangeParams(code)), 400, 'invalid_grant')).toMatch(/already exchanged/);
		expect(sandbox.store.lookupAccessToken(first.access_token).kind).toBe('valid');
	});
	it('invalid_grant: issued to a different client', async () => {
		const code = issueCode(sandbox.store);
		const res = await postToken(sandbox.url, exchangeParams(code, { client_id: 'group-key-client', client_secret: 'group-secret-change-me' }));
		expect(await expectError(res, 400, 'invalid_grant')).toMatch(/different client/);
	});
	it('invalid_grant: redirect_uri differs from the link\'s, extra parameters included', async () => {
		const code = issueCode(sandbox.store, { redirectUri: `${CALLBACK}?shop=1` });
		for (const redirect_uri of [CALLBACK, `${CALLBACK}?shop=2`, `${CALLBACK}?shop=1&code=${code}`]) {
			expect(await expectError(await postToken(sandbox.url, exchangeParams(code, { redirect_uri })), 400, 'invalid_grant')).toMatch(/redirect_uri/);
		}
		expect((await postToken(sandbox.url, exchangeParams(code, { redirect_uri: `${CALLBACK}?shop=1` }))).status).toBe(200);
	});
	it('code valid for 2 hours: used at 1 h 59 m succeeds', async () => {
		const code = issueCode(sandbox.store);
		sandbox.store.advanceClock(LIMITS.codeTtlSeconds - 60);
		expect((await postToken(sandbox.url, exchangeParams(code))).status).toBe(200);
	});
	it('code valid for 2 hours: used at 2 h 01 m fails with invalid_grant', async () => {
		const code = issueCode(sandbox.store);
		sandbox.store.advanceClock(LIMITS.codeTtlSeconds + 60);
		expect(await expectError(await postToken(sandbox.url, exchangeParams(code)), 400, 'invalid_grant')).toMatch(/expired/);
	});
});

describe('token endpoint: which error wins, and what is not consumed', () => {
	it('grant_type before client authentication before missing parameters before the code', async () => {
		const code = issueCode(sandbox.store);
		await expectError(await postToken(sandbox.url, { grant_type: 'password', client_id: 'x' }), 400, 'unsupported_grant_type');
		await expectError(await postToken(sandbox.url, { grant_type: 'authorization_code', client_id: 'x', client_secret: 'y' }), 401, 'invalid_client');
		await expectError(await postToken(sandbox.url, exchangeParams(code, { redirect_uri: '' })), 400, 'invalid_request');
	});
	it('a request failing client authentication does not consume the code', async () => {
		const code = issueCode(sandbox.store);
		await expectError(await postToken(sandbox.url, exchangeParams(code, { client_secret: 'wrong' })), 401, 'invalid_client');
		expect((await postToken(sandbox.url, exchangeParams(code))).status).toBe(200);
	});
	it('40 concurrent exchanges of one code: exactly one succeeds', async () => {
		const code = issueCode(sandbox.store);
		const responses = await Promise.all(Array.from({ length: 40 }, () => postToken(sandbox.url, exchangeParams(code))));
		const statuses = responses.map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(1);
		expect(statuses.filter((s) => s === 400)).toHaveLength(39);
	});
});

describe('token endpoint: refresh (sandbox choice refresh-grant)', () => {
	it('issues new tokens once per refresh token', async () => {
		const first = TokenResponse.parse(await (await postToken(sandbox.url, exchangeParams(issueCode(sandbox.store)))).json());
		const refresh = { grant_type: 'refresh_token', refresh_token: first.refresh_token, ...DEMO };
		const second = await postToken(sandbox.url, refresh);
		expect(second.status).toBe(200);
		const tokens = TokenResponse.parse(await second.json());
		expect(sandbox.store.lookupAccessToken(tokens.access_token).kind).toBe('valid');
		await expectError(await postToken(sandbox.url, refresh), 400, 'invalid_grant');
	});
	it('names a missing refresh_token', async () => {
		expect(await expectError(await postToken(sandbox.url, { grant_type: 'refresh_token', ...DEMO }), 400, 'invalid_request')).toMatch(/`refresh_token` is missing/);
	});
});

describe('token endpoint: malformed input gets a 4xx, never a 5xx', () => {
	const raw = (query: string, init: RequestInit = {}) => fetch(`${sandbox.url}/oauth/token?${query}`, { method: 'POST', ...init });

	it('bad percent-encoding', async () => {
		expect(await expectError(await raw('grant_type=authorization_code&code=%zz'), 400, 'invalid_request')).toMatch(/percent-encoding/);
		expect(await expectError(await raw('grant_type=authorization_code&code=%C3%28'), 400, 'invalid_request')).toMatch(/percent-encoding/);
	});
	it('repeated parameters', async () => {
		expect(await expectError(await raw('grant_type=authorization_code&code=a&code=b'), 400, 'invalid_request')).toMatch(/more than once/);
	});
	it('NUL bytes', async () => {
		expect(await expectError(await raw('grant_type=authorization_code&code=a%00b'), 400, 'invalid_request')).toMatch(/NUL/);
	});
	it('oversized values and bodies', async () => {
		expect(await expectError(await raw(`grant_type=authorization_code&code=${'a'.repeat(9000)}`), 400, 'invalid_request')).toMatch(/limit/);
		const big = await fetch(`${sandbox.url}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `code=${'a'.repeat(100_000)}`
		});
		await expectError(big, 413, 'invalid_request');
	});
	it('a body far beyond the limit, declared or chunked: a 413 reaches the client while it is still sending', async () => {
		for (const declared of [true, false]) {
			const answer = await sendMegabytes(`${sandbox.url}/oauth/token`, 10, declared);
			expect(answer.status, declared ? 'Content-Length' : 'chunked').toBe(413);
			expect(TokenErrorBody.parse(JSON.parse(answer.body)).error).toBe('invalid_request');
		}
		const control = await sendMegabytes(`${sandbox.url}/sandbox/clients`, 10, true, 'application/json');
		expect(control.status).toBe(413);
	});
	it('a JSON body or another body type', async () => {
		const json = await raw('', { headers: { 'content-type': 'application/json' }, body: JSON.stringify(exchangeParams('x')) });
		expect(await expectError(json, 400, 'invalid_request')).toMatch(/JSON/);
		const text = await raw('', { headers: { 'content-type': 'text/plain' }, body: 'grant_type=authorization_code' });
		await expectError(text, 400, 'invalid_request');
	});
	it('another method than POST: 405', async () => {
		const res = await fetch(`${sandbox.url}/oauth/token`);
		await expectError(res, 405, 'invalid_request');
		expect(res.headers.get('allow')).toBe('POST');
	});
});

/** POSTs `megabytes` MB (in 64 KB chunks, with or without a Content-Length), resolving with the first answer: what a client reads back before it has finished sending. */
function sendMegabytes(url: string, megabytes: number, declared: boolean, type = 'application/x-www-form-urlencoded'): Promise<{ status: number; body: string }> {
	const chunk = Buffer.alloc(64 * 1024, 'a');
	const chunks = megabytes * 16;
	return new Promise((resolve, reject) => {
		const req = request(url, { method: 'POST', headers: { 'content-type': type, ...(declared ? { 'content-length': String(chunks * chunk.length) } : {}) } }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (part: string) => (body += part));
			res.on('end', () => {
				resolve({ status: res.statusCode ?? 0, body });
				req.destroy();
			});
		});
		req.on('error', reject);
		let sent = 0;
		const more = () => {
			while (sent < chunks && !req.destroyed) {
				sent++;
				if (!req.write(chunk)) return void req.once('drain', more);
			}
			if (!req.destroyed) req.end();
		};
		more();
	});
}
