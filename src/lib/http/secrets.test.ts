import { describe, expect, it } from 'vitest';
import { formEncode } from './encoding';
import { leakForms } from './leak-forms';
import { SECRET_PARAMETERS, containsForm, encodedForms, formsOf, formsOfAnyText, hideForms, holdsForm, isSecretParameter, replaceForms, secretHeader, showing } from './secrets';

describe('the secrets vocabulary', () => {
	it('hides the client secret and passwords whole everywhere', () => {
		for (const name of ['client_secret', 'password']) {
			expect([showing(name, 'log'), showing(name, 'view'), showing(name, 'run')]).toEqual(['hidden', 'hidden', 'hidden']);
		}
	});
	it('keeps a tail of tokens in the log and the view, and hides them whole in a saved run', () => {
		for (const name of ['access_token', 'refresh_token']) {
			expect([showing(name, 'log'), showing(name, 'view'), showing(name, 'run')]).toEqual(['tail', 'tail', 'hidden']);
		}
	});
	it('keeps grant codes for a diagnosis but for the log, which keeps their tail', () => {
		expect([showing('code', 'log'), showing('code', 'view'), showing('code', 'run')]).toEqual(['tail', 'kept', 'kept']);
	});
	it('knows parameters by their exact name only, and shows every other one', () => {
		expect(SECRET_PARAMETERS.every(isSecretParameter)).toBe(true);
		for (const name of ['Client_Secret', 'client_id', 'toString', '__proto__', 'constructor', '']) {
			expect(isSecretParameter(name)).toBe(false);
			expect(showing(name, 'run')).toBe('kept');
		}
	});
	it('names the headers that carry credentials, in any case', () => {
		expect(secretHeader('Authorization')).toBe('authorization');
		expect(secretHeader('proxy-authorization')).toBe('authorization');
		expect(secretHeader('COOKIE')).toBe('cookie');
		expect(secretHeader('Set-Cookie')).toBe('set-cookie');
		for (const name of ['Location', 'Content-Type', 'toString', '__proto__']) expect(secretHeader(name)).toBeUndefined();
	});
});

/** The secret of issue 16: every character an encoder treats differently, and one that Unicode spells two ways. */
const ODD = 'a+b/c=d%20 é';

