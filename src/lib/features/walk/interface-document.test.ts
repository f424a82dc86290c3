import { describe, expect, it } from 'vitest';
import { interfaceDocument, renderSections, splitSections } from './interface-document';

describe('the interface document on the reference page', () => {
	it('cuts a document at its numbered headings, each subsection a section of its own', () => {
		const sections = splitSections('# Title\nintro\n## 1. One\nfirst\n### 1.1 Sub\nsecond\n## 2. Two\nthird\n');
		expect(sections).toEqual([
			{ number: '1', title: 'One', body: 'first' },
			{ number: '1.1', title: 'Sub', body: 'second' },
			{ number: '2', title: 'Two', body: 'third' }
		]);
	});

	it('holds every section the interface numbers, in order, with its own words', () => {
		const sections = interfaceDocument();
		const numbers = sections.map((s) => s.number);
		expect(numbers).toEqual(expect.arrayContaining(['1', '2.2', '4.1.1', '7.1', '7.2', '7.3', '8', '9']));
		expect(numbers.indexOf('7.2')).toBeGreaterThan(numbers.indexOf('7.1'));
		expect(sections.find((s) => s.number === '7.2')!.html).toContain('invalid_grant');
	});

	it('shows raw HTML in the document as text', () => {
		const [section] = renderSections('## 1. A\n<script>alert(1)</script> and <b>bold</b>\n');
		expect(section!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
		expect(section!.html).not.toContain('<b>');
	});
});
