/**
 * Markdown export injection: a HAR with hostile status texts, headers, URLs, bodies and client id, and then the
 * same run in the explorer's own HAR format with a hostile title and step labels, is imported through the app and
 * its Markdown report fetched. Rendered as the most lenient ticket system would render it (raw HTML allowed) and
 * opened in Chromium, the report holds no element or attribute of a payload and runs nothing; the payloads are
 * there as text, the status text in the verdict line and the step lines.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown, unsafeMarkup } from '../../src/lib/markdown-testing';
import { ExplorerSession } from './support/explorer';
import { HOSTILE, PAYLOADS, expectInert, poisonHar } from './support/hostile';
import { EXPLORER } from './support/ports';

interface HarFile {
	log: { entries: { request: { url: string }; response: { status: number; statusText: string }; _ssoFlowExplorer?: { exchange?: { label: string } } }[]; _ssoFlowExplorer?: { title: string } };
}

/** The success fixture poisoned everywhere, its client id hostile, and me.json answering a status the interface has no row for. */
function hostileHar(): string {
	const har = JSON.parse(poisonHar(readFileSync(join(process.cwd(), 'src', 'lib', 'features', 'runs', 'pure', 'har', 'fixtures', 'success.har.json'), 'utf8'))) as HarFile;
	for (const { request } of har.log.entries) request.url = request.url.replace('client_id=shop-client', `client_id=${encodeURIComponent(HOSTILE)}`);
	const me = har.log.entries.find((e) => e.request.url.includes('/api/v3/me.json'))!;
	me.response.status = 418;
	me.response.statusText = HOSTILE;
	return JSON.stringify(har);
}

async function importHar(session: ExplorerSession, text: string): Promise<string> {
	const imported = await session.post<{ id?: string; message?: string }>('/api/import', { kind: 'har', text });
	expect(imported.status, imported.text).toBe(200);
	return imported.body.id!;
}

const markdownOf = async (session: ExplorerSession, id: string) => (await session.request(`/runs/${id}/export/markdown`)).text();

test('a hostile HAR\'s Markdown report renders inert where HTML is allowed, its values shown as text', async ({ page }) => {
	const session = await new ExplorerSession(EXPLORER).open();
	const first = await importHar(session, hostileHar());

	// The same run in the explorer's own format, whose title and step labels the file sets.
	const own = JSON.parse(await (await session.request(`/runs/${first}/export/har`)).text()) as HarFile;
	own.log._ssoFlowExplorer!.title = HOSTILE;
	for (const entry of own.log.entries) if (entry._ssoFlowExplorer?.exchange) entry._ssoFlowExplorer.exchange.label = HOSTILE;
	const second = await importHar(session, JSON.stringify(own));

	const dialogs: string[] = [];
	page.on('dialog', async (dialog) => {
		dialogs.push(dialog.message());
		await dialog.dismiss();
	});
	for (const id of [first, second]) {
		const markdown = await markdownOf(session, id);
		// The status text is quoted outside code, escaped: in the verdict line and after the step's request.
		expect(markdown).toMatch(/^\*\*What went wrong:\*\* .*418 .*&lt;script&gt;window\.\\_\\_pwned=1&lt;\/script&gt;/m);
		expect(markdown).toMatch(/^`GET https:\/\/accounts\.example\.com\/api\/v3\/me\.json\?x=[^`]*` → 418 .*&lt;img src=x onerror="window\.\\_\\_pwned=1"&gt;/m);
		const html = renderMarkdown(markdown);
		expect(unsafeMarkup(html)).toEqual([]);
		await page.setContent(`<!doctype html><title>ticket</title><body>${html}</body>`);
		await expectInert(page, `the report of run ${id}, rendered`);
		const text = await page.locator('body').innerText();
		for (const payload of PAYLOADS) expect(text).toContain(payload);
	}
	const titled = renderMarkdown(await markdownOf(session, second));
	await page.setContent(titled);
	expect(await page.locator('h1').innerText()).toBe(HOSTILE);
	expect(await page.locator('h3').first().innerText()).toBe(`1. link: ${HOSTILE}`);
	expect(dialogs).toEqual([]);
});
