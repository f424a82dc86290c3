/** Everything the browser received in a context: each response's URL, status, headers and body as text. */
import type { BrowserContext, Response } from '@playwright/test';

export interface Received {
	url: string;
	status: number;
	resourceType: string;
	headers: string;
	/** null when the browser keeps no body: a redirect, or a request it aborted. */
	body: string | null;
}

export interface ResponseLog {
	/** Waits for every body, then returns them all. */
	settle(): Promise<Received[]>;
}

async function read(response: Response): Promise<Received> {
	const headers = (await response.headersArray()).map((h) => `${h.name}: ${h.value}`).join('\n');
	const body = await response.body().then(
		(buffer) => buffer.toString('utf8'),
		() => null
	);
	return { url: response.url(), status: response.status(), resourceType: response.request().resourceType(), headers, body };
}

/** Starts recording; the body of each response is read as soon as it arrives, before a navigation drops it. */
export function recordResponses(context: BrowserContext): ResponseLog {
	const pending: Promise<Received>[] = [];
	context.on('response', (response) => pending.push(read(response)));
	return { settle: () => Promise.all(pending) };
}
