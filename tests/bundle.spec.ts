/**
 * What each page ships to the browser: no zod. The server reads every body against the schemas and the pages show
 * its annotations, so a page that imports a schema (or `$lib/protocol/schemas` through another module) would add
 * about 25 KB gzipped for nothing. `npm run bench` reports the sizes; this says which library is not welcome.
 */
import { expect, test } from '@playwright/test';
import { authorise, callMe, exchange } from './support/walk';

const ZOD_MARKERS = ['ZodError', '$ZodType'];

test('no page loads zod, before or after a full walk', async ({ page }) => {
	const scripts = new Map<string, string>();
	page.on('response', async (response) => {
		if (response.request().resourceType() !== 'script') return;
		scripts.set(response.url(), await response.text().catch(() => ''));
	});
	for (const path of ['/reference', '/learn/cancel', '/runs', '/scenarios', '/sandbox']) await page.goto(path, { waitUntil: 'networkidle' });
	await authorise(page);
	await exchange(page);
	await callMe(page);
	await page.waitForLoadState('networkidle');

	expect(scripts.size).toBeGreaterThan(10);
	const withZod = [...scripts].filter(([, text]) => ZOD_MARKERS.some((marker) => text.includes(marker))).map(([url]) => url);
	expect(withZod).toEqual([]);
});
