/**
 * A secret echoed back in another encoding (issue 16): a target that answers every request with what it received,
 * the client secret (`a+b/c=d%20 é`, which every encoder writes differently) and the access token written in each
 * form `leakForms` lists, in JSON, HTML and headers. None of those forms reaches the browser (the answers it
 * received, the walk page and the run page as shown), the three exports, or the bytes of explorer.db and its WAL.
 */
import type http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { addExchange } from './support/browser';
import { customTarget } from './support/explorer';
import { recordResponses } from './support/recorder';
import { DATA_DIR, EXPLORER, HOSTILE_ORIGIN, HOSTILE_PORT } from './support/ports';
import { startTarget, type Target } from './support/servers';
import { open } from '../support/walk';
import { leakForms } from '../../src/lib/http/leak-forms';

const CLIENT_ID = 'echo-client';
const SECRET = 'a+b/c=d%20 é';
const ACCESS = 'echo+Access/Token=0123456789abcdef';
const REFRESH = 'echo+Refresh/Token=0123456789abcdef';

/** What the target writes back of a value: each leak form, and JSON escaped in a mixture of styles (.NET's `\u002B`). */
function echoedForms(value: string): string[] {
	const mixed = JSON.stringify(value)
		.slice(1, -1)
		.replace(/\+/g, '\\u002B')
		.replace(/\//g, '\\/')
		.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
	return [...leakForms(value, [CLIENT_ID]), mixed];
}

/** The forms that must appear nowhere (the mixed JSON one is checked decoded, as the page shows JSON pretty-printed). */
const FORBIDDEN = [SECRET, ACCESS, REFRESH].flatMap((value) => leakForms(value, [CLIENT_ID]));

/** The client secret a token request carried: a query or form parameter, or RFC 6749's form-encoded Basic/Bearer credentials. */
function sentSecret(url: URL, authorization: string | undefined, body: string): string | null {
	const credentials = /^(?:Basic|Bearer) (\S+)$/.exec(authorization ?? '');
	if (credentials) return decodeURIComponent(Buffer.from(credentials[1]!, 'base64').toString('utf8').split(':')[1] ?? '');
	return url.searchParams.get('client_secret') ?? new URLSearchParams(body).get('client_secret');
}

/** A JSON body whose text holds each form as written (they need no JSON escaping of their own). */
const jsonEcho = (forms: string[], fields: Record<string, unknown> = {}) =>
	`{"error":"invalid_client","error_description":"echoed",${Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join('')}"echo":["${forms.join('","')}"]}`;

const htmlEcho = (forms: string[]) => `<!doctype html><title>echo</title><ul>${forms.map((f) => `<li>${f}</li>`).join('')}</ul>`;

/** Each ASCII form in a header of its own (header values cannot carry every character). */
const echoHeaders = (forms: string[]) => Object.fromEntries(forms.filter((f) => /^[\x20-\x7e]+$/.test(f)).map((f, i) => [`X-Echo-${i}`, f]));

/**
 * The echoing target: its authorisation page sends the browser back with a code; the first token exchange issues
 * ACCESS and REFRESH (the body exactly as the interface has it, echoes in headers), later ones fail with the secret
 * they carried echoed in JSON and HTML by turns; me.json echoes the token it was sent and the secret.
 */
function echoTarget(echoed: string[]) {
	let exchanges = 0;
	return (req: http.IncomingMessage, res: http.ServerResponse) => {
		const url = new URL(req.url!, 'http://target');
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (body += chunk));
		req.on('end', () => {
			if (url.pathname.startsWith('/sso/')) {
				res.writeHead(302, { Location: `${EXPLORER}/callback?code=echo-code-0123` }).end();
				return;
			}
			if (url.pathname === '/oauth/token') {
				const secret = sentSecret(url, req.headers.authorization, body) ?? '';
				echoed.push(secret);
				const forms = echoedForms(secret);
				exchanges++;
				if (exchanges === 1) {
					const tokens = { access_token: ACCESS, token_type: 'Bearer', expires_in: 2419199, refresh_token: REFRESH, created_at: 1_700_000_000 };
					res.writeHead(200, { 'Content-Type': 'application/json', ...echoHeaders(forms) }).end(JSON.stringify(tokens));
				} else if (exchanges % 2 === 0) {
					res.writeHead(400, { 'Content-Type': 'application/json', ...echoHeaders(forms) }).end(jsonEcho(forms, { request: `${req.method} ${req.url} ${body}` }));
				} else {
					res.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8', ...echoHeaders(forms) }).end(htmlEcho(forms));
				}
				return;
			}
			if (url.pathname === '/api/v3/me.json') {
				const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
				echoed.push(token);
				const forms = [...echoedForms(token), ...echoedForms(SECRET)];
				res.writeHead(200, { 'Content-Type': 'application/json', ...echoHeaders(forms) }).end(jsonEcho(forms, { authorization: req.headers.authorization ?? '' }));
				return;
			}
			res.writeHead(404).end();
		});
	};
}