/** The base64 of UTF-8 text. */
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('encodedForms', () => {
	it('makes the forms of a token of letters, digits and -._ directly, the same set as for any text', () => {
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._';
		const samples = ['', 'a', '-', 'abc.DEF_ghi-012', ...Array.from({ length: 200 }, (_, i) => Array.from({ length: 1 + (i % 50) }, (_, j) => alphabet[(i * 31 + j * 7) % alphabet.length]).join(''))];
		for (const text of samples) expect(new Set(formsOf(text)), text).toEqual(new Set(formsOfAnyText(text)));
		// Outside those characters (`~`, which form encoding writes %7E), every form is made.
		expect(new Set(formsOf('a~b'))).toEqual(new Set(formsOfAnyText('a~b')));
	});

	it('covers raw, URI-component, form and JSON forms, longest first', () => {
		const forms = encodedForms('a b/c"d');
		expect(forms).toContain('a b/c"d');
		expect(forms).toContain('a%20b%2Fc%22d');
		expect(forms).toContain(formEncode('a b/c"d'));
		expect(forms).toContain('a b/c\\"d');
		expect(forms).toContain('a b\\/c\\"d');
		expect([...forms].sort((x, y) => y.length - x.length)).toEqual(forms);
	});
	it('has no forms for the empty string (so nothing is ever replaced everywhere)', () => {
		expect(encodedForms('')).toEqual([]);
		expect(replaceForms('abc', '', 'X')).toBe('abc');
	});
	it('finds and replaces every form', () => {
		const text = `q=s%2Bt%21&f=s%2Bt!&j={"v":"s+t!"}`;
		expect(containsForm(text, 's+t!')).toBe(true);
		expect(replaceForms(text, 's+t!', 'X')).toBe('q=X&f=X&j={"v":"X"}');
	});
	it('gives results that cannot be changed by a caller, computed once per value', () => {
		expect(Object.isFrozen(encodedForms('a b/c'))).toBe(true);
		expect(encodedForms('a b/c')).toBe(encodedForms('a b/c'));
	});

	const forms = encodedForms(ODD);
	it.each([
		['raw', ODD],
		['Unicode NFD', 'a+b/c=d%20 e\u0301'],
		['encodeURIComponent', 'a%2Bb%2Fc%3Dd%2520%20%C3%A9'],
		['lower-case percent-encoding', 'a%2bb%2fc%3dd%2520%20%c3%a9'],
		['form encoding', 'a%2Bb%2Fc%3Dd%2520+%C3%A9'],
		['lower-case form encoding', 'a%2bb%2fc%3dd%2520+%c3%a9'],
		['RFC 3986 encoding of the NFD spelling', 'a%2Bb%2Fc%3Dd%2520%20e%CC%81'],
		["Python's quote (keeps /)", 'a%2Bb/c%3Dd%2520%20%C3%A9'],
		['encodeURI (keeps reserved characters)', 'a+b/c=d%2520%20%C3%A9'],
		['every byte percent-encoded', '%61%2B%62%2F%63%3D%64%25%32%30%20%C3%A9'],
		['encoded twice', 'a%252Bb%252Fc%253Dd%252520%2520%25C3%25A9'],
		['base64', 'YStiL2M9ZCUyMCDDqQ=='],
		['base64 without padding', 'YStiL2M9ZCUyMCDDqQ'],
		['base64url of the NFD spelling', base64('a+b/c=d%20 e\u0301').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
		['HTML named reference', 'a+b/c=d%20 &eacute;'],
		['HTML decimal reference', 'a+b/c=d%20 &#233;'],
		['HTML hex reference', 'a+b/c=d%20 &#xe9;'],
		['HTML upper-case hex reference', 'a+b/c=d%20 &#xE9;'],
		['JSON with \\/', 'a+b\\/c=d%20 é'],
		['JSON with \\u00e9', 'a+b/c=d%20 \\u00e9'],
		['JSON with \\/ and \\u00E9', 'a+b\\/c=d%20 \\u00E9'],
		['JSON with every character escaped', '\\u0061\\u002b\\u0062\\u002f\\u0063\\u003d\\u0064\\u0025\\u0032\\u0030\\u0020\\u00e9']
	])('holds the %s form', (_name, form) => {
		expect(forms).toContain(form);
	});

	it('holds every form the tests look for a leak in', () => {
		for (const form of leakForms(ODD, ['shop'])) expect(holdsForm(form, forms), form).toBe(true);
		for (const form of leakForms(`x<y"'&ü`)) expect(encodedForms(`x<y"'&ü`), form).toContain(form);
	});

	it("finds the value inside the base64 of longer text, whatever comes before it (Basic credentials' id:secret)", () => {
		for (const id of ['a', 'ab', 'abc', 'shop-client']) {
			expect(holdsForm(base64(`${id}:${ODD}`), forms), id).toBe(true);
			expect(holdsForm(base64(`${id}:${encodeURIComponent(ODD)}:more`), forms), id).toBe(true);
			expect(hideForms(base64(`${id}:${ODD}`), forms, '*')).toContain('*');
		}
	});

	it('finds the value in a JSON document whose escapes no form lists, and writes the document again without it', () => {
		// .NET escapes + and non-ASCII; Go escapes & < >: mixtures of styles no single form has.
		const body = `{"echo": "a\\u002Bb/c=d%20 \\u00E9", "note": "kept"}`;
		expect(forms.some((form) => body.includes(form))).toBe(false);
		expect(holdsForm(body, forms)).toBe(true);
		const hidden = hideForms(body, forms, '*');
		expect(JSON.parse(hidden)).toEqual({ echo: '*', note: 'kept' });
		expect(hideForms('{"a": "\\u0041 unrelated"}', forms, '*')).toBe('{"a": "\\u0041 unrelated"}');
	});

	it('finds the forms of a very long value too (a target may issue a huge token)', () => {
		const huge = `${'x'.repeat(100_000)}+é`;
		const forms = encodedForms(huge);
		expect(holdsForm(`echo ${encodeURIComponent(huge).toLowerCase()} done`, forms)).toBe(true);
		expect(hideForms(`{"a":"${huge}"}`, forms, '*')).toBe('{"a":"*"}');
		expect(holdsForm('x'.repeat(1000), forms)).toBe(false);
	});

	it('does not find the value in other text', () => {
		for (const text of ['a+b/c=d%20 e', 'a+b', base64('shop:another-secret'), '{"x":"\\u00e9"}']) expect(holdsForm(text, forms), text).toBe(false);
	});
});
