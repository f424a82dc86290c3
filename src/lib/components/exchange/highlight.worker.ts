/**
 * Highlighting in a worker: loading shiki and compiling its grammars takes about a tenth of a second, and a large
 * response body takes a while to highlight; neither may hold up the page (clicks, scrolling, the next step).
 */
import { highlight, type HighlightLanguage } from './highlight';

export interface HighlightRequest {
	id: number;
	code: string;
	lang: HighlightLanguage;
}

export interface HighlightAnswer {
	id: number;
	/** Null when highlighting failed: the plain text stays, which says the same. */
	html: string | null;
}

self.onmessage = async ({ data }: MessageEvent<HighlightRequest>) => {
	let html: string | null = null;
	try {
		html = await highlight(data.code, data.lang);
	} catch {
		// Decoration only; answered with null below.
	}
	self.postMessage({ id: data.id, html } satisfies HighlightAnswer);
};
