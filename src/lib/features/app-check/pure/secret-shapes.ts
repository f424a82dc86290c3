/**
 * Secrets an app prints under names the interface does not use: `"clientSecret":"…"`, `OAUTH_CLIENT_SECRET=…`,
 * `client-secret: …`, `API key: …`, or in a sentence, "the secret is …". A name is read in any naming style
 * (camelCase, kebab, snake, SCREAMING environment variables, dotted, words), and judged by its last word; its value
 * may be quoted as JSON, as JSON inside a string, HTML-escaped or URL-encoded. The value is masked, the name and
 * the quotes kept, so the report still says what the app printed.
 */

/** Last words of a name that hold a secret on their own. */
const SECRET_WORDS = new Set(['secret', 'secrets', 'password', 'passwords', 'passwd', 'pwd', 'passphrase', 'token', 'tokens', 'credential', 'credentials', 'apikey']);
/** `key` holds a secret after one of these (`apiKey`, `private_key`, `SANDBOX_WORKSPACE_KEY`), not alone (`group key`). */
const KEY_QUALIFIERS = new Set(['api', 'private', 'secret', 'access', 'workspace', 'admin', 'signing', 'client', 'encryption', 'session', 'master', 'app']);

/** The words of a name: `OAUTH_CLIENT_SECRET`, `clientSecret`, `client-secret`, `client.secret` → …, `client`, `secret`. */
export function nameWords(name: string): string[] {
	return name
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(/[^A-Za-z0-9]+/)
		.filter((word) => word !== '')
		.map((word) => word.toLowerCase());
}

/** Whether a value named `name` (with the word written before it, in prose) is a secret. */
export function isSecretName(name: string, wordBefore = ''): boolean {
	const words = [...nameWords(wordBefore), ...nameWords(name)];
	const last = words.at(-1) ?? '';
	if (SECRET_WORDS.has(last) || /(?:secret|password|passwd)$/.test(last)) return true;
	return last === 'key' && KEY_QUALIFIERS.has(words.at(-2) ?? '');
}

/** The ways a quote is written: as is, escaped inside a JSON string, HTML-escaped, URL-encoded; and backticks. */
const QUOTES = ['"', "'", '\\"', '&quot;', '&#34;', '&#x22;', '%22', '`'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const QUOTE = QUOTES.map(escape).join('|');
/** What comes between a name and its value: `:`, `=`, `=>`, `:=` (also encoded), a tab (a table's cells), `is`/`was` (prose). */
const SEPARATOR = '\\s*(?:=>|:=|[:=]|%3[AaDd]|&#58;|&#61;)\\s*|\\t+|\\s+(?:is|was|are|were)\\s*:?\\s+';
/** A name (after a non-name character other than `/`, a path's, or after a %XX escape), its closing quote, the separator. */
const NAME_THEN_SEPARATOR = new RegExp(`(?:(?<=%[0-9A-Fa-f]{2})|(?<![A-Za-z0-9_./-]))([A-Za-z][A-Za-z0-9_.-]*)(?:${QUOTE})?(?:${SEPARATOR})`, 'g');
/** A value: quoted in any of the forms (up to the same quote, on one line), or a run up to a space or a delimiter. */
/** Inside a JSON string a `\"` does not end it; in the other quotes, the quote does. */
const quoted = (q: string) => (q === '"' ? '"(?:[^"\\\\\\n]|\\\\.)*"' : `${escape(q)}(?:(?!${escape(q)})[^\\n])*${escape(q)}`);
const VALUE = new RegExp(`(${QUOTES.map(quoted).join('|')})|[^\\s"'<>,;&)\\]}\`\\\\]+`, 'y');

/** The quote a quoted value is written in, or null. */
function quoteOf(value: string): string | null {
	return QUOTES.filter((q) => value.length >= 2 * q.length && value.startsWith(q) && value.endsWith(q)).sort((a, b) => b.length - a.length)[0] ?? null;
}

/** `text` with the value of every secret-like name replaced by `mask`. */
export function maskSecretShapes(text: string, mask: string): string {
	let out = '';
	let copied = 0;
	NAME_THEN_SEPARATOR.lastIndex = 0;
	for (let match = NAME_THEN_SEPARATOR.exec(text); match; match = NAME_THEN_SEPARATOR.exec(text)) {
		const before = /([A-Za-z]+) $/.exec(text.slice(Math.max(0, match.index - 40), match.index))?.[1];
		const valueAt = match.index + match[0].length;
		if (!isSecretName(match[1]!, before)) {
			// Only the name and separator are passed over: a value may hold a secret's name of its own.
			NAME_THEN_SEPARATOR.lastIndex = valueAt;
			continue;
		}
		VALUE.lastIndex = valueAt;
		const value = VALUE.exec(text)?.[0] ?? '';
		const quote = quoteOf(value);
		// A sentence's full stop or colon is not part of the value.
		const inner = quote ? value.slice(quote.length, -quote.length) : value.replace(/[.!?:]+$/, '');
		if (inner === '') {
			NAME_THEN_SEPARATOR.lastIndex = valueAt;
			continue;
		}
		const start = valueAt + (quote ? quote.length : 0);
		out += text.slice(copied, start) + mask;
		copied = start + inner.length;
		NAME_THEN_SEPARATOR.lastIndex = valueAt + value.length;
	}
	return out + text.slice(copied);
}
