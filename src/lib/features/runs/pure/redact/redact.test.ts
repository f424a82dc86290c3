import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { base64DecodeUtf8 } from '$lib/http/encoding';
import { WHAT, redactRun, redactRunInParts, type KnownSecrets } from './redact';
import type { Run } from '../run';
import { exchange, run } from '../test-helpers';
import { leakForms, leaks } from '$lib/http/leak-forms';
import { formatRequest, formatResponse } from '$lib/http/format';

const SECRET = 'sEcr3t+value/with=odd&chars';
const ACCESS = 'access-0123456789abcdef';
const REFRESH = 'refresh-0123456789abcdef';
const CODE = 'code-AAAA1111';
const TOKEN_URL = 'https://accounts.example.com/oauth/token';
const ME_URL = 'https://accounts.example.com/api/v3/me.json';

const q = encodeURIComponent;

function tokenExchange(query: string, body: string | null = null, hdrs: Record<string, string> = {}) {
	return exchange(
		'token',
		{ method: 'POST', url: `${TOKEN_URL}${query}`, body, headers: hdrs },
		{
			status: 200,
			headers: { 'Content-Type': 'application/json' },
			body: `{"access_token": "${ACCESS}", "token_type":"Bearer","expires_in":2419199,"refresh_token":"${REFRESH}","created_at":1}`
		}
	);
}

describe('redactRun: by name', () => {
	it('hides client_secret, access_token, refresh_token and password in URLs, and says where without the value', () => {
		const r = redactRun(
			run({
				link: `https://auth.example.com/sso/student?client_id=shop&client_secret=${q(SECRET)}`,
				exchanges: [
					exchange('me', { url: `${ME_URL}?access_token=${ACCESS}` }),
					exchange('token', { method: 'POST', url: `${TOKEN_URL}?refresh_token=${REFRESH}&password=hunter2` })
				]
			})
		);
		expect(r.link).toBe(`https://auth.example.com/sso/student?client_id=shop&client_secret=${MASK}`);
		expect(r.exchanges[0]?.request.url).toBe(`${ME_URL}?access_token=${MASK}`);
		expect(r.exchanges[1]?.request.url).toBe(`${TOKEN_URL}?refresh_token=${MASK}&password=${MASK}`);
		expect(r.redactions).toEqual(
			expect.arrayContaining([
				{ what: WHAT.clientSecret, where: 'the authorisation link parameter client_secret' },
				{ what: WHAT.accessToken, where: 'exchange 1 (me) URL parameter access_token' },
				{ what: WHAT.refreshToken, where: 'exchange 2 (token) URL parameter refresh_token' },
				{ what: WHAT.password, where: 'exchange 2 (token) URL parameter password' }
			])
		);
		const text = JSON.stringify(r.redactions);
		for (const value of [SECRET, ACCESS, REFRESH, 'hunter2']) expect(leaks(text, value)).toEqual([]);
	});

	it('hides secrets in form bodies, keeping the other parameters exactly as written', () => {
		const body = `grant_type=authorization_code&code=${CODE}&client_secret=${q(SECRET)}&redirect_uri=https%3A%2F%2Fshop`;
		const r = redactRun(run({ exchanges: [tokenExchange('', body, { 'Content-Type': 'application/x-www-form-urlencoded' })] }));
		expect(r.exchanges[0]?.request.body).toBe(
			`grant_type=authorization_code&code=${CODE}&client_secret=${MASK}&redirect_uri=https%3A%2F%2Fshop`
		);
	});

	it('hides token fields of JSON bodies without reformatting the rest', () => {
		const r = redactRun(run({ exchanges: [tokenExchange('')] }));
		expect(r.exchanges[0]?.response?.body).toBe(
			`{"access_token": "${MASK}", "token_type":"Bearer","expires_in":2419199,"refresh_token":"${MASK}","created_at":1}`
		);
		expect(r.redactions.map((x) => x.where)).toEqual([
			'exchange 1 (token) response body field access_token',
			'exchange 1 (token) response body field refresh_token'
		]);
	});

	it('hides a token-like literal a page stores under a token\'s name, there and wherever else it appears', () => {
		const stored = 'Zm9vYmFyLXRva2VuLXZhbHVlLTEyMzQ1Njc4OQ';
		const page = `<html><script>localStorage.setItem("sso_token", "${stored}"); go();</script></html>`;
		const arrival = exchange('arrival', { url: 'https://shop.example.com/cb?code=c-1' }, { status: 200, headers: { 'Content-Type': 'text/html' }, body: page });
		const echoed = exchange('arrival', { url: `https://shop.example.com/profile?t=${stored}` }, { status: 200, body: 'ok' });
		const r = redactRun(run({ exchanges: [arrival, echoed] }));
		expect(r.exchanges[0]?.response?.body).toBe(`<html><script>localStorage.setItem("sso_token", "${MASK}"); go();</script></html>`);
		expect(leaks(JSON.stringify(r), stored)).toEqual([]);
		expect(r.redactions).toContainEqual({ what: WHAT.token, where: 'exchange 1 (arrival) response body: stored as sso_token' });
	});

	it('hides a password in a form without mangling the parameter names that spell it', () => {
		const r = redactRun(run({ exchanges: [exchange('sign-in', { method: 'POST', url: 'https://auth.example.com/login', body: 'login=a%40b.c&password=password' })] }));
		expect(r.exchanges[0]?.request.body).toBe(`login=a%40b.c&password=${MASK}`);
	});
});

