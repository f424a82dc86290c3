import { describe, expect, it } from 'vitest';
import { CodeCarrier, sendsEmptyCode } from './app-calls';

describe('CodeCarrier', () => {
	it('finds which codes a call carries, as sent or percent-encoded, codes added as they arrive', () => {
		const carrier = new CodeCarrier(['abc/def+ghi=1234']);
		carrier.add('second-code-5678');
		carrier.add('short');
		expect(carrier.carried({ url: 'https://shop.example/api/session', body: '{"code":"abc/def+ghi=1234"}' })).toEqual(['abc/def+ghi=1234']);
		expect(carrier.carried({ url: `https://shop.example/api?code=${encodeURIComponent('abc/def+ghi=1234')}&x=second-code-5678`, body: null }).sort()).toEqual(['abc/def+ghi=1234', 'second-code-5678']);
		// Shorter than a service's code: anything could contain it by chance.
		expect(carrier.carried({ url: 'https://shop.example/short', body: null })).toEqual([]);
	});

	it('tells thousands of codes apart, each call its own', () => {
		const codes = Array.from({ length: 3000 }, (_, i) => `code-${i.toString(36).padStart(6, '0')}-qqqqqqqq`);
		const carrier = new CodeCarrier(codes);
		expect(codes.map((code) => carrier.carried({ url: 'https://shop.example/api/login', body: `code=${code}` }))).toEqual(codes.map((code) => [code]));
	});
});

describe('sendsEmptyCode', () => {
	it('reads a code sent without a value in JSON, the query or a form', () => {
		expect(sendsEmptyCode({ url: 'https://shop.example/api', body: '{"code": null}' })).toBe(true);
		expect(sendsEmptyCode({ url: 'https://shop.example/api?code=undefined', body: null })).toBe(true);
		expect(sendsEmptyCode({ url: 'https://shop.example/api', body: 'code=&state=x' })).toBe(true);
		expect(sendsEmptyCode({ url: 'https://shop.example/api', body: 'code=abc' })).toBe(false);
	});
});
