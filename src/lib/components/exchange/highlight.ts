/**
 * Syntax highlighting for exchanges, with shiki's fine-grained core: JSON, shell and our own HTTP message grammar,
 * two themes, the JavaScript regex engine (no WebAssembly). Components import this module dynamically so it never
 * weighs on the first page.
 * The high-contrast GitHub themes: the plain ones have tokens under WCAG's 4.5:1 on our code background.
 *
 * Dual themes with `defaultColor: false`: every token carries `--shiki-light` and `--shiki-dark` variables and the
 * stylesheet picks one, so switching the theme never re-highlights.
 */
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { HTTP_MESSAGE_GRAMMAR } from './httpGrammar';

export type HighlightLanguage = 'http' | 'json' | 'shellscript';

let highlighter: Promise<HighlighterCore> | null = null;

function getHighlighter(): Promise<HighlighterCore> {
	highlighter ??= createHighlighterCore({
		themes: [import('shiki/themes/github-light-high-contrast.mjs'), import('shiki/themes/github-dark-high-contrast.mjs')],
		langs: [import('shiki/langs/json.mjs'), import('shiki/langs/shellscript.mjs'), HTTP_MESSAGE_GRAMMAR],
		engine: createJavaScriptRegexEngine()
	});
	return highlighter;
}

/** HTML of a highlighted <pre>; the code's text is escaped by shiki. */
export async function highlight(code: string, lang: HighlightLanguage): Promise<string> {
	const shiki = await getHighlighter();
	return shiki.codeToHtml(code, {
		lang,
		themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
		defaultColor: false
	});
}
