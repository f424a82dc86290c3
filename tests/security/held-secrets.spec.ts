/**
 * Issue 26.1: a secret the server holds goes only to the host it was given for. An anonymous visitor resets the
 * walk (which then holds the sandbox's own secret for the demo client, the operator's), points it at another host
 * with the demo client's id and no secret, opens the link, brings a code back and exchanges it in every transport:
 * that host must receive no form of the sandbox's secret. A secret given for that host is still sent to it.
 */
import type http from 'node:http';
import { expect, test } from '@playwright/test';
import { ExplorerSession, customTarget } from './support/explorer';
import { DATA_DIR, DEMO_CLIENT_ID, EXPLORER, HOSTILE_ORIGIN, HOSTILE_PORT } from './support/ports';
import { everySandboxClient, startTarget, type Target } from './support/servers';
import { leaks } from '../../src/lib/http/leak-forms';

/** Every request the host received, as one text: its request line, headers and body. */
const received: string[] = [];

function recordingTarget(req: http.IncomingMessage, res: http.ServerResponse) {
	let body = '';
	req.setEncoding('utf8');
	req.on('data', (chunk: string) => (body += chunk));
	req.on('end', () => {
		received.push(`${req.method} ${req.url}\n${req.rawHeaders.join('\n')}\n\n${body}`);
		res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":"invalid_client"}');
	});
}

let target: Target;
test.beforeAll(async () => {
	target = await startTarget(HOSTILE_PORT, recordingTarget);
});
test.afterAll(async () => target.close());
test.beforeEach(() => {
	received.length = 0;
});

const link = (clientId: string) =>
	`${HOSTILE_ORIGIN}/sso/student?response_type=code&client_id=${clientId}&redirect_uri=${encodeURIComponent(`${EXPLORER}/callback`)}&country=uk`;

/** Opens the link, brings a code back by hand, and exchanges it in every transport and with the secret tampered. */
async function exchangeEverywhere(session: ExplorerSession) {
	expect((await session.walk('start', { link: link(DEMO_CLIENT_ID) })).status).toBe(200);
	expect(await session.callback('code=x')).toBe(303);
	for (const transport of ['query', 'form', 'basic', 'bearer']) {
		expect((await session.walk('exchange', { transport })).status).toBe(200);
	}
	expect((await session.walk('exchange', { transport: 'query', tamper: 'secret' })).status).toBe(200);
}

test("the sandbox's secret for the demo client never reaches a custom target the walk was pointed at without a secret", async () => {
	const held = everySandboxClient(DATA_DIR).find((c) => c.clientId === DEMO_CLIENT_ID)!.secret;
	const session = await new ExplorerSession(EXPLORER).open();
	expect((await session.walk('reset')).status).toBe(200);
	const { clientSecret: _, ...withoutSecret } = customTarget(HOSTILE_ORIGIN, HOSTILE_ORIGIN, { redirectUri: `${EXPLORER}/callback` });
	const saved = await session.walk('client', withoutSecret);
	expect(saved.status, saved.text).toBe(200);

	await exchangeEverywhere(session);
	expect(received.filter((r) => r.startsWith('POST /oauth/token'))).toHaveLength(5);
	for (const request of received) expect(leaks(request, held, [DEMO_CLIENT_ID]), request).toEqual([]);
	expect(saved.body.view?.client.secret, 'the walk holds no secret for the new target').toEqual({ set: false });
});

test('a secret given for the custom target is sent to it', async () => {
	const session = await new ExplorerSession(EXPLORER).open();
	await session.walk('reset');
	const saved = await session.walk('client', customTarget(HOSTILE_ORIGIN, HOSTILE_ORIGIN, { clientSecret: 'the-custom-targets-own', redirectUri: `${EXPLORER}/callback` }));
	expect(saved.status, saved.text).toBe(200);
	await exchangeEverywhere(session);
	const tokenRequests = received.filter((r) => r.startsWith('POST /oauth/token'));
	expect(tokenRequests).toHaveLength(5);
	for (const request of tokenRequests) expect(leaks(request, 'the-custom-targets-own', [DEMO_CLIENT_ID]), request).not.toEqual([]);
});
