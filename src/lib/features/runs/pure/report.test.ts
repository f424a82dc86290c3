import { describe, expect, it } from 'vitest';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { AnnotatedFlow } from '$lib/flow/annotate-flow';
import { crossFlags } from '$lib/flow/flags';
import { redactRun } from './redact/redact';
import { runToMarkdown } from './report';
import { runToShellScript } from './shell-script';
import { exchange, reusedCodeAnnotation, run } from './test-helpers';
import { expectLinear } from '$lib/flow/testing/expect-linear';
import { sharedCodeFlow } from '$lib/flow/testing/shared-code-flow';
import { leaks } from '$lib/http/leak-forms';
import { oneLine } from '$lib/markdown';
import { HOSTILE_VALUES, renderMarkdown, textOf, unsafeMarkup } from '$lib/markdown-testing';
import { diagnoseRun } from './diagnose-run';
import { describeRedactions } from './redact/redact-assembly';
import { hideLiveCodes } from './usable-codes';
import { mdText } from '$lib/markdown';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECRET = 'Sh0p-Secret-4f8a9b2c1d';
const TOKEN = 'at-0123456789abcdefghij';
const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;

const walked = redactRun(
	run({
		title: 'reused code',
		link: LINK,
		callback: { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:00Z' },
		exchanges: [
			exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?code=c-1&client_secret=${SECRET}`, headers: { 'User-Agent': 'x' } }, { status: 200, body: `{"access_token":"${TOKEN}"}` }, 't1'),
			exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?code=c-1&client_secret=${SECRET}`, headers: { 'User-Agent': 'x', Cookie: 'sid=abc12345' } }, { status: 400, body: '{"error":"invalid_grant","error_description":"```used```"}' }, 't2'),
			exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: `Bearer ${TOKEN}` } }, { status: 403 }, 'm1')
		]
	})
);

const reused = reusedCodeAnnotation;
const forbidden: Annotation = { outcome: 'error', title: '403', summary: 'No User-Agent.', rowId: 'me-forbidden', candidates: [], fix: 'Set a User-Agent.' };
const annotations: AnnotatedFlow = {
	callback: { outcome: 'success', title: 'Authorised: a grant code arrived', summary: 'The user authorised the client.', candidates: [] },
	exchanges: [null, reused, forbidden]
};

const ORIGIN = 'https://explorer.example.com';

