import { describe, expect, it } from 'vitest';
import { decodeFormComponentStrictly, decodeQueryComponent, mapFormPairs, mapQueryPairs, splitRawQuery, mapMultipartFields } from './form';

describe('decodeQueryComponent', () => {
	it('decodes once, with + as a space', () => {
		expect(decodeQueryComponent('https%3A%2F%2Fa.example%2Fcb%3Fx%3D1')).toBe('https://a.example/cb?x=1');
		expect(decodeQueryComponent('a+b%2Bc')).toBe('a b+c');
		expect(decodeQueryComponent('%253A')).toBe('%3A');
	});
	it('reads a component without an escape or a + exactly as URLSearchParams does', () => {
		for (const raw of ['demo-client', 'a=b=c', 'x#y', 'caf\u00e9 \u{1F600}', '\uD800lone', '••••••…abcd', '', ' spaced ', 'a\u0000b']) {
			expect(decodeQueryComponent(raw)).toBe(new URLSearchParams(`v=${raw.replace(/#/g, '%23')}`).get('v'));
		}
	});
	it('keeps malformed escapes instead of throwing', () => {
		expect(decodeQueryComponent('100%')).toBe('100%');
		expect(decodeQueryComponent('%E0%A4%A')).not.toBe('');
	});
});

describe('splitRawQuery', () => {
	it('keeps raw text and order, and decodes names and values', () => {
		expect(splitRawQuery('?a=1&b%20c=d%2Fe&flag&=x')).toEqual([
			{ rawName: 'a', rawValue: '1', name: 'a', value: '1' },
			{ rawName: 'b%20c', rawValue: 'd%2Fe', name: 'b c', value: 'd/e' },
			{ rawName: 'flag', rawValue: '', name: 'flag', value: '' },
			{ rawName: '', rawValue: 'x', name: '', value: 'x' }
		]);
		expect(splitRawQuery('')).toEqual([]);
	});
	it('splits only on the first =', () => {
		expect(splitRawQuery('r=https://a/cb?x=1')[0]?.value).toBe('https://a/cb?x=1');
	});
});


describe('decodeFormComponentStrictly', () => {
	it('decodes as decodeQueryComponent does what is well formed', () => {
		for (const raw of ['a+b%2Bc', 'https%3A%2F%2Fa.example%2Fcb%3Fx%3D1', '%C3%A9t%C3%A9', '']) {
			expect(decodeFormComponentStrictly(raw)).toBe(decodeQueryComponent(raw));
		}
	});
	it('refuses a malformed escape or UTF-8 sequence', () => {
		expect(decodeFormComponentStrictly('100%')).toBeNull();
		expect(decodeFormComponentStrictly('%E0%A4%A')).toBeNull();
		expect(decodeFormComponentStrictly('%FF')).toBeNull();
	});
});

describe('mapFormPairs', () => {
	it('gives each pair decoded, and replaces only the raw values it is given back', () => {
		const seen: [string, string][] = [];
		const text = 'a=1&client%5Fsecret=s+3%2F&flag&=x&&b=two%20words';
		const mapped = mapFormPairs(text, (name, value) => {
			seen.push([name, value]);
			return name === 'client_secret' ? 'HIDDEN' : undefined;
		});
		expect(seen).toEqual([
			['a', '1'],
			['client_secret', 's 3/'],
			['', 'x'],
			['b', 'two words']
		]);
		expect(mapped).toBe('a=1&client%5Fsecret=HIDDEN&flag&=x&&b=two%20words');
	});
	it('keeps the text byte for byte when nothing is replaced', () => {
		const text = 'x=%E0%A4%A&y=100%&z=a+b&w';
		expect(mapFormPairs(text, () => undefined)).toBe(text);
	});
});

describe('mapQueryPairs', () => {
	it('maps only the query: path and fragment are kept, a URL without one is unchanged', () => {
		const url = 'https://a.example/cb?code=abc&state=s#code=frag';
		expect(mapQueryPairs(url, (name) => (name === 'code' ? 'X' : undefined))).toBe('https://a.example/cb?code=X&state=s#code=frag');
		expect(mapQueryPairs('https://a.example/cb#x=1', () => 'X')).toBe('https://a.example/cb#x=1');
		expect(mapQueryPairs('/oauth/token?', () => 'X')).toBe('/oauth/token?');
	});
});

describe('mapMultipartFields', () => {
	it('gives each field its name and one-line value, with CRLF or LF, a part header between, and replaces only what it is told', () => {
		const crlf = ['--b', 'Content-Disposition: form-data; name="client_id"', '', 'shop', '--b', 'content-disposition: form-data; name="client_secret"', 'Content-Type: text/plain', '', 's3cret', '--b--', ''].join('\r\n');
		const seen: [string, string][] = [];
		const out = mapMultipartFields(crlf, (name, value) => (seen.push([name, value]), name === 'client_secret' ? 'MASKED' : undefined));
		expect(seen).toEqual([['client_id', 'shop'], ['client_secret', 's3cret']]);
		expect(out).toBe(crlf.replace('s3cret', 'MASKED'));
		expect(mapMultipartFields(crlf.replace(/\r\n/g, '\n'), (name) => (name === 'client_secret' ? 'X' : undefined))).toContain('\n\nX\n--b--');
	});

	it('leaves a part without a blank line, or a text that only names one, as it is', () => {
		const broken = 'Content-Disposition: form-data; name="client_secret"\r\nno blank line here';
		expect(mapMultipartFields(broken, () => 'X')).toBe(broken);
		const line = 'Content-Disposition:name=""'.repeat(2000);
		expect(mapMultipartFields(line, () => 'X')).toBe(line);
	});
});
