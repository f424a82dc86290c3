/** Components render the protocol model's backticked spans as <code>, never interpreting the text as HTML. */
export { codeSpans, type TextSpan } from '$lib/code-spans';
