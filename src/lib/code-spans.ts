/**
 * The protocol model's one piece of markup: names and values in its texts are written in backticks
 * (`redirect_uri`). The components render those spans as <code>, the Markdown reports as code spans.
 */
export interface TextSpan {
	text: string;
	code: boolean;
}

export function codeSpans(text: string): TextSpan[] {
	return text
		.split('`')
		.map((part, index) => ({ text: part, code: index % 2 === 1 }))
		.filter((span) => span.text !== '');
}