describe('runToMarkdown', () => {
	const md = runToMarkdown(walked, { annotations, flags: crossFlags(walked), excused: new Set() }, { origin: ORIGIN });
	const permalink = `${ORIGIN}/runs/${walked.id}`;
	const text = textOf(renderMarkdown(md));

	it('leads with the verdict as the run page does: what happened, the row and exchange, the cause, the fix, the permalink', () => {
		const lines = md.split('\n');
		expect(lines[0]).toBe('# reused code');
		expect(lines[2]).toBe('**What went wrong:** The token exchange (exchange 2) failed: 400 invalid_grant.');
		expect(lines[4]).toBe(`- Row: [7.2 token-invalid-grant](${ORIGIN}/reference#token-invalid-grant) · exchange 2`);
		expect(lines[5]).toMatch(/^- Likely cause: Exchange 2 \(token\) sends the code that exchange 1 already exchanged/);
		expect(lines[6]).toMatch(/^- Fix: /);
		expect(lines[7]).toBe(`- Permalink: ${permalink}`);
	});

	it('shows the permalink once, the exports as links beside it', () => {
		expect(text.split(permalink)).toHaveLength(2);
		expect(md).toContain(`- Exports: [HAR](${permalink}/export/har), [curl script](${permalink}/export/shell)`);
	});

	it('tells the cause once: the flag the verdict tells is not listed again, the other flags are', () => {
		const cause = /^- Likely cause: (.*)$/m.exec(md)![1]!;
		expect(md.split(cause)).toHaveLength(2);
		expect(md).not.toMatch(/\(section 2\.2\)/);
		expect(md).toMatch(/\*\*error\*\* \(section 4\.3\): Exchange 3 \(me\.json\) sends no `User-Agent`/);
		expect(md).not.toContain('## Outcome');
		expect(md).not.toContain('## Rows matched');
	});

	it("names the target in the run page's words", () => {
		expect(md).toContain('- Target: authorisation host https://auth.example.com, accounts host https://accounts.example.com\n');
	});

	it('says what the redirect back was beside it', () => {
		expect(md).toContain(`- Redirect back: \`${REDIRECT}?code=c-1\` at 2026-01-01T10:00:00Z: Authorised: a grant code arrived. The user authorised the client.`);
	});

	it('shows each step as HTTP in a fence longer than any backticks inside it, with its row and fix', () => {
		expect(md).toContain('### 2. token: token');
		expect(md).toContain(`Row: [token-invalid-grant](${ORIGIN}/reference#token-invalid-grant), cause \`used\``);
		expect(md).toContain('````http\nPOST https://accounts.example.com/oauth/token?code=c-1&client_secret=••••••');
		expect(md).toContain('Fix: Set a User-Agent.');
	});

	it("shows only the headers the service reads and those the diagnosis names, never a browser's own", () => {
		const browser = redactRun(
			run({
				exchanges: [
					exchange(
						'token',
						{
							method: 'POST',
							url: 'https://accounts.example.com/oauth/token',
							headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'Mozilla/5.0', Accept: 'application/json', 'Accept-Encoding': 'br, zstd', Origin: 'https://shop.example.com', 'Sec-Fetch-Mode': 'cors', Cookie: 'sid=abc12345' },
							body: 'grant_type=authorization_code&code=c-1'
						},
						{ status: 401, headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer', 'X-Request-Id': 'r1', Vary: 'Origin' }, body: '{"error":"invalid_client"}' }
					),
					exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Accept: 'text/html,*/*', 'Sec-Fetch-Site': 'none' } }, { status: 403 })
				]
			})
		);
		const report = runToMarkdown(browser, diagnoseRun(browser), { origin: ORIGIN });
		const blocks = [...report.matchAll(/```http\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
		expect(blocks[0]).toContain('Content-Type: application/x-www-form-urlencoded\nUser-Agent: Mozilla/5.0\nAccept: application/json\n');
		expect(blocks[0]).toContain('HTTP/1.1 401 Error\nContent-Type: application/json\nWWW-Authenticate: Bearer\n');
		// The diagnosis names `Origin` (a browser sent the exchange), so the report shows it.
		expect(diagnoseRun(browser).flags.map((f) => f.message).join(' ')).toContain('`Origin`');
		expect(blocks[0]).toContain('Origin: https://shop.example.com');
		for (const noise of ['Accept-Encoding', 'Sec-Fetch', 'Cookie', 'X-Request-Id', 'Vary', 'text/html']) expect(report).not.toContain(noise);
	});

	it('lists what was redacted in the words of the run page, and holds no secret, token or cookie', () => {
		const redacted = md.slice(md.indexOf('## Redacted'));
		expect(redacted.split('\n').slice(2).filter(Boolean)).toEqual(describeRedactions(walked.redactions).map((note) => `- ${mdText(note)}`));
		expect(redacted).toContain('- redacted the client secret (2 places)');
		for (const value of [SECRET, TOKEN, 'abc12345']) expect(leaks(md, value)).toEqual([]);
	});

	it('names a code hidden from a reader other than the owner as the run page does, never as kept visible', () => {
		const owned = redactRun(run({ callback: { url: `${REDIRECT}?code=c-live-1234`, receivedAt: '2026-01-01T10:00:00Z' }, exchanges: [] }));
		const hidden = hideLiveCodes(owned, new Date('2026-01-01T10:05:00Z'));
		const report = runToMarkdown(hidden, diagnoseRun(hidden), { origin: ORIGIN });
		expect(report).toContain(`\`${REDIRECT}?code=hidden-code-1\``);
		expect(report).toContain("- hid the grant code that can still be exchanged, shown as hidden-code-1: only the run's owner sees it, until it is used or expires");
		expect(report).not.toContain('kept the grant code visible');
	});
});

/** Runs `script` with sh against a local service answering `answer` per path; gives the exit code, output and the requests it saw. */
async function runScript(script: string, answer: (path: string, request: IncomingMessage) => { status: number; body: string }) {
	const seen: { path: string; authorization?: string; headers: string[] }[] = [];
	const server = createServer((request, response) => {
		const path = new URL(request.url!, 'http://x').pathname;
		seen.push({ path, authorization: request.headers.authorization, headers: Object.keys(request.headers) });
		const { status, body } = answer(path, request);
		request.resume();
		response.writeHead(status, { 'content-type': 'application/json' }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const dir = await mkdtemp(join(tmpdir(), 'report-script-'));
	try {
		await writeFile(join(dir, 'run.sh'), script.replaceAll('https://accounts.example.com', `http://127.0.0.1:${port}`));
		const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
			execFile('sh', [join(dir, 'run.sh')], { env: { PATH: process.env.PATH, CLIENT_SECRET: 'from-env' }, timeout: 20_000 }, (error, stdout, stderr) =>
				resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr })
			)
		);
		return { ...result, seen };
	} finally {
		server.close();
		await rm(dir, { recursive: true, force: true });
	}
}

