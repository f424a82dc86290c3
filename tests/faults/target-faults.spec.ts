/**
 * The explorer against a broken target: down, silent past the timeout, answering HTML, truncated JSON, a complete
 * answer of broken JSON, a body drip-fed past the timeout, a 5xx, a redirect loop. Each step gets a clear message within the outbound timeout (3 s in the test config) plus a small
 * margin, the explorer answers other people meanwhile, and a normal sandbox walk succeeds afterwards.
 */
import type http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { ExplorerSession, customTarget, sandboxWalk } from '../security/support/explorer';
import { ACCOUNTS_HOST, EXPLORER, HOSTILE_ORIGIN, HOSTILE_PORT, OUTBOUND_TIMEOUT_MS, STUDENT } from '../security/support/ports';
import { startTarget, type Target } from '../security/support/servers';
import { open, signInAndDecide } from '../support/walk';

/** The outbound timeout plus the explorer's own work and the round trip. */
const BOUND_MS = OUTBOUND_TIMEOUT_MS + 1500;

type Handler = ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null;

interface Fault {
	name: string;
	/** null: nothing listens on the port (connection refused). */
	handler: Handler;
	/** What the annotation of each step must say. */
	says: RegExp;
	outcome: 'transport' | 'error';
	/** Whether a response (status line) was recorded. */
	status: number | null;
}

const FAULTS: Fault[] = [
	{ name: 'down (connection refused)', handler: null, says: /refused the connection: nothing is listening there/, outcome: 'transport', status: null },
	{
		name: 'slow past the timeout (accepts, never answers)',
		handler: () => undefined,
		says: /waited 3 s.*No complete answer within 3 s/,
		outcome: 'transport',
		status: null
	},
	{
		name: 'answering HTML',
		handler: (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Sign in</title><h1>Please sign in</h1>'),
		says: /HTML page, not JSON/,
		outcome: 'error',
		status: 200
	},
	{
		name: 'truncated JSON (Content-Length larger than the body, then close)',
		handler: (req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '400' });
			res.write('{"access_token":"abc","token_type":"Bea', () => req.socket.destroy());
		},
		says: /connection closed after 39 bytes of the body \(Content-Length said 400 bytes\), before it was complete/,
		outcome: 'transport',
		status: 200
	},
	{
		name: 'answering a complete 200 whose JSON is broken',
		handler: (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"abc","token_type":'),
		says: /The body is not JSON \(.*JSON.*\)\. No row of 7\.[23] matches/,
		outcome: 'error',
		status: 200
	},
	{
		name: 'drip-feeding its body past the timeout (headers, then a byte every 300 ms)',
		handler: (req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			const drip = setInterval(() => res.write(' '), 300);
			req.socket.on('close', () => clearInterval(drip));
		},
		says: /No complete answer in time The target began to answer \(200 OK, then \d+ characters of body\) but the answer never completed \(waited 3 s\)/,
		outcome: 'transport',
		status: 200
	},
	{
		name: 'a 5xx',
		handler: (_req, res) => res.writeHead(503, 'Service Unavailable', { 'Content-Type': 'application/json' }).end('{"error":"maintenance"}'),
		says: /service failed while handling the request \(503\)/,
		outcome: 'error',
		status: 503
	},
	{
		name: 'a redirect loop',
		handler: (req, res) => res.writeHead(302, { Location: req.url! }).end(),
		says: /answered with a redirect to \/.*does not describe redirects/,
		outcome: 'error',
		status: 302
	}
];

async function serve(handler: Handler): Promise<Target | null> {
	return handler ? startTarget(HOSTILE_PORT, handler) : null;
}

test.describe.configure({ mode: 'serial' });

for (const fault of FAULTS) {
	test(`a target ${fault.name}: a clear message per step within the timeout, through the walk API`, async () => {
		const target = await serve(fault.handler);
		try {
			const session = await new ExplorerSession(EXPLORER).open();
			expect((await session.walk('client', customTarget(HOSTILE_ORIGIN, HOSTILE_ORIGIN))).status).toBe(200);
			expect(await session.callback('code=fault-test')).toBe(303);
			const bystander = new ExplorerSession(EXPLORER);

			for (const [action, body] of [
				['exchange', { transport: 'query' }],
				['me', { credential: 'none' }]
			] as const) {
				const started = Date.now();
				const pending = session.walk(action, body);
				// Meanwhile the explorer answers someone else at once.
				const otherStarted = Date.now();
				expect((await bystander.request('/health')).status).toBe(200);
				expect(Date.now() - otherStarted).toBeLessThan(1000);
				const answer = await pending;
				const took = Date.now() - started;

				expect(answer.status, answer.text).toBe(200);
				expect(took, `${action} took ${took} ms`).toBeLessThan(BOUND_MS);
				const { exchange, annotation } = answer.body.view!.exchanges.at(-1)!;
				expect(exchange.step).toBe(action === 'exchange' ? 'token' : 'me');
				expect(exchange.response?.status ?? null).toBe(fault.status);
				expect(annotation.outcome).toBe(fault.outcome);
				expect(`${annotation.title} ${annotation.summary}`).toMatch(fault.says);
				expect(annotation.fix, 'says what to do').toBeTruthy();
			}
			if (fault.name.startsWith('a redirect loop')) {
				// Not followed: each step reached the target once.
				expect(target!.received).toHaveLength(2);
			}

			// The explorer keeps working: the same session walks the sandbox to the end.
			const walk = await sandboxWalk(session, ACCOUNTS_HOST);
			expect(walk.arrived).toBe(303);
			expect(walk.exchanged.body.view!.exchanges.at(-1)!.exchange.response?.status).toBe(200);
			expect(walk.me.body.view!.exchanges.at(-1)!.exchange.response?.status).toBe(200);
		} finally {
			await target?.close();
		}
	});
}

async function chooseCustomTarget(page: Page) {
	await open(page, '/');
	await page.getByLabel('Custom deployment').check();
	await page.getByLabel('Authorisation URL').fill(HOSTILE_ORIGIN);
	await page.getByLabel('Accounts URL').fill(HOSTILE_ORIGIN);
	await page.getByRole('button', { name: 'Save client settings' }).click();
	await expect(page.getByTestId('auth-link')).toContainText(`${HOSTILE_ORIGIN}/sso/`);
	await open(page, '/callback?code=fault-test');
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', /.+/);
}

test('through the UI: each fault is shown on the page, on time, and the page keeps working', async ({ page }) => {
	test.setTimeout(60_000);
	await chooseCustomTarget(page);
	for (const [i, fault] of FAULTS.entries()) {
		const target = await serve(fault.handler);
		try {
			const started = Date.now();
			await page.getByTestId('exchange').click();
			const annotation = page.getByTestId('exchange-token').nth(i).getByTestId('annotation');
			await expect(annotation).toHaveAttribute('data-outcome', fault.outcome, { timeout: BOUND_MS });
			expect(Date.now() - started, fault.name).toBeLessThan(BOUND_MS);
			await expect(annotation).toContainText(fault.says);
			await expect(page.getByTestId('walk-message')).toHaveCount(0);
		} finally {
			await target?.close();
		}
	}
	// Back to the sandbox from the same page: the exchange button still works and succeeds.
	await page.getByLabel('Built-in sandbox').check();
	await page.getByRole('button', { name: 'Save client settings' }).click();
	await page.getByTestId('open-link').click();
	await signInAndDecide(page, STUDENT, 'authorise');
	await page.getByTestId('exchange').click();
	await expect(page.getByTestId('exchange-token').first().getByTestId('annotation')).toHaveAttribute('data-outcome', 'success');
});
