import { describe, expect, it } from 'vitest';
import { FormSearch } from './form-search';
import { encodedForms } from './secrets';

const hideAll = (search: FormSearch, text: string) => search.hide(text, (i) => `<${i}>`);

describe('FormSearch', () => {
	it('finds every value in any of its forms, each occurrence, and says which values it found', () => {
		const search = new FormSearch(['tok/en+one', 'second-value-22'].map(encodedForms));
		const text = `a=${encodeURIComponent('tok/en+one')}&b=tok/en+one ${btoa('tok/en+one')} and nothing of the other`;
		expect(hideAll(search, text)).toEqual({ text: 'a=<0>&b=<0> <0> and nothing of the other', found: [0] });
		expect(hideAll(search, 'second-value-22 then tok/en+one')).toEqual({ text: '<1> then <0>', found: [0, 1] });
	});

	it('finds forms shorter than its prefix, and forms at the very start and end of a text', () => {
		const search = new FormSearch([['abc'], ['wxyz12'], ['longer-than-eight']]);
		expect(hideAll(search, 'abc-wxyz12-longer-than-eight')).toEqual({ text: '<0>-<1>-<2>', found: [0, 1, 2] });
		expect(hideAll(search, 'ab')).toEqual({ text: 'ab', found: [] });
		expect(hideAll(search, '')).toEqual({ text: '', found: [] });
	});

	it('hides overlapping occurrences together, with the replacement of the first value among them', () => {
		const search = new FormSearch([['secret-AAAA'], ['AAAA-token']]);
		expect(hideAll(search, 'x secret-AAAA-token y')).toEqual({ text: 'x <0> y', found: [0, 1] });
		expect(hideAll(search, 'x AAAA-token secret-AAAA y')).toEqual({ text: 'x <1> <0> y', found: [0, 1] });
	});

	it("searches a JSON text's decoded strings too, where an escape no form spells hides a value", () => {
		const search = new FormSearch([encodedForms('pass+word/1')]);
		const written = '{"note":"pass\\u002Bword\\/1","other":"kept"}';
		const { text, found } = hideAll(search, written);
		expect(found).toEqual([0]);
		expect(JSON.parse(text)).toEqual({ note: '<0>', other: 'kept' });
		expect(hideAll(search, '{"a":"no\\nsecret"}')).toEqual({ text: '{"a":"no\\nsecret"}', found: [] });
	});

	it('finds hundreds of values in one text, each where it is', () => {
		const values = Array.from({ length: 500 }, (_, i) => `token-${i.toString(36).padStart(4, '0')}-${'x'.repeat(i % 7)}`);
		const search = new FormSearch(values.map(encodedForms));
		const text = values.map((v, i) => (i % 2 === 0 ? v : encodeURIComponent(v))).join(' | ');
		const { text: hidden, found } = search.hide(text, () => '#');
		expect(found).toEqual(values.map((_, i) => i));
		expect(hidden).toBe(values.map(() => '#').join(' | '));
	});

	it('is empty without a form to look for', () => {
		expect(new FormSearch([[], ['']]).empty).toBe(true);
		expect(hideAll(new FormSearch([]), 'text')).toEqual({ text: 'text', found: [] });
	});
});
