/**
 * The page's side of highlight.worker.ts: one worker, started on the first request, answering by id. Where a
 * worker cannot start, highlighting runs on the page as before.
 */
import type { HighlightLanguage } from './highlight';
import type { HighlightAnswer, HighlightRequest } from './highlight.worker';

let worker: Worker | null = null;
/** Set once the worker failed to load: from then on, highlighting runs on the page. */
let failed = false;
let nextId = 0;
const waiting = new Map<number, (html: string | null) => void>();

function startWorker(): Worker | null {
	try {
		const started = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' });
		started.onmessage = ({ data }: MessageEvent<HighlightAnswer>) => {
			waiting.get(data.id)?.(data.html);
			waiting.delete(data.id);
		};
		started.onerror = () => {
			// The worker could not load: everything waiting stays plain, and later requests run on the page.
			for (const answer of waiting.values()) answer(null);
			waiting.clear();
			worker = null;
			failed = true;
		};
		return started;
	} catch {
		return null;
	}
}

/** Highlighted HTML for `code`, or null when it could not be highlighted (the caller shows the plain text). */
export function highlightOffThread(code: string, lang: HighlightLanguage): Promise<string | null> {
	if (!failed) worker ??= startWorker();
	if (!worker) {
		return import('./highlight').then(({ highlight }) => highlight(code, lang)).catch(() => null);
	}
	const id = nextId++;
	const request: HighlightRequest = { id, code, lang };
	return new Promise((resolve) => {
		waiting.set(id, resolve);
		worker!.postMessage(request);
	});
}
