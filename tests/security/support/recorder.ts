/**
 * Everything the browser received in a context: each response's URL, status, headers and body as text. The
 * explorer's fetches (API answers, page data) are read through a route, because a page that navigates right after a
 * fetch (Open the authorisation page, the lesson, a download) makes the browser drop that body before it is read.
 */
import type { BrowserContext, Response } from '@playwright/test';

export interface Received {
	url: string;
	status: number;
	resourceType: string;
	headers: string;
	/** null when the browser keeps no body: a redirect, or a request it aborted. */
	body: string | null;
}

async function read(response: Response): Promise<Received> {
	const headers = (await response.headersArray()).map((h) => `${h.name}: ${h.value}`).join('\n');
	const body = await response.body().then(
		(buffer) => buffer.toString('utf8'),
		() => null
	);
	return { url: response.url(), status: response.status(), resourceType: response.request().resourceType(), headers, body };
}

/** Starts recording; `settle` waits for every body and returns them all. */
export async function recordResponses(context: BrowserContext, origin: string): Promise<{ settle(): Promise<Received[]> }> {
	const pending: Promise<Received>[] = [];
	const isFetch = (url: string, resourceType: string) => url.startsWith(origin) && (resourceType === 'fetch' || resourceType === 'xhr');
	await context.route(
		(url) => url.href.startsWith(origin),
		async (route) => {
			const request = route.request();
			if (!isFetch(request.url(), request.resourceType())) return route.continue();
			const response = await route.fetch({ maxRedirects: 0 });
			const body = await response.text();
			const headers = response.headersArray().map((h) => `${h.name}: ${h.value}`).join('\n');
			pending.push(Promise.resolve({ url: request.url(), status: response.status(), resourceType: request.resourceType(), headers, body }));
			await route.fulfill({ response, body });
		}
	);
	context.on('response', (response) => {
		if (!isFetch(response.url(), response.request().resourceType())) pending.push(read(response));
	});
	return { settle: () => Promise.all(pending) };
}
