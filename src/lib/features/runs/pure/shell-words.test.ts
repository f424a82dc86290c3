import { describe, expect, it } from 'vitest';
import { shellWords } from './shell-words';

const words = (text: string) => {
	const result = shellWords(text);
	return result.ok ? result.words : result.message;
};

describe('shellWords', () => {
	it('joins lines ended by a backslash', () => {
		expect(words("curl \\\n  -X POST \\\r\n  'https://a/b'")).toEqual(['curl', '-X', 'POST', 'https://a/b']);
	});
	it("keeps single-quoted text literal, and reads the '\\'' idiom", () => {
		expect(words(`echo 'a "b" $c' 'it'\\''s'`)).toEqual(['echo', 'a "b" $c', "it's"]);
	});
	it('unescapes only $ ` " \\ inside double quotes and expands nothing', () => {
		expect(words('echo "a \\"b\\" \\$HOME \\n $HOME"')).toEqual(['echo', 'a "b" $HOME \\n $HOME']);
	});
	it("reads $'…' quotes with their escapes", () => {
		expect(words("echo $'a\\nb\\x41\\u00e9\\''")).toEqual(['echo', "a\nbAé'"]);
	});
	it('joins adjacent quoted pieces into one word and reads a backslash escape outside quotes', () => {
		expect(words(`a'b'"c"d\\ e`)).toEqual(["abcd e"]);
	});
	it('says when a quote is not closed', () => {
		expect(words("curl 'https://a")).toMatch(/A ' quote is not closed/);
		expect(words('curl "https://a')).toMatch(/A " quote is not closed/);
	});
});
