import { describe, expect, it } from 'vitest';
import { sseComment, sseEvent } from './sse';

/** Reads events back as EventSource does (HTML standard 9.2.6), for the fields these use. */
function parse(stream: string): { event: string; data: string }[] {
	return stream
		.split('\n\n')
		.filter((block) => block !== '')
		.flatMap((block) => {
			const lines = block.split('\n').filter((line) => !line.startsWith(':'));
			if (lines.length === 0) return [];
			const field = (name: string) => lines.filter((l) => l.startsWith(`${name}: `)).map((l) => l.slice(name.length + 2));
			return [{ event: field('event')[0] ?? 'message', data: field('data').join('\n') }];
		});
}

describe('server-sent events', () => {
	it('writes an event whose data reads back as the JSON given, line breaks in values included', () => {
		const data = { message: 'two\nlines', n: 1 };
		const text = sseEvent('flow', data);
		expect(text.endsWith('\n\n')).toBe(true);
		expect(parse(text)).toEqual([{ event: 'flow', data: JSON.stringify(data) }]);
		expect(JSON.parse(parse(text)[0]!.data)).toEqual(data);
	});

	it('keeps a name or comment on one line, so it cannot end the event or forge a field', () => {
		expect(parse(sseEvent('a\ndata: forged', 1))).toEqual([{ event: 'a data: forged', data: '1' }]);
		const comment = sseComment('keep\nalive');
		expect(comment).toBe(': keep alive\n\n');
		expect(parse(comment + sseEvent('x', null))).toEqual([{ event: 'x', data: 'null' }]);
	});
});
