/**
 * Splits a pasted POSIX shell command into words, as the shell would before running it: `\` line continuations,
 * '…' literal quotes, "…" quotes with their few escapes, $'…' ANSI-C quotes (DevTools' "Copy as cURL" writes
 * them), and backslash escapes. Nothing is expanded: `$VAR` stays as written.
 */

export type ShellWords = { ok: true; words: string[] } | { ok: false; message: string };

const ANSI_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v', '0': '\0' };

/** The body of a $'…' quote from `start` (just after the opening quote): its text and the index after the closing quote. */
function ansiQuote(text: string, start: number): { value: string; end: number } | null {
	let value = '';
	let i = start;
	while (i < text.length) {
		const c = text[i]!;
		if (c === "'") return { value, end: i + 1 };
		if (c !== '\\') {
			value += c;
			i += 1;
			continue;
		}
		const next = text[i + 1] ?? '';
		const hex = next === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2)) : next === 'u' ? /^[0-9a-fA-F]{1,4}/.exec(text.slice(i + 2)) : null;
		if (hex) {
			value += String.fromCharCode(parseInt(hex[0], 16));
			i += 2 + hex[0].length;
		} else {
			value += ANSI_ESCAPES[next] ?? `\\${next}`;
			i += 2;
		}
	}
	return null;
}

export function shellWords(command: string): ShellWords {
	const text = command.replace(/\\\r?\n/g, '');
	const words: string[] = [];
	let word: string | null = null;
	let i = 0;
	const unclosed = (quote: string) => ({
		ok: false as const,
		message: `A ${quote} quote is not closed. Copy the whole command again; it may have been cut off.`
	});
	while (i < text.length) {
		const c = text[i]!;
		if (/\s/.test(c)) {
			if (word !== null) words.push(word);
			word = null;
			i += 1;
		} else if (c === "'") {
			const end = text.indexOf("'", i + 1);
			if (end === -1) return unclosed("'");
			word = (word ?? '') + text.slice(i + 1, end);
			i = end + 1;
		} else if (c === '$' && text[i + 1] === "'") {
			const quoted = ansiQuote(text, i + 2);
			if (!quoted) return unclosed("$'");
			word = (word ?? '') + quoted.value;
			i = quoted.end;
		} else if (c === '"') {
			let value = '';
			let j = i + 1;
			while (j < text.length && text[j] !== '"') {
				// Inside "…", a backslash escapes only $ ` " \ (the newline case went with the continuations).
				if (text[j] === '\\' && /[$`"\\]/.test(text[j + 1] ?? '')) j += 1;
				value += text[j];
				j += 1;
			}
			if (j >= text.length) return unclosed('"');
			word = (word ?? '') + value;
			i = j + 1;
		} else if (c === '\\') {
			word = (word ?? '') + (text[i + 1] ?? '');
			i += 2;
		} else {
			word = (word ?? '') + c;
			i += 1;
		}
	}
	if (word !== null) words.push(word);
	return { ok: true, words };
}
