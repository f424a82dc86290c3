import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { base64EncodeUtf8 } from '$lib/http/encoding';
import type { RecordedRequest } from '$lib/http/exchange';
import { headersToSend, hiddenParts, withClientSecret } from './resend';

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
