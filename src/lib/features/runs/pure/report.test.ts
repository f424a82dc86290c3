import { describe, expect, it } from 'vitest';
import type { Annotation } from '$lib/flow/diagnose/diagnose';
import type { AnnotatedFlow } from '$lib/flow/annotate-flow';
import { crossFlags } from '$lib/flow/flags';
import { redactRun } from './redact/redact';
import { runToMarkdown, runToShellScript } from './report';
import { exchange, reusedCodeAnnotation, run } from './test-helpers';
import { leaks } from '$lib/http/leak-forms';
import { oneLine } from '$lib/markdown';
import { HOSTILE_VALUES, renderMarkdown, textOf, unsafeMarkup } from '$lib/markdown-testing';
import { diagnoseRun } from './diagnose-run';

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
	const md = runToMarkdown(walked, { annotations, flags: crossFlags(walked) }, { origin: ORIGIN });

	it("starts with the run's permalink, absolute, so a ticket can link it", () => {
		expect(md).toContain(`- Permalink: ${ORIGIN}/runs/${walked.id} (exports: ${ORIGIN}/runs/${walked.id}/export/har`);
	});

	it('leads with the verdict: what happened, the row linked absolutely, the cause, the fix and the permalink', () => {
		const lines = md.split('\n');
		expect(lines[0]).toBe('# reused code');
		expect(lines[2]).toBe('**What went wrong:** The token exchange (exchange 2) failed: 400 invalid_grant.');
		const verdict = md.slice(0, md.indexOf('- Permalink:'));
		expect(verdict).toContain(`- Row: [7.2 token-invalid-grant](${ORIGIN}/reference#token-invalid-grant)`);
		expect(verdict).toMatch(/- Likely cause: Exchange 2 \(token\) sends the code that exchange 1 already exchanged/);
		expect(verdict).toContain('- Fix: ');
		expect(verdict).toContain(`- Run: ${ORIGIN}/runs/${walked.id} (exchange 2)`);
	});

	it('states the outcome: the callback, then the last step with its annotation and fix', () => {
		const outcome = md.slice(md.indexOf('## Outcome'), md.indexOf('## What is wrong'));
		expect(outcome).toContain('The redirect back: Authorised: a grant code arrived. The user authorised the client.');
		expect(outcome).toContain('The last step, 3 (me), ended with 403 Error: 403. No User-Agent.');
		expect(outcome).toContain('Fix: Set a User-Agent.');
	});

	it('lists the rows matched, each linked to its reference anchor on the explorer (absolute: the report leaves it)', () => {
		expect(md).toContain(`- [token-invalid-grant](${ORIGIN}/reference#token-invalid-grant)\n- [me-forbidden](${ORIGIN}/reference#me-forbidden)`);
	});

	it('includes the cross-request flags with their fixes', () => {
		expect(md).toMatch(/\*\*error\*\* \(section 2\.2\): Exchange 2 \(token\) sends the code that exchange 1 already exchanged/);
		expect(md).toMatch(/\*\*error\*\* \(section 4\.3\): Exchange 3 \(me\.json\) sends no `User-Agent`/);
	});

	it('shows each step as HTTP in a fence longer than any backticks inside it', () => {
		expect(md).toContain('### 2. token: token');
		expect(md).toContain(`Row: [token-invalid-grant](${ORIGIN}/reference#token-invalid-grant), cause \`used\``);
		expect(md).toContain('````http\nPOST https://accounts.example.com/oauth/token?code=c-1&client_secret=••••••');
	});

	it('lists what was redacted and holds no secret, token or cookie', () => {
		expect(md).toContain('- client secret: exchange 1 (token) URL parameter client_secret');
		for (const value of [SECRET, TOKEN, 'abc12345']) expect(leaks(md, value)).toEqual([]);
	});
});

describe('runToShellScript', () => {
	const script = runToShellScript(walked, { origin: ORIGIN });

	it("replays the server-side steps with curl, the secret from the environment, the token from the exchange's answer", () => {
		expect(script.startsWith('#!/bin/sh\n')).toBe(true);
		expect(script).toContain(`# Permalink: ${ORIGIN}/runs/${walked.id}`);
		expect(script).toContain(': "${CLIENT_SECRET:?set CLIENT_SECRET to the client secret}"');
		expect(script).not.toContain(': "${ACCESS_TOKEN:?');
		expect(script).toContain(`client_secret='"$CLIENT_SECRET"`);
		expect(script).toMatch(/TOKEN_ANSWER=\$\(curl -sS /);
		expect(script).toContain(`ACCESS_TOKEN=$(printf '%s' "$TOKEN_ANSWER" | sed -n`);
		expect(script).toContain(`-H 'Authorization: Bearer '"$ACCESS_TOKEN"`);
		expect(script.match(/^curl -sS /gm)).toHaveLength(2);
	});

	it('sends a grant code the person supplies, saying why the recorded one fails, and warns of the replayed one', () => {
		expect(script).toContain('# The recorded grant code was exchanged in this run, and a code is single use');
		expect(script).toContain('CODE="${CODE:-c-1}"');
		expect(script.match(/code='"\$CODE"'/g)).toHaveLength(2);
		expect(script).toContain('# This sends the code again after a successful exchange');
	});

	it('on the sandbox, gets a fresh code from the control API, with the admin token when one is set', () => {
		const sandboxRun = { ...walked, target: { kind: 'sandbox' as const, authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' } };
		const text = runToShellScript(sandboxRun, { origin: ORIGIN });
		expect(text).toContain("curl -sS -X POST 'http://localhost:3002/sandbox/authorize'");
		expect(text).toContain('${SANDBOX_ADMIN_TOKEN:+-H "X-Sandbox-Admin-Token: $SANDBOX_ADMIN_TOKEN"}');
		expect(text).toContain(`"client_id":"shop","redirect_uri":"${REDIRECT}","country":"uk","login":"'"\${LOGIN:-student@example.com}"'","decision":"authorize"}'`);
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

	it('writes the browser steps and the title as one-line comments', () => {
		const r = redactRun(run({ title: 'two\nlines', link: LINK, exchanges: [exchange('link', { url: LINK }, { status: 302 })] }));
		const text = runToShellScript(r, { origin: ORIGIN });
		expect(text).toContain('# SSO Flow Explorer run: two lines');
		expect(text).toContain(`# Step 1 (link) happens in a browser; open: ${LINK}`);
		expect(text).not.toContain('curl ');
		expect(text).not.toContain('CLIENT_SECRET:?');
	});

	it('holds no secret or token', () => {
		for (const value of [SECRET, TOKEN]) expect(leaks(script, value, ['shop'])).toEqual([]);
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
