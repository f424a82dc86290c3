/**
 * Everything the browser received in a context: each response's URL, status, headers and body as text.
 *
 * Responses are passed through a route: Playwright fetches each one, keeps a copy, and hands it to the page
 * unchanged. Reading bodies from `response` events instead loses the ones a navigation overtakes (a fetch followed
 * at once by `location.assign`), which are exactly the ones worth searching.
 */
import type { BrowserContext } from '@playwright/test';

export interface Received {
	url: string;
	status: number;
	resourceType: string;
	headers: string;
	body: string;
}

export interface ResponseLog {
	received: Received[];
	/** Requests that failed to be fetched at all (they reached the page as network errors). */
	failures: string[];
}

export async function recordResponses(context: BrowserContext): Promise<ResponseLog> {
	const log: ResponseLog = { received: [], failures: [] };
	await context.route('**/*', async (route) => {
		const request = route.request();
		try {
			// Redirects reach the page as redirects, so it follows them (and sends its cookies) as it would.
			const response = await route.fetch({ maxRedirects: 0 });
			const body = await response.body();
			log.received.push({
				url: request.url(),
				status: response.status(),
				resourceType: request.resourceType(),
				headers: response.headersArray().map((h) => `${h.name}: ${h.value}`).join('\n'),
				body: body.toString('utf8')
			});
			await route.fulfill({ response, body });
		} catch (error) {
			log.failures.push(`${request.url()}: ${String(error)}`);
			await route.abort().catch(() => undefined);
		}
	});
	return log;
}