describe('redactRun: secrets sent another way', () => {
	it('hides a multipart field and a header named for its credential, and the value wherever else it appears', () => {
		const secret = 'TopSecretValue-XYZ-123456';
		const multipart = ['--b', 'Content-Disposition: form-data; name="client_secret"', '', secret, '--b--', ''].join('\r\n');
		const r = redactRun(
			run({
				exchanges: [
					exchange('token', { method: 'POST', url: TOKEN_URL, headers: { 'Content-Type': 'multipart/form-data; boundary=b' }, body: multipart }),
					exchange('me', { url: ME_URL, headers: { 'X-Access-Token': ACCESS } }, { status: 401, body: `{"message":"bad ${ACCESS}"}` })
				]
			})
		);
		const text = JSON.stringify(r);
		for (const value of [secret, ACCESS]) expect(leaks(text, value)).toEqual([]);
		expect(r.redactions.map((x) => x.what)).toEqual(expect.arrayContaining([WHAT.clientSecret, WHAT.credentialHeader]));
	});
});

describe('redactRun: JSON bodies', () => {
	it('hides every copy of a secret field, even where a string ":" in an array throws a scan off its place', () => {
		const body = '[{"password":"hunter22x"},"x",":",{"password":"hunter22x"},{"note":"a\\"b","access_token":"' + ACCESS + '"}]';
		const r = redactRun(run({ exchanges: [exchange('token', { method: 'POST', url: TOKEN_URL, headers: { 'Content-Type': 'application/json' }, body })] }));
		const stored = r.exchanges[0]!.request.body!;
		expect(stored).not.toContain('hunter22x');
		expect(leaks(stored, ACCESS)).toEqual([]);
		expect(JSON.parse(stored)).toHaveLength(5);
	});
});

describe('redactRun: a sanitised recording', () => {
	it('says nothing of a grant code a sanitiser already replaced, and keeps noting a real one as kept', () => {
		const sanitised = redactRun(run({ exchanges: [exchange('token', { method: 'POST', url: `${TOKEN_URL}?code=%5BREDACTED%5D` })] }));
		expect(sanitised.redactions.filter((r) => r.what === WHAT.code)).toEqual([]);
		const real = redactRun(run({ exchanges: [exchange('token', { method: 'POST', url: `${TOKEN_URL}?code=c0de-abcdefghijklmnop` })] }));
		expect(real.redactions.filter((r) => r.what === WHAT.code)).toHaveLength(1);
	});
});

