/**
 * A token in the browser: what the evidence showed, why it is a fault, and the fix. The engine's token-to-browser
 * finding and the app check's say it in the same words. A leaf: the live page's app check imports it.
 */

/** How an answer was seen to carry a token: the name it goes by there. */
export interface TokenInAnswer {
	name: string;
	/** What shows it: a named field, a storage write, or a literal ending with the tail of a token the service issued. */
	by: 'field' | 'storage' | 'tail';
}

const HANDED: Record<TokenInAnswer['by'], (name: string) => string> = {
	field: (name) => `an \`${name}\``,
	storage: (name) => `what looks like an access token: its script writes a token-like value into the browser's storage under \`${name}\``,
	tail: () => 'an access token: a value ending with the tail of the token the service issued to your app'
};

/** What the browser was handed, as the evidence shows it: "an `access_token`", "what looks like an access token: …". */
export const handedWords = (found: TokenInAnswer) => HANDED[found.by](found.name);

/** What anyone holding the browser's copy can do with it. */
export const TOKEN_IN_BROWSER_RISK = "Anything the browser gets, its scripts, extensions and history can read, and the token lets anyone read the user's verification data.";

export const KEEP_TOKENS_ON_SERVER = 'Keep the tokens on your server (in its session store) and give the browser only your own session cookie; read me.json from the server.';
