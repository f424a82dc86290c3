import { describe, expect, it } from 'vitest';
import { base64EncodeUtf8, formEncode } from '../http/encoding';
import type { RecordedExchange } from './exchange';
import { MASK } from '../http/exchange';
import { maskExchange } from './mask';
import { leakForms, leaks } from '../http/leak-forms';
import { formatRequest, formatResponse } from '../http/format';

const SECRET = 'sec ret+/&=ü!';
const ACCESS = 'access-token-0123456789abcdef';
const REFRESH = 'refresh-token-9876543210zyxw';

function exchange(overrides: Partial<RecordedExchange> = {}): RecordedExchange {
	return {
		id: 'x1',
		step: 'token',
		label: 'exchange the code',
		startedAt: '2025-03-01T10:00:00.000Z',
		durationMs: 12,
		request: {
			method: 'POST',
			url: `https://accounts.example/oauth/token?grant_type=authorization_code&client_id=demo&client_secret=${encodeURIComponent(SECRET)}`,
			headers: [
				{ name: 'Authorization', value: `Basic ${base64EncodeUtf8(`demo:${SECRET}`)}` },
				{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }
			],
			body: `client_secret=${formEncode(SECRET)}&code=abc`
		},
		response: {
			status: 200,
			statusText: 'OK',
			headers: [{ name: 'content-type', value: 'application/json' }],
			body: JSON.stringify({ access_token: ACCESS, token_type: 'Bearer', refresh_token: REFRESH }),
			truncated: false
		},
		failure: null,
		masked: [],
		...overrides
	};
}

/** Every form the secret could survive in. */
function secretForms(secret: string): string[] {
	return [
		secret,
		encodeURIComponent(secret),
		formEncode(secret),
		JSON.stringify(secret).slice(1, -1),
		base64EncodeUtf8(`demo:${secret}`),
		base64EncodeUtf8(`demo:${formEncode(secret)}`),
		'sec ret',
		'sec%20ret',
		'sec+ret'
	];
}

describe('maskExchange', () => {
	it('leaves no form of the client secret anywhere: raw, URI-encoded, form-encoded, base64 of id:secret', () => {
		const masked = maskExchange(exchange(), { clientSecret: SECRET, accessTokens: [ACCESS], refreshTokens: [REFRESH] });
		const text = JSON.stringify(masked);
		for (const form of secretForms(SECRET)) expect(text, form).not.toContain(form);
	});

	it('masks the secret inside Bearer base64 payloads and RFC 6749 form-encoded Basic payloads', () => {
		for (const value of [`Bearer ${base64EncodeUtf8(`demo:${SECRET}`)}`, `Basic ${base64EncodeUtf8(`demo:${formEncode(SECRET)}`)}`]) {
			const masked = maskExchange(exchange({ request: { ...exchange().request, headers: [{ name: 'Authorization', value }] } }), {
				clientSecret: SECRET
			});
			const header = masked.request.headers[0]!;
			const scheme = value.split(' ')[0]!;
			expect(header.value.startsWith(`${scheme} `)).toBe(true);
			expect(atob(header.value.slice(scheme.length + 1))).not.toContain('sec');
			expect(new TextDecoder().decode(Uint8Array.from(atob(header.value.slice(scheme.length + 1)), (c) => c.charCodeAt(0)))).toBe(
				`demo:${MASK}`
			);
			expect(masked.masked).toContainEqual({
				kind: 'client_secret',
				where: 'request header Authorization (inside its base64 payload)',
				hint: ''
			});
		}
	});

	it('never gives the client secret a visible tail', () => {
		const masked = maskExchange(exchange(), { clientSecret: SECRET });
		for (const entry of masked.masked.filter((m) => m.kind === 'client_secret')) expect(entry.hint).toBe('');
		expect(masked.request.url).toContain(`client_secret=${MASK}`);
		expect(masked.request.url).not.toContain(`${MASK}…`);
	});

	it('masks tokens in the JSON response with their last 4 characters as a hint', () => {
		const masked = maskExchange(exchange(), { accessTokens: [ACCESS], refreshTokens: [REFRESH] });
		const body = JSON.parse(masked.response!.body) as Record<string, string>;
		expect(body['access_token']).toBe(`${MASK}…cdef`);
		expect(body['refresh_token']).toBe(`${MASK}…zyxw`);
		expect(masked.masked).toEqual([
			{ kind: 'access_token', where: 'response field access_token', hint: '…cdef' },
			{ kind: 'refresh_token', where: 'response field refresh_token', hint: '…zyxw' }
		]);
	});

	it('gives a short token no hint', () => {
		const masked = maskExchange(
			exchange({ request: { method: 'GET', url: 'https://a.example/api/v3/me.json?access_token=short1', headers: [], body: null } }),
			{ accessTokens: ['short1'] }
		);
		expect(masked.request.url).toBe(`https://a.example/api/v3/me.json?access_token=${MASK}`);
		expect(masked.masked).toEqual([{ kind: 'access_token', where: 'query parameter access_token', hint: '' }]);
	});

	it('masks a Bearer access token in a request header', () => {
		const masked = maskExchange(
			exchange({
				request: { method: 'GET', url: 'https://a.example/api/v3/me.json', headers: [{ name: 'Authorization', value: `Bearer ${ACCESS}` }], body: null }
			}),
			{ accessTokens: [ACCESS] }
		);
		expect(masked.request.headers[0]!.value).toBe(`Bearer ${MASK}…cdef`);
		expect(masked.masked[0]?.where).toBe('request header Authorization');
	});

	it('says where each value was found, once per place', () => {
		const masked = maskExchange(exchange(), { clientSecret: SECRET });
		expect(masked.masked.map((m) => m.where)).toEqual([
			'query parameter client_secret',
			'request header Authorization (inside its base64 payload)',
			'form parameter client_secret'
		]);
	});

	it('masks a failure message and keeps earlier masked notes', () => {
		const earlier = { kind: 'code' as const, where: 'query parameter code', hint: '' };
		const masked = maskExchange(
			exchange({ response: null, failure: { kind: 'unreachable', message: `connect to ?client_secret=${SECRET} failed` }, masked: [earlier] }),
			{ clientSecret: SECRET }
		);
		expect(masked.failure?.message).toBe(`connect to ?client_secret=${MASK} failed`);
		expect(masked.masked[0]).toEqual(earlier);
	});

	it('does not change the exchange it was given, and ignores empty values', () => {
		const original = exchange();
		const copy = structuredClone(original);
		maskExchange(original, { clientSecret: SECRET, accessTokens: [''] });
		expect(original).toEqual(copy);
		expect(maskExchange(original, { clientSecret: '' })).toEqual(original);
	});
});