describe('redactRun: headers', () => {
	it('keeps the client ID of a Basic header and hides the secret inside its base64 payload', () => {
		const basic = `Basic ${btoa(`shop:${q(SECRET)}`)}`;
		const r = redactRun(run({ exchanges: [tokenExchange(`?code=${CODE}`, null, { Authorization: basic })] }));
		const value = r.exchanges[0]?.request.headers[0]?.value ?? '';
		expect(value.startsWith('Basic ')).toBe(true);
		expect(base64DecodeUtf8(value.slice(6))).toBe(`shop:${MASK}`);
		expect(r.redactions).toContainEqual({ what: WHAT.clientSecret, where: 'exchange 1 (token) request header Authorization (inside its base64 payload)' });
	});

	it('hides a Bearer access token but keeps (and marks) a grant code sent as one', () => {
		const r = redactRun(
			run({
				callback: { url: `https://shop.example.com/callback?code=${CODE}`, receivedAt: '2026-01-01T10:00:00Z' },
				exchanges: [
					exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${ACCESS}` } }, undefined, 'a'),
					exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${CODE}` } }, undefined, 'b')
				]
			})
		);
		expect(r.exchanges[0]?.request.headers[0]?.value).toBe(`Bearer ${MASK}`);
		expect(r.exchanges[1]?.request.headers[0]?.value).toBe(`Bearer ${CODE}`);
		expect(r.redactions).toContainEqual({ what: WHAT.code, where: 'exchange 2 (me) request header Authorization' });
		expect(r.redactions).toContainEqual({ what: WHAT.code, where: 'the callback URL parameter code' });
	});

	it('hides cookie values and keeps their names and attributes', () => {
		const r = redactRun(
			run({
				exchanges: [
					exchange(
						'link',
						{ url: 'https://auth.example.com/sso/student?client_id=x', headers: { Cookie: 'sid=abc123; theme=dark' } },
						{ status: 302, headers: { 'Set-Cookie': 'sid=def456; Path=/; HttpOnly' } }
					)
				]
			})
		);
		const e = r.exchanges[0];
		expect(e?.request.headers[0]?.value).toBe(`sid=${MASK}; theme=${MASK}`);
		expect(e?.response?.headers[0]?.value).toBe(`sid=${MASK}; Path=/; HttpOnly`);
		expect(r.redactions.filter((x) => x.what === WHAT.cookie)).toHaveLength(3);
	});

	it('hides the payload of any other Authorization scheme', () => {
		const r = redactRun(run({ exchanges: [exchange('me', { url: ME_URL, headers: { Authorization: 'Token xyz-987' } })] }));
		expect(r.exchanges[0]?.request.headers[0]?.value).toBe(`Token ${MASK}`);
	});
});

describe('redactRun: every other occurrence', () => {
	it('hides a value found by name wherever else it appears, in any encoding', () => {
		const r = redactRun(
			run({
				title: `debugging ${SECRET}`,
				link: `https://auth.example.com/sso/student?redirect_uri=${q(`https://shop/cb?s=${q(SECRET)}`)}`,
				exchanges: [
					tokenExchange(`?client_secret=${q(SECRET)}`),
					exchange('me', { url: ME_URL }, { status: 401, body: `{"message":"bad token ${ACCESS}"}` })
				]
			})
		);
		const text = JSON.stringify(r);
		for (const value of [SECRET, ACCESS, REFRESH]) expect(leaks(text, value, ['shop'])).toEqual([]);
		expect(r.title).toBe(`debugging ${MASK}`);
	});

	it('hides known secrets and tokens in every encoding, including base64 of id:secret', () => {
		const known = 'Known/Secret+1 2';
		const token = 'tok-ABCDEFGH12345678';
		const r = redactRun(
			run({
				exchanges: [
					exchange('token', {
						method: 'POST',
						url: `${TOKEN_URL}?x=${q(known)}&y=${new URLSearchParams({ v: known }).toString().slice(2)}`,
						headers: { Authorization: `Bearer ${btoa(`shop:${known}`)}` },
						body: `{"note":${JSON.stringify(known)}}`
					}),
					exchange('me', { url: ME_URL }, { status: 200, body: `echo ${token}` })
				]
			}),
			{ clientSecrets: [known], tokens: [token] }
		);
		const text = JSON.stringify(r);
		expect(leaks(text, known, ['shop'])).toEqual([]);
		expect(leaks(text, token)).toEqual([]);
		expect(r.redactions).toContainEqual({ what: WHAT.token, where: 'exchange 2 (me) response body' });
	});

	it('keeps grant codes and marks where they are', () => {
		const r = redactRun(run({ exchanges: [tokenExchange(`?code=${CODE}&client_secret=${SECRET}`)] }));
		expect(r.exchanges[0]?.request.url).toContain(`code=${CODE}`);
		expect(r.redactions).toContainEqual({ what: WHAT.code, where: 'exchange 1 (token) URL parameter code' });
	});

	it('changes nothing when run again', () => {
		const once = redactRun(
			run({
				link: `https://auth.example.com/sso/student?client_secret=${SECRET}`,
				exchanges: [tokenExchange(`?code=${CODE}`, null, { Authorization: `Basic ${btoa(`shop:${SECRET}`)}`, Cookie: 'a=b' })]
			})
		);
		expect(redactRun(once)).toEqual(once);
	});
});

