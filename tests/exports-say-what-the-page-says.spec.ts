/**
 * The exports a support engineer attaches to a ticket, downloaded from the run page as they would be, at a laptop's
 * width and a phone's (issue 27, point 5): the report gives the permalink and the cause once, shows no browser
 * headers, and names the grant code as the page does; a browser's HAR, where no token exchange was recorded,
 * gives a script that says there is nothing to replay and how to get a code; the script replays no browser header.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { EXPLORER, authorise, open, tamper } from './support/walk';
import { VIEWPORTS } from './support/viewports';

/** The export behind a run page's button, downloaded by clicking it. */
async function download(page: Page, testId: 'export-markdown' | 'export-shell'): Promise<string> {
	const downloading = page.waitForEvent('download');
	await page.getByTestId(testId).click();
	return readFile((await (await downloading).path())!, 'utf8');
}

/** The items of the report's "Redacted" section, as plain text. */
function redactedItems(markdown: string): string[] {
	return markdown
		.slice(markdown.indexOf('## Redacted'))
		.split('\n')
		.filter((line) => line.startsWith('- '))
		.map((line) => line.slice(2).replace(/\\(.)/g, '$1'));
}

/** Imports a HAR as the runs page's JSON form does; the run's page. */
async function importHar(page: Page, text: string): Promise<string> {
	const answer = await page.request.post('/api/import', { data: { kind: 'har', text } });
	expect(answer.status(), await answer.text()).toBe(200);
	return `/runs/${((await answer.json()) as { id: string }).id}`;
}

interface Har {
	log: { entries: { request: { headers: { name: string; value: string }[] } }[] };
}

const CHROMIUM_HEADERS = [
	{ name: 'Accept-Encoding', value: 'gzip, deflate, br, zstd' },
	{ name: 'Origin', value: 'http://localhost:3000' },
	{ name: 'Sec-Fetch-Mode', value: 'navigate' },
	{ name: 'Sec-Fetch-Site', value: 'cross-site' },
	{ name: 'Sec-Ch-Ua-Platform', value: '"Linux"' }
];

const BROWSER_HEADERS = /^(Accept-Encoding|Origin|Sec-Fetch-[\w-]+|Sec-Ch-[\w-]+|Cookie|Referer|Upgrade-Insecure-Requests):/im;

for (const viewport of VIEWPORTS) {
	test.describe(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => {
		test.use({ viewport: { width: viewport.width, height: viewport.height } });

		test("a browser's HAR: the report shows no browser header, the permalink and cause once; the script says there is nothing to replay", async ({ page }) => {
			// A hand-made browser HAR (cookies, Host, Accept: text/html), with what Chromium adds to each request.
			const har = JSON.parse(await readFile('src/lib/features/runs/pure/har/fixtures-browser/good.har.json', 'utf8')) as Har;
			for (const { request } of har.log.entries) request.headers.push(...CHROMIUM_HEADERS);
			const runPath = await importHar(page, JSON.stringify(har));
			await open(page, runPath);
			const permalink = `${EXPLORER}${runPath}`;
			const cause = (await page.getByTestId('verdict-cause').innerText()).trim();

			const markdown = await download(page, 'export-markdown');
			expect(markdown).toContain(`- Permalink: ${permalink}\n`);
			expect(markdown.split(`${permalink}\n`)).toHaveLength(2);
			expect(markdown.split(`${permalink}/export/`)).toHaveLength(3); // the two exports' links
			expect(markdown).not.toMatch(BROWSER_HEADERS);
			expect(markdown.match(/^- Likely cause: /gm)).toHaveLength(1);
			expect(markdown.split(cause.slice(0, 40))).toHaveLength(2);

			const script = await download(page, 'export-shell');
			expect(script).toContain("# Nothing to replay: this run recorded only the browser's steps");
			expect(script).toContain('# To get a grant code: open the authorisation link above in a browser and sign in');
			expect(script).not.toMatch(/^\s*(curl|send) /m);
			expect(script).toMatch(/^exit 1$/m);
		});

		test("a token exchange from a browser: the script replays it without the browser's headers", async ({ page }) => {
			const har = await readFile('src/lib/features/runs/pure/har/fixtures/chrome-unrelated.har.json', 'utf8');
			const runPath = await importHar(page, har);
			await open(page, runPath);
			const script = await download(page, 'export-shell');
			expect(script).toMatch(/^send 'step \d \(token\)'/m);
			expect(script).not.toMatch(/-H '(Origin|Accept-Encoding|Sec-Fetch-[\w-]+|Cookie):/i);
			expect(script).not.toMatch(/\bsed\b/);
			expect(script).toContain('command -v node');
		});

		test('a grant code that can still be used is named alike on the run page and in its report, for its owner and for a reader of the permalink', async ({ page, browser }) => {
			await authorise(page);
			// A refused exchange saves the run and leaves the code usable.
			await tamper(page, 'Send without it', 'client_id');
			const runPath = await page.getByTestId('run-permalink').getAttribute('href');

			await open(page, runPath!);
			const ownerNotes = await page.getByTestId('redactions').locator('li').allInnerTexts();
			expect(ownerNotes.join('\n')).toContain('kept the grant code visible');
			expect(redactedItems(await download(page, 'export-markdown'))).toEqual(ownerNotes);

			const other = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
			try {
				const reader = await other.newPage();
				await open(reader, runPath!);
				const readerNotes = await reader.getByTestId('redactions').locator('li').allInnerTexts();
				expect(readerNotes).toContain("hid the grant code that can still be exchanged, shown as hidden-code-1: only the run's owner sees it, until it is used or expires");
				expect(readerNotes.join('\n')).not.toContain('kept the grant code visible');
				await expect(reader.locator('main')).toContainText('code=hidden-code-1');
				const report = await download(reader, 'export-markdown');
				expect(redactedItems(report)).toEqual(readerNotes);
				expect(report).toContain('code=hidden-code-1');
			} finally {
				await other.close();
			}
		});
	});
}
