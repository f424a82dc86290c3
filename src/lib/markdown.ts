/**
 * Markdown from values we do not control: a HAR's status text and headers, URLs, page titles, the diagnosis's texts
 * that quote them. Every Markdown writer goes through these, so that a value pasted into a ticket system can open no
 * HTML and no Markdown syntax outside code, and cannot close the code span or fence it is put in.
 */
import { codeSpans } from './code-spans';

/** A value on one line: a line break in it would start a block of its own. */
export const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

/** Quotes matter only inside an attribute, which no value reaches: links and images cannot open. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Characters that mean something anywhere in a line: code, emphasis, strikethrough, links and images, table cells,
 * and the backslash itself. `_` between letters or digits is left alone (it cannot emphasise there), so that
 * `invalid_grant` stays readable.
 */
const INLINE_SYNTAX = /[\\`*~[\]|]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

/**
 * What can open a block where a value starts a line or follows a list marker: a heading (#), a list item (+, -,
 * "1." or "1)" then a space), a setext underline or thematic break (=, -). >, *, _, ` and ~ are escaped anywhere.
 */
const BLOCK_START = /^(?:([#+=-])|(\d+)([.)])(?=\s|$))/;

const inline = (text: string) => text.replace(/[&<>]/g, (c) => ENTITIES[c]!).replace(INLINE_SYNTAX, (c) => `\\${c}`);

const guardBlockStart = (escaped: string) =>
	escaped.replace(BLOCK_START, (_, marker?: string, digits?: string, dot?: string) => (marker ? `\\${marker}` : `${digits}\\${dot}`));

/**
 * A value as plain text outside code: on one line, trimmed (leading spaces would indent it into a code block),
 * HTML-significant characters as character references, Markdown syntax backslash-escaped.
 */
export function mdText(value: string): string {
	return guardBlockStart(inline(oneLine(value).trim()));
}

const longestRun = (text: string) => Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));

/**
 * A value as an inline code span: between one backtick more than its longest run of them, padded with a space
 * when it starts or ends with a backtick, or with a space on both sides (a span strips one pair of spaces). An
 * empty value is a span of one space. Not for table cells, where `|` still splits the cell.
 */
export function mdCode(value: string): string {
	const text = oneLine(value);
	if (text === '') return '` `';
	const ticks = '`'.repeat(longestRun(text) + 1);
	const pad = /^`|`$/.test(text) || /^ .*[^ ].* $/s.test(text) ? ' ' : '';
	return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A fenced code block whose fence is longer than any run of backticks in `text`. */
export function mdFence(text: string, lang = ''): string {
	const fence = '`'.repeat(Math.max(3, longestRun(text) + 1));
	return `${fence}${lang}\n${text}\n${fence}`;
}

/**
 * A text of the protocol model or the diagnosis (its backticked spans as code, see code-spans.ts), whatever values
 * it quotes: each span between backticks becomes a code span, the rest plain text. A value with a backtick of its
 * own shifts which parts are code, never what is escaped.
 */
export function mdProse(text: string): string {
	return guardBlockStart(
		codeSpans(oneLine(text).trim())
			.map((span) => (span.code ? mdCode(span.text) : inline(span.text)))
			.join('')
	);
}
