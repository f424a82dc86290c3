import { describe, expect, it } from 'vitest';
import { MASK } from '../http/exchange';
import { maskBody, maskHeader, maskUrl } from './mask';

const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

describe('masking for the request log', () => {
	it('hides secrets and passwords whole, codes and tokens but for a tail', () => {
		const masked = maskUrl(`/oauth/token?client_secret=s3cr3t&code=${TOKEN}&redirect_uri=http%3A%2F%2Fx%2Fcb`);
		expect(masked).not.toContain('s3cr3t');
		expect(masked).not.toContain(TOKEN);
		expect(masked).toContain(`code=${encodeURIComponent(MASK)}NOPQ&`);
		expect(masked).toContain('redirect_uri=http%3A%2F%2Fx%2Fcb');
	});
	it('masks a code inside a parameter whose value is a URL (an app sending the address it landed on as redirect_uri)', () => {
		const landedOn = `http://localhost:6150/callback?code=${TOKEN}&state=s1`;
		const target = `/oauth/token?grant_type=authorization_code&code=${TOKEN}&redirect_uri=${encodeURIComponent(landedOn)}`;
		const masked = maskUrl(target);
		expect(masked).not.toContain(TOKEN);
		expect(masked).not.toContain(encodeURIComponent(TOKEN));
		// The rest of the nested address stays readable, its code with the tail that matches it up.
		const nested = new URL(masked, 'http://x').searchParams.get('redirect_uri');
		expect(nested).toBe(`http://localhost:6150/callback?code=${MASK}${TOKEN.slice(-4)}&state=s1`);
		// In a form body too, and a URL without a secret in its query is kept byte for byte.
		expect(maskBody(`code=x&redirect_uri=${encodeURIComponent(landedOn)}`, 'application/x-www-form-urlencoded')).not.toContain(encodeURIComponent(TOKEN));
		expect(maskUrl('/x?redirect_uri=http%3A%2F%2Fx%2Fcb%3Fnext%3D%252Fhome')).toBe('/x?redirect_uri=http%3A%2F%2Fx%2Fcb%3Fnext%3D%252Fhome');
	});
	it('follows a URL inside a URL inside a parameter (redirect_uri=…?next=…?code=…), each level still readable', () => {
		const inner = `http://localhost:6150/landing?code=${TOKEN}`;
		const landedOn = `http://localhost:6150/callback?next=${encodeURIComponent(inner)}&state=s1`;
		const masked = maskUrl(`/oauth/token?redirect_uri=${encodeURIComponent(landedOn)}`);
		const levels = [masked];
		for (let i = 0; i < 3; i++) levels.push(decodeURIComponent(levels.at(-1)!));
		for (const level of levels) expect(level).not.toContain(TOKEN);
		const outer = new URL(masked, 'http://x').searchParams.get('redirect_uri')!;
		expect(new URL(outer).searchParams.get('next')).toBe(`http://localhost:6150/landing?code=${MASK}${TOKEN.slice(-4)}`);
		expect(new URL(outer).searchParams.get('state')).toBe('s1');
	});
	it('masks form bodies, JSON bodies, and truncated JSON', () => {
		expect(maskBody('password=hunter2&login=a', 'application/x-www-form-urlencoded')).toBe(`password=${encodeURIComponent(MASK)}&login=a`);
		const json = JSON.parse(maskBody(JSON.stringify({ access_token: TOKEN, refresh_token: TOKEN, token_type: 'Bearer' }), 'application/json'));
		expect(json.access_token).not.toContain('abcdef');
		expect(json.token_type).toBe('Bearer');
		expect(maskBody('{"login":"a","password":"hunt', 'application/json')).not.toContain('hunt');
	});
	it('masks codes inside URLs in JSON (a /sandbox/authorize answer)', () => {
		expect(maskBody(JSON.stringify({ location: `http://x/cb?a=1&code=${TOKEN}` }), 'application/json')).not.toContain(TOKEN);
	});
	it('masks secrets an app sends another way: multipart fields, a mislabelled form, a header named for its credential', () => {
		const multipart = ['--b', 'Content-Disposition: form-data; name="client_id"', '', 'demo', '--b', 'Content-Disposition: form-data; name="client_secret"', '', 'TopSecretValue-XYZ-123456', '--b--', ''].join('\r\n');
		const masked = maskBody(multipart, 'multipart/form-data; boundary=b');
		expect(masked).not.toContain('TopSecretValue');
		expect(masked).toContain('name="client_id"\r\n\r\ndemo');
		expect(maskBody('client_id=demo&client_secret=TopSecretValue-XYZ', 'text/plain')).not.toContain('TopSecretValue');
		for (const name of ['X-Client-Secret', 'X-Access-Token', 'X-Api-Key', 'api_key']) expect(maskHeader({ name, value: TOKEN }).value, name).toBe(MASK);
		for (const name of ['Sec-WebSocket-Key', 'Accept', 'X-Request-Id', 'Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers']) expect(maskHeader({ name, value: TOKEN }).value, name).toBe(TOKEN);
	});
	it('keeps HTML as is', () => {
		expect(maskBody('<p>code=visible</p>', 'text/html')).toBe('<p>code=visible</p>');
	});
	it('masks Authorization, cookies and codes in Location', () => {
		expect(maskHeader({ name: 'Authorization', value: 'Basic ZGVtbzpzZWNyZXQ=' })).toEqual({ name: 'Authorization', value: `Basic ${MASK}` });
		// A bearer token keeps its tail, as in the token's answer, so a me.json call joins the exchange that issued it.
		expect(maskHeader({ name: 'Authorization', value: `Bearer ${TOKEN}` })).toEqual({ name: 'Authorization', value: `Bearer ${MASK}${TOKEN.slice(-4)}` });
		expect(maskHeader({ name: 'Authorization', value: 'Bearer short' }).value).toBe(`Bearer ${MASK}`);
		expect(maskHeader({ name: 'cookie', value: 'a=1; b=2' }).value).toBe(`a=${MASK}; b=${MASK}`);
		expect(maskHeader({ name: 'set-cookie', value: 'sid=xyz; HttpOnly; SameSite=Lax' }).value).toBe(`sid=${MASK}; HttpOnly; SameSite=Lax`);
		expect(maskHeader({ name: 'location', value: `http://x/cb?code=${TOKEN}` }).value).not.toContain(TOKEN);
		expect(maskHeader({ name: 'content-type', value: 'text/html' }).value).toBe('text/html');
	});
});