describe('maskExchange: a secret echoed back in another encoding', () => {
	/** The secret of issue 16: characters every encoder treats differently, and one Unicode spells two ways. */
	const ODD = 'a+b/c=d%20 é';
	const TOKEN = 'tok/en+0123456789é';

	/** A me.json read whose response echoes `form` as JSON, in a header, and in an error message. */
	function echoing(form: string): RecordedExchange {
		return exchange({
			step: 'me',
			request: { method: 'GET', url: `https://a.example/api/v3/me.json?echo=${form}`, headers: [], body: null },
			response: {
				status: 200,
				statusText: 'OK',
				headers: [
					{ name: 'Content-Type', value: 'application/json' },
					{ name: 'X-Echo', value: form }
				],
				body: `{"headers":{"authorization":"${form}"},"text":"sent ${form}"}`,
				truncated: false
			},
			failure: null
		});
	}

	/** Every text the walk page shows of an exchange: the JSON response pretty-printed, which decodes its escapes. */
	const shown = (e: RecordedExchange) => [e.request.url, formatRequest(e.request), e.response!.body, formatResponse(e.response!)];

	it.each(leakForms(ODD, ['demo']))('hides %s of the client secret', (form) => {
		const masked = maskExchange(echoing(form), { clientSecret: ODD });
		for (const text of shown(masked)) expect(leaks(text, ODD, ['demo']), text).toEqual([]);
		expect(masked.masked).toContainEqual({ kind: 'client_secret', where: 'response header X-Echo', hint: '' });
	});

	it.each(leakForms(TOKEN, ['demo']))('hides %s of an access token, keeping its hint', (form) => {
		const masked = maskExchange(echoing(form), { accessTokens: [TOKEN] });
		for (const text of shown(masked)) expect(leaks(text, TOKEN, ['demo']), text).toEqual([]);
		expect(masked.response!.headers[1]!.value).toContain(`${MASK}…789é`);
	});

	it('hides a JSON echo whose escapes mix styles, which the walk page would decode', () => {
		const masked = maskExchange(echoing('a\\u002Bb\\/c=d%20 \\u00E9'), { clientSecret: ODD });
		expect(JSON.parse(masked.response!.body)).toEqual({ headers: { authorization: MASK }, text: `sent ${MASK}` });
		for (const text of shown(masked)) expect(leaks(text, ODD), text).toEqual([]);
	});
});