let target: Target;
const echoed: string[] = [];
test.beforeAll(async () => {
	target = await startTarget(HOSTILE_PORT, echoTarget(echoed));
});
test.afterAll(async () => target.close());

/** Opens every <details> and waits until every code block is highlighted, so all a page can show is in it. */
async function showEverything(page: Page) {
	await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
	await expect(page.locator('.code > pre.plain')).toHaveCount(0, { timeout: 15_000 });
}

/** The page as sent and as shown: its HTML, and its text (where `&eacute;` in the HTML would read `é`). */
async function pageTexts(page: Page): Promise<string[]> {
	return [await page.content(), await page.evaluate(() => document.body.innerText)];
}

const leaksIn = (texts: string[]) => FORBIDDEN.filter((form) => texts.some((text) => text.includes(form)));

test('a target echoing the client secret and the token in every encoding: no form reaches the browser, the run page, the exports or explorer.db', async ({ page, context }) => {
	test.setTimeout(120_000);
	const log = await recordResponses(context, EXPLORER);
	await open(page, '/');
	const saved = await page.request.post('/api/walk/client', {
		data: customTarget(HOSTILE_ORIGIN, HOSTILE_ORIGIN, { clientId: CLIENT_ID, clientSecret: SECRET, redirectUri: `${EXPLORER}/callback` })
	});
	expect(saved.status(), await saved.text()).toBe(200);
	expect.soft(leaksIn([await saved.text()])).toEqual([]);
	await page.reload();
	await page.getByTestId('open-link').click();
	await page.waitForURL(`${EXPLORER}/#step-authorise`);
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', 'code');

	// Tokens issued, then the secret sent by each transport and echoed back in JSON and HTML by turns.
	await addExchange(page, 'token', () => page.getByTestId('exchange').click());
	const tamper = page.locator('details.tamper');
	await tamper.locator('summary').click();
	for (const transport of ['form', 'query', 'basic', 'bearer']) {
		await page.getByLabel('Send parameters').selectOption(transport);
		for (let i = 0; i < 2; i++) await addExchange(page, 'token', () => tamper.getByRole('button', { name: 'Send again', exact: true }).click());
	}
	for (const transport of ['header', 'query']) {
		await page.getByLabel('Send the token').selectOption(transport);
		await addExchange(page, 'me', () => page.getByTestId('read-me').click());
	}
	// The target did get the real values, and echoed them.
	expect(echoed.filter((v) => v === SECRET).length).toBe(9);
	expect(echoed.filter((v) => v === ACCESS).length).toBe(2);
	await expect(page.getByTestId('exchange-token').nth(1)).toContainText('echoed');

	await showEverything(page);
	const shown = await pageTexts(page);
	expect.soft(leaksIn(shown), 'the walk page').toEqual([]);

	// The run page, the exports it links to, and the run list.
	const runHref = await page.getByTestId('run-permalink').getAttribute('href');
	expect(runHref).toMatch(/^\/runs\/[\w-]+$/);
	await open(page, runHref!);
	await showEverything(page);
	await expect(page.locator('main')).toContainText('echoed');
	shown.push(...(await pageTexts(page)));
	expect.soft(leaksIn(shown), 'the run page').toEqual([]);
	const exports: string[] = [];
	for (const format of ['har', 'markdown', 'shell']) {
		const answer = await page.request.get(`${runHref}/export/${format}`);
		expect(answer.status(), format).toBe(200);
		exports.push(await answer.text());
	}
	expect(exports[0]).toContain('echoed');
	expect.soft(leaksIn(exports), 'the exports').toEqual([]);
	await open(page, '/runs');
	shown.push(...(await pageTexts(page)));

	const received = await log.settle();
	expect(received.filter((r) => r.url.includes('/api/walk/')).length).toBeGreaterThan(9);
	expect.soft(leaksIn(received.flatMap((r) => [r.headers, r.body ?? ''])), 'the answers the browser received').toEqual([]);
	expect.soft(leaksIn(shown), 'every page shown').toEqual([]);

	// The runs database as bytes on disk: its file and its write-ahead log.
	const files = ['explorer.db', 'explorer.db-wal'].map((name) => join(DATA_DIR, name)).filter((path) => existsSync(path));
	expect(files.length).toBeGreaterThan(0);
	const bytes = files.map((path) => readFileSync(path).toString('utf8'));
	expect(bytes.some((text) => text.includes('echo-code-0123')), 'the walk was saved').toBe(true);
	expect.soft(leaksIn(bytes), 'explorer.db and its WAL').toEqual([]);
});