/** The secret of issue 16: characters every encoder treats differently, and one Unicode spells two ways. */
const ODD = 'a+b/c=d%20 é';

/** Every text of a run as the run page shows it: a JSON response pretty-printed, which decodes its escapes. */
function shownTexts(r: Run): string[] {
	return [
		r.title,
		r.link ?? '',
		r.callback?.url ?? '',
		...r.exchanges.flatMap((e) => [e.label, e.request.url, formatRequest(e.request), ...(e.response ? [e.response.body, formatResponse(e.response)] : [])])
	];
}

describe('redactRun: a secret echoed back in another encoding', () => {
	/** A token exchange that sent `secret` by name, and a response that echoes `form` as JSON, HTML and text. */
	function echoing(secret: string, form: string): Run {
		const json = { 'Content-Type': 'application/json' };
		return run({
			exchanges: [
				exchange(
					'token',
					{ method: 'POST', url: TOKEN_URL, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `client_secret=${q(secret)}&code=${CODE}` },
					{ status: 400, headers: json, body: `{"error":"invalid_client","echo":"${form}"}` }
				),
				exchange('me', { url: `${ME_URL}?note=${form}` }, { status: 200, headers: { 'Content-Type': 'text/html' }, body: `<p>you sent ${form}</p>` }),
				exchange('me', { url: ME_URL }, { status: 200, headers: json, body: `{"headers":{"x-echo":"${form}"},"n":1}` })
			]
		});
	}

	it.each(leakForms(ODD, ['shop']))('hides %s, learnt by name, everywhere the run page or an export shows it', (form) => {
		const r = redactRun(echoing(ODD, form));
		for (const text of shownTexts(r)) expect(leaks(text, ODD, ['shop']), text).toEqual([]);
		expect(r.exchanges[1]?.response?.body).toContain(MASK);
		expect(r.redactions).toContainEqual({ what: WHAT.clientSecret, where: 'exchange 2 (me) response body' });
	});

	it.each(leakForms(ODD, ['shop']))('hides %s of a known secret that no parameter named', (form) => {
		const r = redactRun(run({ exchanges: [exchange('me', { url: ME_URL }, { status: 200, headers: { 'Content-Type': 'application/json' }, body: `{"echo":"${form}"}` })] }), {
			clientSecrets: [ODD]
		});
		for (const text of shownTexts(r)) expect(leaks(text, ODD, ['shop']), text).toEqual([]);
		expect(r.redactions).toEqual([{ what: WHAT.clientSecret, where: 'exchange 1 (me) response body' }]);
	});

	it('hides a JSON echo whose escapes mix styles, which the run page would decode', () => {
		const body = '{"echo": "a\\u002Bb\\/c=d%20 \\u00E9", "n": 1}';
		const r = redactRun(run({ exchanges: [exchange('me', { url: ME_URL }, { status: 200, headers: { 'Content-Type': 'application/json' }, body })] }), {
			clientSecrets: [ODD]
		});
		expect(JSON.parse(r.exchanges[0]!.response!.body)).toEqual({ echo: MASK, n: 1 });
		for (const text of shownTexts(r)) expect(leaks(text, ODD), text).toEqual([]);
	});
});

/** `redactRun` of copies of the run's exchanges, never redacted before: a redaction must not depend on what it redacted before. */
function redactAfresh(run: Run, known: KnownSecrets = {}): Run {
	return redactRun({ ...run, exchanges: structuredClone(run.exchanges) }, known);
}

