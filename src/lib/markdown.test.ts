import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mdCode, mdFence, mdProse, mdText, oneLine } from './markdown';
import { HOSTILE_VALUES, renderMarkdown, textOf, unsafeMarkup } from './markdown-testing';
import { FUZZ_SETTINGS } from './fuzzing';

/** Where a writer puts a value outside code: a heading, a list item, after bold text, a link's text. */
const PLACES = [(v: string) => `### 1. ${v}`, (v: string) => `- ${v}`, (v: string) => `**What went wrong:** ${v}`, (v: string) => `Row: [${v}](https://x.example/r)`];

const rendered = (markdown: string) => renderMarkdown(markdown);
/** The text a reader sees, its outer whitespace aside (a paragraph drops it). */
const seen = (markdown: string) => textOf(rendered(markdown)).trim();

describe('mdText', () => {
	it.each(HOSTILE_VALUES)('%j renders as exactly its text, in every place, and adds no markup', (value) => {
		for (const place of PLACES) {
			const markdown = place(mdText(value));
			expect(unsafeMarkup(rendered(markdown)), markdown).toEqual([]);
			expect(seen(markdown)).toBe(seen(place('VALUE')).replace('VALUE', oneLine(value).trim()));
		}
	});

	it('leaves ordinary text readable: snake_case, dots, parentheses, hyphens and quotes are not escaped', () => {
		expect(mdText('400 invalid_grant (7.2: used), "re-sent" at 10:00')).toBe('400 invalid_grant (7.2: used), "re-sent" at 10:00');
	});

	it('writes HTML-significant characters as character references, and escapes Markdown syntax with backslashes', () => {
		expect(mdText('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
		expect(mdText('a & b')).toBe('a &amp; b');
		expect(mdText('*x* _y_ [z](u) `c` ~s~ | \\')).toBe('\\*x\\* \\_y\\_ \\[z\\](u) \\`c\\` \\~s\\~ \\| \\\\');
		expect(mdText('# h')).toBe('\\# h');
		expect(mdText('12. item')).toBe('12\\. item');
	});

	it('any text at all adds no markup and reads as itself', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), (value) => {
				const markdown = `- ${mdText(value)}`;
				expect(unsafeMarkup(rendered(markdown))).toEqual([]);
				expect(seen(markdown)).toBe(oneLine(value).trim());
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('mdCode', () => {
	it.each(HOSTILE_VALUES)('%j stays inside one code span, exactly', (value) => {
		const html = rendered(`Link: ${mdCode(value)} → 200`);
		expect(unsafeMarkup(html)).toEqual([]);
		expect(html.match(/<code>/g)).toHaveLength(1);
		expect(textOf(/<code>(.*)<\/code>/s.exec(html)![1]!)).toBe(oneLine(value));
	});

	it('uses one backtick more than the longest run in the value, padded when the value starts or ends with one', () => {
		expect(mdCode('a`b``c')).toBe('```a`b``c```');
		expect(mdCode('`x`')).toBe('`` `x` ``');
		expect(mdCode('https://x.example/cb?code=1')).toBe('`https://x.example/cb?code=1`');
		const inSpan = (markdown: string) => textOf(/<code>(.*)<\/code>/s.exec(rendered(markdown))![1]!);
		expect(inSpan(`- ${mdCode(' both sides ')}`)).toBe(' both sides ');
		expect(inSpan(`- ${mdCode(' ')}`)).toBe(' ');
		expect(inSpan(`- ${mdCode('')}`)).toBe(' ');
	});

	it('any text at all stays inside one code span, exactly', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), (value) => {
				const html = rendered(`- ${mdCode(value)}`);
				expect(unsafeMarkup(html)).toEqual([]);
				expect(textOf(/<code>(.*)<\/code>/s.exec(html)?.[1] ?? 'no code span')).toBe(oneLine(value) === '' ? ' ' : oneLine(value));
			}),
			FUZZ_SETTINGS
		);
	});
});

describe('mdFence', () => {
	it('keeps every line of the text inside one block, whatever backticks or tildes it holds', () => {
		const text = HOSTILE_VALUES.join('\n');
		const html = rendered(`Before\n\n${mdFence(text, 'http')}\n\nAfter <b>`);
		expect(html.match(/<pre>/g)).toHaveLength(1);
		// A carriage return ends a line in Markdown as a line feed does.
		expect(textOf(/<pre><code class="language-http">(.*)<\/code><\/pre>/s.exec(html)![1]!)).toBe(`${text.replace(/\r/g, '\n')}\n`);
		expect(mdFence('a ````` b').split('\n')[0]).toBe('``````');
	});
});

describe('mdProse', () => {
	it("keeps the model's backticked names as code and escapes the rest", () => {
		expect(mdProse('Exchange 3 (me.json) sends no `User-Agent` header <b>.')).toBe('Exchange 3 (me.json) sends no `User-Agent` header &lt;b&gt;.');
	});

	it.each(HOSTILE_VALUES)('a diagnosis quoting %j, in code or in prose, adds no markup', (value) => {
		for (const text of [`The redirect carries \`error=${value}\` ("${value}").`, `${value}: not in the interface's tables`, `its path is \`${value}\` in the link but \`/b\` here`]) {
			for (const place of PLACES) expect(unsafeMarkup(rendered(place(mdProse(text)))), text).toEqual([]);
		}
	});
});
