/**
 * The protocol model writes parameter names in backticks (`redirect_uri`). Components render those spans as
 * <code> without ever interpreting the text as HTML.
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