describe('runToShellScript', () => {
	const script = runToShellScript(walked, { origin: ORIGIN });
	const success = redactRun(
		run({
			link: LINK,
			callback: { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:00Z' },
			exchanges: [
				exchange('link', { url: LINK }, { status: 302 }),
				exchange(
					'token',
					{
						method: 'POST',
						url: 'https://accounts.example.com/oauth/token',
						headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'Mozilla/5.0', Accept: 'application/json', 'Accept-Encoding': 'br, zstd', Origin: 'https://shop.example.com', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Site': 'same-site', Cookie: 'sid=abc12345' },
						body: `grant_type=authorization_code&code=c-1&client_id=shop&client_secret=${SECRET}`
					},
					{ status: 200, body: `{"access_token":"${TOKEN}"}` }
				),
				exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: `Bearer ${TOKEN}`, 'User-Agent': 'shop/1.0', Accept: 'text/html,*/*' } }, { status: 200 })
			]
		})
	);
	const successScript = runToShellScript(success, { origin: ORIGIN });

	it("replays the server-side steps with curl, the secret from the environment, the token from the exchange's answer", () => {
		expect(script.startsWith('#!/bin/sh\n')).toBe(true);
		expect(script).toContain(`# Permalink: ${ORIGIN}/runs/${walked.id}`);
		expect(script).toContain(': "${CLIENT_SECRET:?set CLIENT_SECRET to the client secret}"');
		expect(script).not.toContain(': "${ACCESS_TOKEN:?');
		expect(script).toContain(`client_secret='"$CLIENT_SECRET"`);
		expect(script).toMatch(/^send 'step 1 \(token\)' '200 OK' \\$/m);
		expect(script).toContain("ACCESS_TOKEN=$(answer_field access_token) || { echo 'Stopped after step 1 (token): its answer has no access_token.' >&2; exit 1; }");
		expect(script).toContain(`-H 'Authorization: Bearer '"$ACCESS_TOKEN"`);
		expect(script.match(/^send 'step \d/gm)).toHaveLength(3);
	});

	it('reads JSON with Node.js, says so at the top and what to install without it, and never with sed', () => {
		expect(script).toContain('# Needs curl, and Node.js (node) to read the JSON answers');
		expect(script).toContain('command -v node >/dev/null 2>&1 || {');
		expect(script).toContain('install Node.js 18 or later');
		expect(script).not.toMatch(/\bsed\b/);
	});

	it("replays only the headers the service reads, never a browser's own", () => {
		const token = successScript.slice(successScript.indexOf("send 'step 2 (token)'"), successScript.indexOf('ACCESS_TOKEN='));
		expect(token).toContain("-H 'Content-Type: application/x-www-form-urlencoded'");
		expect(token).toContain("-H 'User-Agent: Mozilla/5.0'");
		expect(token).toContain("-H 'Accept: application/json'");
		for (const noise of ['Accept-Encoding', 'Origin', 'Sec-Fetch', 'Cookie', 'text/html']) expect(successScript).not.toContain(noise);
	});

	it('sends a grant code the person supplies, saying why the recorded one fails, and warns of the replayed one', () => {
		expect(script).toContain('# The recorded grant code was exchanged in this run, and a code is single use');
		expect(script).toContain('CODE="${CODE:-c-1}"');
		expect(script.match(/code='"\$CODE"'/g)).toHaveLength(2);
		expect(script).toContain('# This sends the code again after a successful exchange');
	});

	it('on the sandbox, gets a fresh code from the control API, with the admin token when one is set, stopping if it fails', () => {
		const sandboxRun = { ...walked, target: { kind: 'sandbox' as const, authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' } };
		const text = runToShellScript(sandboxRun, { origin: ORIGIN });
		expect(text).toContain("send 'the fresh grant code (POST /sandbox/authorize)' '' -X POST 'http://localhost:3002/sandbox/authorize'");
		expect(text).toContain('${SANDBOX_ADMIN_TOKEN:+-H "X-Sandbox-Admin-Token: $SANDBOX_ADMIN_TOKEN"}');
		expect(text).toContain(`"client_id":"shop","redirect_uri":"${REDIRECT}","country":"uk","login":"'"\${LOGIN:-student@example.com}"'","decision":"authorize"}'`);
		expect(text).toContain('LOCATION=$(answer_field location) ||');
		expect(text).not.toContain('CODE="${CODE:-');
	});

	it("writes a script for a link whose supergroup has a malformed escape, as an app may have built it", () => {
		const broken = { ...walked, link: LINK.replace('/sso/student', '/sso/%ZZ') };
		expect(() => runToShellScript(broken, { origin: ORIGIN })).not.toThrow();
		expect(runToShellScript(broken, { origin: ORIGIN })).toContain('CODE="${CODE:-c-1}"');
	});

	it('keeps a request without User-Agent without one, and leaves out redacted cookies', () => {
		expect(script).toContain("-H 'User-Agent:'");
		expect(script).not.toContain('Cookie');
	});

	it('for a browser-only run, says there is nothing to replay and how to get a code, and exits non-zero', async () => {
		const r = redactRun(run({ title: 'two\nlines', link: LINK, exchanges: [exchange('link', { url: LINK }, { status: 302 })] }));
		const text = runToShellScript(r, { origin: ORIGIN });
		expect(text).toContain('# SSO Flow Explorer run: two lines');
		expect(text).toContain("# Nothing to replay: this run recorded only the browser's steps");
		expect(text).toContain('# To get a grant code: open the authorisation link above in a browser and sign in');
		expect(text).not.toMatch(/curl |^send /m);
		expect(text).not.toContain('CLIENT_SECRET:?');
		const ran = await runScript(text, () => ({ status: 500, body: '' }));
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain('Nothing to replay');
	});

	it('holds no secret or token', () => {
		for (const value of [SECRET, TOKEN]) expect(leaks(script, value, ['shop'])).toEqual([]);
	});

	it('run: exchanges the code, reads the token from a JSON answer however it is laid out, and calls me.json with it', async () => {
		const ran = await runScript(`${successScript}`.replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code'), (path) =>
			path === '/oauth/token' ? { status: 200, body: '{\n  "token_type": "Bearer",\n  "access_token": "issued-\\"token\\"-1"\n}' } : { status: 200, body: '{"verifications":[]}' }
		);
		expect(ran.stderr).toBe('');
		expect(ran.code).toBe(0);
		expect(ran.seen.map((s) => s.path)).toEqual(['/oauth/token', '/api/v3/me.json']);
		expect(ran.seen[1]!.authorization).toBe('Bearer issued-"token"-1');
		expect(ran.seen[0]!.headers).not.toContain('origin');
		expect(ran.stdout.match(/\(HTTP 200\)/g)).toHaveLength(2);
	});

	it('run: stops at a failed exchange with a line naming the step and its status, exit 1, and never calls me.json', async () => {
		const ran = await runScript(successScript.replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code'), () => ({ status: 401, body: '{"error":"invalid_client"}' }));
		expect(ran.code).toBe(1);
		expect(ran.seen.map((s) => s.path)).toEqual(['/oauth/token']);
		expect(ran.stdout).toContain('{"error":"invalid_client"}\n(HTTP 401)');
		expect(ran.stderr.trim()).toBe('Stopped at step 2 (token): it answered HTTP 401 (the run recorded 200 OK); the answer is above.');
	});

	it('run: stops when a 200 answer carries no access token, rather than call me.json with an empty one', async () => {
		const ran = await runScript(successScript.replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code'), () => ({ status: 200, body: '<html>not json</html>' }));
		expect(ran.code).toBe(1);
		expect(ran.seen.map((s) => s.path)).toEqual(['/oauth/token']);
		expect(ran.stderr.trim()).toBe('Stopped after step 2 (token): its answer has no access_token.');
	});

	describe("a run whose server-side steps came from the sandbox's log (masked code and token)", () => {
		const LOGGED_CODE = `%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2FCUA`;
		const logged = (callback: string | null) =>
			redactRun(
				run({
					link: LINK,
					callback: callback === null ? null : { url: callback, receivedAt: '2026-01-01T10:00:00Z' },
					exchanges: [
						exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'shop/1.0' }, body: `grant_type=authorization_code&code=${LOGGED_CODE}&client_id=shop&client_secret=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2` }, { status: 200, body: '{"access_token":"••••••ZaSo"}' }),
						exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { Authorization: 'Bearer ••••••ZaSo', 'User-Agent': 'shop/1.0' } }, { status: 200 })
					]
				})
			);

		it('sends a fresh code for the masked one and the issued token whole, never a mask or its tail', async () => {
			const text = runToShellScript(logged(`${REDIRECT}?code=c-1`), { origin: ORIGIN });
			expect(text).not.toMatch(/%E2%80%A2|•|FCUA|ZaSo/);
			expect(text).toContain(`code='"$CODE"'`);
			expect(text).toContain(`-H 'Authorization: Bearer '"$ACCESS_TOKEN"`);
			const ran = await runScript(text.replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code'), (path) =>
				path === '/oauth/token' ? { status: 200, body: '{"access_token":"issued-1"}' } : { status: 200, body: '{"verifications":[]}' }
			);
			expect(ran.code).toBe(0);
			expect(ran.seen[1]!.authorization).toBe('Bearer issued-1');
		});

		it("recorded against this explorer's sandbox and imported, gets the fresh code from the sandbox's control API", () => {
			const SANDBOX = { authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' };
			const onSandbox = { ...logged(null), link: LINK.replace('https://auth.example.com', SANDBOX.authUrl), target: { kind: 'custom' as const, ...SANDBOX } };
			const onSandboxRun = { ...onSandbox, exchanges: onSandbox.exchanges.map((e) => ({ ...e, request: { ...e.request, url: e.request.url.replace('https://accounts.example.com', SANDBOX.accountsUrl) } })) };
			const text = runToShellScript(onSandboxRun, { origin: ORIGIN, sandbox: SANDBOX });
			expect(text).toContain("send 'the fresh grant code (POST /sandbox/authorize)' '' -X POST 'http://localhost:3002/sandbox/authorize'");
			expect(text).not.toContain('CODE:?');
			// Another sandbox's hosts, or none running: the person supplies the code.
			expect(runToShellScript(onSandboxRun, { origin: ORIGIN, sandbox: { authUrl: 'http://localhost:4001', accountsUrl: 'http://localhost:4002' } })).toContain(': "${CODE:?');
			expect(runToShellScript(onSandboxRun, { origin: ORIGIN })).toContain(': "${CODE:?');
		});

		it('without a callback, asks for a code and stops with a line saying how to get one when none is set', async () => {
			const text = runToShellScript(logged(null), { origin: ORIGIN });
			expect(text).toContain(': "${CODE:?set CODE to a fresh grant code: open the authorisation link in a browser');
			const ran = await runScript(text, () => ({ status: 200, body: '{"access_token":"issued-1"}' }));
			expect(ran.code).not.toBe(0);
			expect(ran.seen).toEqual([]);
			expect(ran.stderr).toContain('set CODE to a fresh grant code');
		});
	});

	describe('a run that recorded a refusal (a wrong secret: 401)', () => {
		const refusedRun = redactRun(
			run({
				link: LINK,
				callback: { url: `${REDIRECT}?code=c-1`, receivedAt: '2026-01-01T10:00:00Z' },
				exchanges: [exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'shop/1.0' }, body: `grant_type=authorization_code&code=c-1&client_id=shop&client_secret=${SECRET}` }, { status: 401, body: '{"error":"invalid_client"}' })]
			})
		);
		const text = runToShellScript(refusedRun, { origin: ORIGIN }).replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code');

		it('says when the replay reproduces it, and stops with exit 1', async () => {
			const ran = await runScript(text, () => ({ status: 401, body: '{"error":"invalid_client"}' }));
			expect(ran.code).toBe(1);
			expect(ran.stderr.trim()).toMatch(/^Stopped at step 1 \(token\): it answered HTTP 401, as the run recorded \(401 \w+\): the failure is reproduced; the answer is above\.$/);
		});

		it('says when a step answers 2xx where the run recorded the refusal, and ends with exit 2, never 0', async () => {
			const ran = await runScript(text, () => ({ status: 200, body: '{"access_token":"issued-1"}' }));
			expect(ran.code).toBe(2);
			expect(ran.stderr).toMatch(/Note: step 1 \(token\) answered HTTP 200, where the run recorded 401 \w+: this replay does not reproduce the run\./);
			expect(ran.stderr).toContain('did not reproduce the run');
		});
	});

	it('for a cancelled run, says the user cancelled, that a cancel is not an error, and exits 0', async () => {
		const r = redactRun(run({ link: LINK, callback: { url: REDIRECT, receivedAt: '2026-01-01T10:00:00Z' }, exchanges: [exchange('link', { url: LINK }, { status: 302 })] }));
		const text = runToShellScript(r, { origin: ORIGIN });
		expect(text).not.toContain("the app's server");
		const ran = await runScript(text, () => ({ status: 500, body: '' }));
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain('Nothing to replay: the user cancelled on the authorisation page');
		expect(ran.stdout).toContain('not an error');
		expect(ran.seen).toEqual([]);
	});

	it('run: stops when the service gives no answer, naming the step', async () => {
		const unreachable = successScript.replace('CODE="${CODE:-c-1}"', 'CODE=fresh-code').replaceAll('https://accounts.example.com', 'http://127.0.0.1:9');
		const ran = await runScript(unreachable, () => ({ status: 200, body: '' }));
		expect(ran.code).toBe(1);
		expect(ran.stderr).toMatch(/Stopped at step 2 \(token\): no answer \(curl exit 7\)\./);
	});
});

