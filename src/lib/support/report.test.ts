import { describe, expect, it } from 'vitest';
import type { Annotation } from '$lib/flow/diagnose';
import type { AnnotatedRun } from './annotate';
import { redactRun } from './redact';
import { runToMarkdown, runToShellScript } from './report';
import { exchange, reusedCodeAnnotation, run } from './test-helpers';
import { leaks } from '$lib/http/leak-forms';

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
const annotations: AnnotatedRun = {
	callback: { outcome: 'success', title: 'Authorised: a grant code arrived', summary: 'The user authorised the client.', candidates: [] },
	exchanges: [null, reused, forbidden]
};

describe('runToMarkdown', () => {
	const md = runToMarkdown(walked, annotations);

	it('states the outcome: the callback, then the last step with its annotation and fix', () => {
		const outcome = md.slice(md.indexOf('## Outcome'), md.indexOf('## What is wrong'));
		expect(outcome).toContain('The redirect back: Authorised: a grant code arrived. The user authorised the client.');
		expect(outcome).toContain('The last step, 3 (me), ended with 403 Error: 403. No User-Agent.');
		expect(outcome).toContain('Fix: Set a User-Agent.');
	});

	it('lists the rows matched, each linked to its reference anchor', () => {
		expect(md).toContain('- [token-invalid-grant](/reference#token-invalid-grant)\n- [me-forbidden](/reference#me-forbidden)');
	});

	it('includes the cross-request flags with their fixes', () => {
		expect(md).toMatch(/\*\*error\*\* \(section 2\.2\): Exchange 2 \(token\) sends the code that exchange 1 already exchanged/);
		expect(md).toMatch(/\*\*error\*\* \(section 4\.3\): Exchange 3 \(me\.json\) sends no `User-Agent`/);
	});

	it('shows each step as HTTP in a fence longer than any backticks inside it', () => {
		expect(md).toContain('### 2. token: token');
		expect(md).toContain('Row: [token-invalid-grant](/reference#token-invalid-grant), cause `used`');
		expect(md).toContain('````http\nPOST https://accounts.example.com/oauth/token?code=c-1&client_secret=••••••');
	});

	it('lists what was redacted and holds no secret, token or cookie', () => {
		expect(md).toContain('- client secret: exchange 1 (token) URL parameter client_secret');
		for (const value of [SECRET, TOKEN, 'abc12345']) expect(leaks(md, value)).toEqual([]);
	});
});

describe('runToShellScript', () => {
	const script = runToShellScript(walked);

	it('replays the server-side steps with curl, the secret and token from the environment', () => {
		expect(script.startsWith('#!/bin/sh\n')).toBe(true);
		expect(script).toContain(': "${CLIENT_SECRET:?set CLIENT_SECRET to the client secret}"');
		expect(script).toContain(': "${ACCESS_TOKEN:?');
		expect(script).toContain(`client_secret='"$CLIENT_SECRET"`);
		expect(script).toContain(`-H 'Authorization: Bearer '"$ACCESS_TOKEN"`);
		expect(script.match(/^curl /gm)).toHaveLength(3);
	});

	it('keeps a request without User-Agent without one, and leaves out redacted cookies', () => {
		expect(script).toContain("-H 'User-Agent:'");
		expect(script).not.toContain('Cookie');
	});

	it('writes the browser steps and the title as one-line comments', () => {
		const r = redactRun(run({ title: 'two\nlines', link: LINK, exchanges: [exchange('link', { url: LINK }, { status: 302 })] }));
		const text = runToShellScript(r);
		expect(text).toContain('# SSO Flow Explorer run: two lines');
		expect(text).toContain(`# Step 1 (link) happens in a browser; open: ${LINK}`);
		expect(text).not.toContain('curl ');
		expect(text).not.toContain('CLIENT_SECRET:?');
	});

	it('holds no secret or token', () => {
		for (const value of [SECRET, TOKEN]) expect(leaks(script, value, ['shop'])).toEqual([]);
	});
});
