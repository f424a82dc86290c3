/** Server-sent events (the `text/event-stream` format of the HTML standard): an event, a comment. */

/** One event: its name and its data as JSON (one `data:` line per line of it). */
export function sseEvent(name: string, data: unknown): string {
	const lines = [`event: ${oneLine(name)}`];
	for (const line of JSON.stringify(data).split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
	return `${lines.join('\n')}\n\n`;
}

/** A comment line: ignored by EventSource, it keeps an idle connection open through proxies. */
export function sseComment(text: string): string {
	return `: ${oneLine(text)}\n\n`;
}

/** A field's value may not hold a line break, which would end the field. */
function oneLine(text: string): string {
	return text.replace(/[\r\n]+/g, ' ');
}