describe('runToMarkdown with hostile evidence', () => {
	/** A run whose every field the report writes holds `value`: a HAR can set each of them. */
	function hostileRun(value: string) {
		const token = exchange(
			'token',
			{ method: 'POST', url: `https://accounts.example.com/oauth/token?client_id=${value}`, headers: { [value]: value, 'User-Agent': value }, body: `client_id=${value}` },
			{ status: 418, headers: { [value]: value }, body: value }
		);
		const me = exchange('me', { url: `https://accounts.example.com/api/v3/me.json?${value}`, headers: { 'User-Agent': value } }, { status: 418, body: value });
		for (const e of [token, me]) e.response!.statusText = value;
		token.label = value;
		return run({
			title: value,
			createdAt: value,
			sandboxClock: value,
			target: { kind: 'custom', authUrl: `https://auth.example.com/${value}`, accountsUrl: `https://accounts.example.com/${value}` },
			link: `https://auth.example.com/sso/student?response_type=code&client_id=${value}&redirect_uri=${value}&country=uk`,
			callback: { url: `https://shop.example.com/cb?code=${value}`, receivedAt: value },
			exchanges: [token, me],
			redactions: [{ what: value, where: value }],
			sanitised: { hidden: [value] }
		});
	}

	it.each(HOSTILE_VALUES)('%j in statusText, headers, URLs, bodies, the client id and the run name adds no markup', (value) => {
		const hostile = hostileRun(value);
		const html = renderMarkdown(runToMarkdown(hostile, diagnoseRun(hostile), { origin: ORIGIN }));
		expect(unsafeMarkup(html)).toEqual([]);
		const shown = oneLine(value).trim();
		expect(textOf(/<h1>(.*?)<\/h1>/s.exec(html)![1]!)).toBe(shown);
		expect(textOf(/<h3>(.*?)<\/h3>/s.exec(html)![1]!)).toBe(`1. token: ${shown}`);
		// The verdict quotes the status text in the diagnosis's own words, where backticks mark code.
		if (!value.includes('`')) expect(textOf(/<p><strong>What went wrong:<\/strong>(.*?)<\/p>/s.exec(html)![1]!)).toContain(`418 ${shown}: not in the interface's tables`);
		const blocks = [...html.matchAll(/<pre><code class="language-http">(.*?)<\/code><\/pre>/gs)].map((m) => textOf(m[1]!));
		expect(blocks).toHaveLength(2);
		expect(blocks[0]).toContain(`HTTP/1.1 418 ${value.replace(/\r/g, '\n')}`.trim());
	});
});

describe('the reports of a run of thousands of exchanges of one code', () => {
	const runs = new Map([250, 1000].map((n) => [n, run({ ...sharedCodeFlow(n), title: 'one code, again and again' })]));

	it('write the shell script in time linear in the exchanges (each step re-read every later one: 26 s for 1,500)', () => {
		expectLinear((n) => runToShellScript(runs.get(n)!, { origin: 'https://explorer.example.com' }), 250);
	});

	it('write the Markdown report in time linear in the exchanges', () => {
		const diagnoses = new Map([...runs].map(([n, r]) => [n, diagnoseRun(r)]));
		expectLinear((n) => runToMarkdown(runs.get(n)!, diagnoses.get(n)!, { origin: 'https://explorer.example.com' }), 250);
	});

	it('says in the Markdown report when it covers only the first exchanges', () => {
		const markdown = runToMarkdown(runs.get(250)!, diagnoseRun(runs.get(250)!), { origin: 'https://explorer.example.com', cut: { shown: 250, total: 5000 } });
		expect(markdown).toContain('- Cut: This run has 5,000 exchanges: the diagnosis and the steps shown cover the first 250 only');
	});
});
