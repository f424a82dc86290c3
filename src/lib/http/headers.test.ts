import { describe, expect, it } from 'vitest';
import { hasHeader, headerValue } from './headers';

const headers = [
	{ name: 'Content-Type', value: 'application/json' },
	{ name: 'set-cookie', value: 'a=1' },
	{ name: 'Set-Cookie', value: 'b=2' }
];

describe('headerValue', () => {
	it('finds a header whatever the case of either name', () => {
		expect(headerValue(headers, 'content-type')).toBe('application/json');
		expect(headerValue(headers, 'CONTENT-TYPE')).toBe('application/json');
	});
	it('gives the first of repeated headers, and undefined for none', () => {
		expect(headerValue(headers, 'Set-Cookie')).toBe('a=1');
		expect(headerValue(headers, 'location')).toBeUndefined();
		expect(headerValue([], 'location')).toBeUndefined();
	});
	it('tells a present empty header from a missing one', () => {
		expect(hasHeader([{ name: 'User-Agent', value: '' }], 'user-agent')).toBe(true);
		expect(hasHeader(headers, 'user-agent')).toBe(false);
	});
});
