/**
 * For the Markdown writers' tests: their output rendered as a ticket system would render it, and what in the
 * rendered HTML a hostile value could have added. markdown-it renders CommonMark with GFM tables and
 * strikethrough; raw HTML is on and bare URLs are linked, as in the ticket systems most lenient about both.
 */
import MarkdownIt from 'markdown-it';

const renderer = new MarkdownIt({ html: true, linkify: true });

export function renderMarkdown(markdown: string): string {
	return renderer.render(markdown);
}

/** The elements a report is made of; anything else (img, script, blockquote, hr, del, h4…) came from a value. */
const ALLOWED = new Set(['p', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'pre', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);

/** An attribute a report's own markup has: a link to an http(s) page, a fence's language. */
const ALLOWED_ATTRIBUTE = /^(?:href="https?:\/\/[^"]*"|class="language-[a-z]+")$/;

/** What the rendered `html` holds beyond a report's own kinds of markup: each offending tag, as written. */
export function unsafeMarkup(html: string): string[] {
	return [...html.matchAll(/<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)]
		.filter(([, tag, rest]) => {
			const attributes = rest!.trim() === '' ? [] : rest!.trim().split(/\s+(?=[\w-]+(?:=|\s|$))/);
			return !ALLOWED.has(tag!.toLowerCase()) || attributes.some((a) => !ALLOWED_ATTRIBUTE.test(a));
		})
		.map(([whole]) => whole!);
}

const REFERENCES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The rendered `html`'s text: tags removed, markdown-it's character references decoded. */
export function textOf(html: string): string {
	return html.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|quot|#39|amp);/g, (ref) => REFERENCES[ref]!);
}

/** Values that would open HTML or Markdown syntax, or close a code span or fence, if written as they are. */
export const HOSTILE_VALUES = [
	'<img src=x onerror=alert(1)>',
	'<script>alert(1)</script>',
	'<a href="javascript:alert(1)">click</a>',
	'<!-- hidden --><b>bold</b>',
	'&lt;img src=x onerror=alert(1)&gt;',
	'&#60;img src=x&#62;',
	'[click](javascript:alert(1))',
	'![x](https://evil.example/x.png)',
	'[ref]: https://evil.example',
	'<https://evil.example>',
	'**bold** __bold__ *em* _em_ ~~struck~~',
	'`code` ``x`` ```fence',
	'```\n<img src=x onerror=alert(1)>\n```',
	'a`<img src=x onerror=alert(1)>`b',
	'# heading',
	'###### six',
	'- item',
	'+ item',
	'* item',
	'1. item',
	'2) item',
	'> quote',
	'---',
	'===',
	'***',
	'| a | b |',
	'cell | break',
	'trailing backslash\\',
	'\\<img src=x onerror=alert(1)>',
	'line one\n# line two\n<img src=x onerror=alert(1)>',
	'carriage\r<script>alert(1)</script>',
	'    indented code',
	'~~~\nfence',
	'[^1]',
	'\\`<img src=x onerror=alert(1)>\\`'
];