describe('redactRun of a run that grows (a walk saved after each step)', () => {
	it('gives what redactRun gives at every step of a growing run, when a later exchange teaches a token an earlier one holds', () => {
		const exchanges = [
			exchange('token', { method: 'POST', url: `${TOKEN_URL}?code=${CODE}&client_secret=${q(SECRET)}` }, { status: 400, body: `{"error":"invalid_grant","note":"${ACCESS}"}` }),
			tokenExchange(`?code=${CODE}`),
			exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${ACCESS}` } }, { status: 200, body: '{"sbid_number":"STU0001"}' })
		];
		for (let n = 0; n <= exchanges.length; n++) {
			const grown = run({ link: `https://auth.example.com/sso/student?client_id=shop`, exchanges: exchanges.slice(0, n) });
			expect(redactRun(grown, { clientSecrets: [SECRET] })).toEqual(redactAfresh(grown, { clientSecrets: [SECRET] }));
		}
		const last = redactRun(run({ exchanges }), { clientSecrets: [SECRET] });
		expect(last.exchanges[0]?.response?.body).toBe(`{"error":"invalid_grant","note":"${MASK}"}`);
	});

	it('hands back the same piece for an exchange whose codes and searched values did not change, and a new one when they did', () => {
		const first = tokenExchange(`?code=${CODE}`);
		const reads = [1, 2].map(() => exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${ACCESS}` } }, { status: 200, body: '{"sbid_number":"STU0001"}' }));
		const once = redactRunInParts(run({ exchanges: [first, reads[0]!] }));
		const again = redactRunInParts(run({ exchanges: [first, reads[0]!, reads[1]!] }));
		expect(again.exchanges[0]).toBe(once.exchanges[0]);
		expect(again.exchanges[1]).toBe(once.exchanges[1]);
		// A secret the run learns now is searched for in every exchange again.
		const withSecret = redactRunInParts(run({ exchanges: [first, reads[0]!, reads[1]!] }), { clientSecrets: [SECRET] });
		expect(withSecret.exchanges[0]).not.toBe(again.exchanges[0]);
		// The same exchange at another index is another place.
		const moved = redactRunInParts(run({ exchanges: [reads[0]!, first] }));
		expect(moved.exchanges[1]?.named).not.toEqual(once.exchanges[0]?.named);
	});

	it('follows a grant code that a later exchange adds: a Bearer value that is a code is kept', () => {
		const bearer = exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${CODE}` } });
		const later = exchange('token', { method: 'POST', url: `${TOKEN_URL}?code=${CODE}` });
		expect(redactRun(run({ exchanges: [bearer] })).exchanges[0]?.request.headers[0]?.value).toBe(`Bearer ${MASK}`);
		const both = redactRun(run({ exchanges: [bearer, later] }));
		expect(both).toEqual(redactAfresh(run({ exchanges: [bearer, later] })));
		expect(both.exchanges[0]?.request.headers[0]?.value).toBe(`Bearer ${CODE}`);
	});

	it('follows a head that changes between calls (link, callback, title), and one that comes back, as redactRun does', () => {
		const secret = { clientSecrets: [SECRET] };
		const heads: Partial<Parameters<typeof run>[0]>[] = [
			{ link: null, callback: null },
			{ link: `https://auth.example.com/sso/student?client_id=shop&client_secret=${q(SECRET)}` },
			{ link: 'https://auth.example.com/sso/student?client_id=shop', callback: { url: `https://shop.example/cb?code=${CODE}`, receivedAt: '2026-11-22T10:00:00.000Z' } },
			{ title: `Walk with ${SECRET}`, link: 'https://auth.example.com/sso/student?client_id=shop' },
			// Kept when a later exchange shows it is a grant code, hidden otherwise: the first pass depends on the codes.
			{ link: `https://auth.example.com/sso/student?access_token=${CODE}` },
			// Hidden once an exchange teaches the token: the second pass depends on what was learnt.
			{ title: `Walk for ${ACCESS}` },
			{ link: `https://auth.example.com/sso/student?client_id=shop&client_secret=${q(SECRET)}` }
		];
		const codeExchange = exchange('token', { method: 'POST', url: `${TOKEN_URL}?code=${CODE}` });
		const teachesToken = exchange('me', { url: ME_URL, headers: { Authorization: `Bearer ${ACCESS}` } });
		for (const head of heads) {
			for (const exchanges of [[], [codeExchange], [teachesToken], []]) {
				const grown = run({ ...head, exchanges });
				expect(redactRun(grown, secret)).toEqual(redactAfresh(grown, secret));
			}
		}
	});
});
