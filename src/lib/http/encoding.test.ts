import { describe, expect, it } from 'vitest';
import {
	base64DecodeUtf8,
	base64EncodeUtf8,
	isUtf8Text,
	encodeComponent,
	encodeQuery,
	memoizeByString,
	parseHttpUrl,
	uriParts
} from './encoding';

describe('encodeComponent', () => {
	it('encodes as encodeURIComponent does', () => {
		expect(encodeComponent('a b&c=d/é•')).toBe(encodeURIComponent('a b&c=d/é•'));
	});
	it('writes an unpaired surrogate as U+FFFD, as a browser does, where encodeURIComponent throws', () => {
		expect(() => encodeURIComponent('x\uD800')).toThrow(URIError);
		expect(encodeComponent('x\uD800y\uDC00')).toBe('x%EF%BF%BDy%EF%BF%BD');
		expect(encodeQuery([['a\uDBFF', 'b']])).toBe('a%EF%BF%BD=b');
	});
});

describe('base64 UTF-8', () => {
	it('round-trips non-Latin-1 text', () => {
		expect(base64DecodeUtf8(base64EncodeUtf8('id:sécret•'))).toBe('id:sécret•');
		expect(base64EncodeUtf8('id:secret')).toBe(btoa('id:secret'));
	});
	it('returns null for text that is not base64 of UTF-8', () => {
		expect(base64DecodeUtf8('not base64!')).toBeNull();
		expect(base64DecodeUtf8(btoa('\xff\xfe'))).toBeNull();
		expect(base64DecodeUtf8('abcde')).toBeNull(); // the alphabet, but a length no base64 has
	});
	it('tells a replacement character that was written from bytes that are not UTF-8', () => {
		expect(base64DecodeUtf8(base64EncodeUtf8('id:\uFFFD'))).toBe('id:\uFFFD');
		expect(base64DecodeUtf8(btoa('id:\xEF\xBF\xBD\xff'))).toBeNull();
	});
});

describe('uriParts', () => {
	it('splits any string into the five RFC 3986 parts', () => {
		expect(uriParts('https://u@h:1/p/q?x=1&y#f')).toEqual({
			scheme: 'https',
			authority: 'u@h:1',
			path: '/p/q',
			query: 'x=1&y',
			fragment: 'f'
		});
		expect(uriParts('not a url')).toEqual({ scheme: '', authority: '', path: 'not a url', query: '', fragment: '' });
	});
});

describe('parseHttpUrl', () => {
	it('accepts http and https, and says why anything else is refused', () => {
		expect(parseHttpUrl(' https://a.example/x ').ok).toBe(true);
		const relative = parseHttpUrl('/sso/student');
		expect(relative.ok || relative.reason).toMatch(/absolute URL/);
		const ftp = parseHttpUrl('ftp://a.example/');
		expect(ftp.ok || ftp.reason).toMatch(/scheme is ftp/);
	});
});

describe('memoizeByString', () => {
	it('computes each key once, and starts afresh when the limit is reached', () => {
		const seen: string[] = [];
		const upper = memoizeByString((value: string) => {
			seen.push(value);
			return value.toUpperCase();
		}, 2);
		expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
		expect(seen).toEqual(['a', 'b']);
		upper('c'); // the third key empties the memo
		upper('a');
		expect(seen).toEqual(['a', 'b', 'c', 'a']);
	});
});

describe('isUtf8Text', () => {
	const bytes = (...values: number[]) => new Uint8Array(values);
	it('accepts UTF-8 text, and a character cut at the very end only where a limit cut the bytes', () => {
		const euro = [0xe2, 0x82, 0xac];
		expect(isUtf8Text(bytes(0x61, ...euro))).toBe(true);
		expect(isUtf8Text(bytes(0x61, ...euro.slice(0, 2)))).toBe(false);
		expect(isUtf8Text(bytes(0x61, ...euro.slice(0, 2)), true)).toBe(true);
		expect(isUtf8Text(bytes(0x61, 0xe9, 0x62), true)).toBe(false);
		expect(isUtf8Text(bytes(0xe9, 0x61, ...euro.slice(0, 1)), true)).toBe(false);
	});
});
