import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { exchange, flow } from '../test-helpers';
import { arrivals } from './browser-arrivals';
import { issuedTokenTails, tokenInAnswer, tokenToBrowserFlags } from './token-to-browser';
import { flowVerdict } from '../verdict';
import { diagnoseFlow } from '../diagnose-flow';
import type { FlowRecord } from '../record';

const TOKEN = 'dbJjXw7QK4wubz2AruQ6mMsV4qGD_yUsAToOF8i2jMo';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent('https://shop.example.com/cb')}&country=uk`;
const page = (body: string, type = 'text/html') => ({ status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: type }], body, truncated: false });
const signedIn = (script: string) => page(`<html><body><h1>Signed in</h1><script>${script}</script></body></html>`);

describe('tokenInAnswer: a token in what the browser got', () => {
	it('reads a JSON field named access_token, even with its value hidden by redaction', () => {
		expect(tokenInAnswer(page(`{"sbid_number":"STU0001","access_token":"${MASK}"}`, 'application/json'), [])).toEqual({ name: 'access_token', by: 'field' });
	});

	it('reads a literal token written into the browser\'s storage under a token\'s name', () => {
		expect(tokenInAnswer(signedIn(`localStorage.setItem("sso_token", "${TOKEN}");`), [])).toEqual({ name: 'sso_token', by: 'storage' });
		// A saved run hides the value; the mask in that place is the same evidence.
		expect(tokenInAnswer(signedIn(`localStorage.setItem("sso_token", "${MASK}");`), [])).toEqual({ name: 'sso_token', by: 'storage' });
	});

	it('does not read a script that stores what an answer gives it, or names access_token in its source', () => {
		expect(tokenInAnswer(signedIn("if (body.access_token) localStorage.setItem('token', body.access_token);"), [])).toBeNull();
		expect(tokenInAnswer(signedIn('localStorage.setItem("theme", "dark-high-contrast-variant-2");'), [])).toBeNull();
	});

	it('reads a literal ending with an issued token\'s tail, and not one ending otherwise', () => {
		const kept = signedIn(`window.keep("${TOKEN}");`);
		expect(tokenInAnswer(kept, ['2jMo'])).toEqual({ name: 'access_token', by: 'tail' });
		expect(tokenInAnswer(kept, ['xC2k'])).toBeNull();
	});
});

describe('issuedTokenTails', () => {
	it('takes the tails of the tokens the token endpoint issued, as the log shows them, and not me.json\'s credential', () => {
		const token = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 200, body: `{"access_token":"${MASK}xC2k","refresh_token":"${MASK}0xQI"}` });
		const me = { ...exchange('me', { url: 'https://accounts.example.com/api/v3/me.json' }, { status: 401 }), tokenTails: ['code'] };
		expect(issuedTokenTails(flow({ exchanges: [token, me] }))).toEqual(['xC2k', '0xQI']);
	});
});

describe('tokenToBrowserFlags: the app\'s answers to the browser, not the service\'s to the app', () => {
	const arrival = exchange('arrival', { url: 'https://shop.example.com/cb?code=c-12345678' }, { status: 200, body: '<html><p>Signing you in…</p></html>' }, 'a1');
	const apiCall = (body: string, url = 'https://shop.example.com/api/session') =>
		({ ...exchange('arrival', { method: 'POST', url, body: '{"code":"c-12345678"}' }, { status: 200, headers: { 'Content-Type': 'application/json' }, body }, 'api') });
	const record = (...more: FlowRecord['exchanges']) => flow({ link: LINK, callback: { url: arrival.request.url, receivedAt: arrival.startedAt }, exchanges: [exchange('link', { url: LINK }, { status: 302 }, 'l'), arrival, ...more] });

	it('flags the page\'s own API call answered with the access token, as the verdict', () => {
		const r = record(apiCall(`{"sbid_number":"STU0001","access_token":"${MASK}"}`));
		const flags = tokenToBrowserFlags(r, arrivals(r));
		expect(flags.map((f) => `${f.id} ${f.exchangeId}`)).toEqual(['token-to-browser api']);
		expect(flags[0]?.message).toContain("answer to the page's call POST /api/session (exchange 3) hands the browser an `access_token`");
		expect(flowVerdict(r, diagnoseFlow(r))).toMatchObject({ severity: 'error', exchange: { n: 3 }, fix: expect.stringContaining('Keep the tokens on your server') });
	});

	it('never flags the token endpoint\'s answer, nor an answer from another origin', () => {
		const token = exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 200, body: `{"access_token":"${TOKEN}"}` }, 't');
		const r = record(token, apiCall(`{"access_token":"${TOKEN}"}`, 'https://cdn.example.net/x'));
		expect(tokenToBrowserFlags(r, arrivals(r))).toEqual([]);
	});
});
