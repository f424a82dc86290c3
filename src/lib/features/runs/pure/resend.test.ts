import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { base64EncodeUtf8 } from '$lib/http/encoding';
import type { RecordedRequest } from '$lib/http/exchange';
import { headersToSend, hiddenParts, requestToResend, withClientSecret } from './resend';

const request = (partial: Partial<RecordedRequest>): RecordedRequest => ({
	method: 'POST',
	url: 'https://accounts.example.com/oauth/token',
	headers: [],
	body: null,
	...partial
});

describe('withClientSecret', () => {
	it('puts the secret back where the redaction hid it: query, form body, Basic credentials', () => {
		const filled = withClientSecret(
			request({
				url: `https://accounts.example.com/oauth/token?client_secret=${MASK}`,
				body: `code=c&client_secret=${encodeURIComponent(MASK)}`,
				headers: [{ name: 'Authorization', value: `Basic ${base64EncodeUtf8(`shop:${MASK}`)}` }]
			}),
			's3cret/+'
		);
		expect(filled.url).toBe('https://accounts.example.com/oauth/token?client_secret=s3cret%2F%2B');
		expect(filled.body).toBe('code=c&client_secret=s3cret%2F%2B');
		expect(filled.headers[0]!.value).toBe(`Basic ${base64EncodeUtf8('shop:s3cret/+')}`);
		expect(hiddenParts(filled)).toEqual([]);
	});

	it('leaves a secret that was not hidden alone, and names what else stays hidden', () => {
		const kept = request({ body: 'client_secret=given', headers: [{ name: 'Authorization', value: `Bearer ${MASK}` }] });
		expect(withClientSecret(kept, 'other').body).toBe('client_secret=given');
		expect(hiddenParts(withClientSecret(kept, 'other'))).toEqual(['its Authorization header']);
	});
});

describe('requestToResend', () => {
	const holder = { clientId: 'shop', secret: 's3cret', accountsOrigin: 'http://localhost:3002' };
	const basic = (id: string) => [{ name: 'Authorization', value: `Basic ${base64EncodeUtf8(`${id}:${MASK}`)}` }];
	const token = (partial: Partial<RecordedRequest>) => ({ step: 'token' as const, request: request({ url: 'http://localhost:3002/oauth/token', ...partial }) });

	it("puts the secret back into the holder's own token exchange with the sandbox", () => {
		const sent = requestToResend(token({ body: `grant_type=authorization_code&code=c&client_id=shop&client_secret=${MASK}` }), holder);
		expect(sent).toEqual({ ok: true, request: expect.objectContaining({ body: 'grant_type=authorization_code&code=c&client_id=shop&client_secret=s3cret' }), secretPutBack: true });
		expect(requestToResend(token({ headers: basic('shop') }), holder)).toMatchObject({ ok: true, secretPutBack: true });
	});

	it('refuses, saying why, to put the secret into a request to another host', () => {
		const elsewhere = requestToResend(token({ url: 'https://allowed.example.com/oauth/token', body: `client_id=shop&client_secret=${MASK}` }), holder);
		expect(elsewhere).toEqual({ ok: false, message: expect.stringContaining("goes to https://allowed.example.com, not to the sandbox's accounts host (http://localhost:3002)") });
		const basicElsewhere = requestToResend(token({ url: 'https://allowed.example.com/oauth/token', headers: basic('shop') }), holder);
		expect(basicElsewhere.ok).toBe(false);
	});

	it('refuses to put it into another step, or into a request naming another client or none', () => {
		const me = requestToResend({ step: 'me', request: request({ url: `http://localhost:3002/api/v3/me.json?client_id=shop&client_secret=${MASK}` }) }, holder);
		expect(me).toEqual({ ok: false, message: expect.stringContaining('only into a token exchange, and this request is a me request') });
		expect(requestToResend(token({ headers: basic('other') }), holder)).toEqual({ ok: false, message: expect.stringContaining('names client other, not the run\'s sandbox client shop') });
		expect(requestToResend(token({ body: `client_secret=${MASK}` }), holder)).toEqual({ ok: false, message: expect.stringContaining('names no client') });
	});

	it('sends a request that hides nothing as it is, and names what else stays hidden', () => {
		const plain = token({ url: 'https://allowed.example.com/oauth/token', body: 'client_id=x&client_secret=given' });
		expect(requestToResend(plain, holder)).toEqual({ ok: true, request: plain.request, secretPutBack: false });
		expect(requestToResend(token({ body: `client_id=shop&client_secret=${MASK}` }), undefined)).toEqual({ ok: false, message: expect.stringContaining('redacted when it was saved (its body)') });
	});
});

describe('headersToSend', () => {
	it('drops the headers the sender sets itself', () => {
		const headers = [
			{ name: 'Host', value: 'a' },
			{ name: 'Content-Length', value: '3' },
			{ name: 'User-Agent', value: 'x' }
		];
		expect(headersToSend(request({ headers }))).toEqual([{ name: 'User-Agent', value: 'x' }]);
	});
});
