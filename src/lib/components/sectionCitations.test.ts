import { describe, expect, it } from 'vitest';
import { citedSpans, sectionHref } from './sectionCitations';

describe('sectionHref', () => {
	it("gives a section's own anchor, an item's section, and a chapter's first section", () => {
		expect(sectionHref('7.2')).toBe('/reference#section-7.2');
		expect(sectionHref('4.1.1')).toBe('/reference#section-4.1.1');
		expect(sectionHref('5.6')).toBe('/reference#section-5');
		expect(sectionHref('7')).toBe('/reference#section-7.1');
		expect(sectionHref('12')).toBeUndefined();
	});
});

describe('citedSpans', () => {
	it('links "section N", "Section N" and a dotted number in parentheses', () => {
		expect(citedSpans('This is section 7.1, row x. A code works once (2.2); see Section 3.')).toEqual([
			{ text: 'This is ' },
			{ text: 'section 7.1', href: '/reference#section-7.1' },
			{ text: ', row x. A code works once (' },
			{ text: '2.2', href: '/reference#section-2.2' },
			{ text: '); see ' },
			{ text: 'Section 3', href: '/reference#section-3' },
			{ text: '.' }
		]);
	});

	it('leaves counts, durations and versions alone', () => {
		for (const text of ['redacted the cookie (1 place)', 'retried (2)', 'took (1.2 s)', 'HTTP/1.1 200', 'section 12 of a contract']) {
			expect(citedSpans(text)).toEqual([{ text }]);
		}
		expect(citedSpans("the service's cancel carries neither (3).")[1]).toEqual({ text: '3', href: '/reference#section-3' });
	});
});
