import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { base64EncodeUtf8 } from '../http/encoding';
import { MASK, type RecordedRequest } from '../http/exchange';
import { shellQuote, toCurl } from './curl';

/** Runs the command in bash with `curl` replaced by a function that prints its arguments, NUL-separated. */
function argsOf(command: string, env: Record<string, string> = {}): string[] {
	const script = `curl() { printf '%s\\0' "$@"; }\n${command}`;
	const out = execFileSync('bash', ['-c', script], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' });
	return out.split('\0').slice(0, -1);
}

const TRICKY = `it's "quoted" $HOME \`id\` \\ !x\nnew line`;

describe('shellQuote', () => {
	it('survives quotes, $, backticks, backslashes, ! and newlines', () => {
		expect(argsOf(`curl ${shellQuote(TRICKY)} ${shellQuote('')}`)).toEqual([TRICKY, '']);
	});
});

describe('toCurl', () => {
	const secret = 's3cret-value';
	const tokenRequest: RecordedRequest = {
		method: 'POST',
		url: `https://accounts.example/oauth/token?grant_type=authorization_code&code=a'b&redirect_uri=http%3A%2F%2Flocalhost%2Fcb&client_id=demo&client_secret=${MASK}`,
		headers: [
			{ name: 'Host', value: 'accounts.example' },
			{ name: 'User-Agent', value: `explorer "1.0" it's` },
			{ name: 'Content-Length', value: '0' }
		],
		body: null
	};

	it('reproduces the request exactly, with $CLIENT_SECRET in place of the client_secret parameter', () => {
		const command = toCurl(tokenRequest);
		expect(command).toContain('"$CLIENT_SECRET"');
		expect(command).not.toContain(MASK);
		expect(argsOf(command, { CLIENT_SECRET: 'from shell' })).toEqual([
			'-X',
			'POST',
			'https://accounts.example/oauth/token?grant_type=authorization_code&code=a\'b&redirect_uri=http%3A%2F%2Flocalhost%2Fcb&client_id=demo&client_secret=from shell',
			'-H',
			`User-Agent: explorer "1.0" it's`
		]);
	});

	it('replaces the secret wherever its value appears, given the value', () => {
		const request: RecordedRequest = {
			method: 'POST',
			url: `https://accounts.example/oauth/token?note=${encodeURIComponent('x y')}${encodeURIComponent(secret)}`,
			headers: [
				{ name: 'User-Agent', value: 'ua' },
				{ name: 'X-Debug', value: `secret is ${secret}` },
				{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }
			],
			body: `grant_type=authorization_code&client_secret=${secret}&other=${secret}`
		};
		const command = toCurl(request, { value: secret });
		expect(command).not.toContain(secret);
		expect(argsOf(command, { CLIENT_SECRET: secret })).toEqual([
			'-X',
			'POST',
			request.url,
			'-H',
			'User-Agent: ua',
			'-H',
			`X-Debug: secret is ${secret}`,
			'-H',
			'Content-Type: application/x-www-form-urlencoded',
			'--data-raw',
			request.body
		]);
	});

	it('builds a Basic credentials header from $CLIENT_SECRET with printf and base64', () => {
		const request: RecordedRequest = {
			method: 'POST',
			url: 'https://accounts.example/oauth/token?grant_type=authorization_code&code=c',
			headers: [
				{ name: 'Authorization', value: `Basic ${base64EncodeUtf8(`it's-me:${MASK}`)}` },
				{ name: 'User-Agent', value: 'ua' }
			],
			body: null
		};
		const command = toCurl(request);
		expect(command).toContain(`"Authorization: Basic $(printf '%s:%s' 'it'\\''s-me' "$CLIENT_SECRET" | base64 | tr -d '\\n')"`);
		const longSecret = 'x'.repeat(80); // long enough that base64 would wrap without `tr -d`
		const args = argsOf(command, { CLIENT_SECRET: longSecret });
		expect(args[args.indexOf('-H') + 1]).toBe(`Authorization: Basic ${btoa(`it's-me:${longSecret}`)}`);
	});

	it('builds a Bearer credentials header the same way', () => {
		const request: RecordedRequest = {
			method: 'POST',
			url: 'https://accounts.example/oauth/token',
			headers: [{ name: 'Authorization', value: `Bearer ${base64EncodeUtf8(`demo:${secret}`)}` }],
			body: null
		};
		const command = toCurl(request, { value: secret });
		expect(command).not.toContain(base64EncodeUtf8(`demo:${secret}`));
		expect(argsOf(command, { CLIENT_SECRET: 'abc' })).toContain(`Authorization: Bearer ${btoa('demo:abc')}`);
	});

	it('leaves masked tokens as $ACCESS_TOKEN and $REFRESH_TOKEN, and a missing User-Agent missing', () => {
		const me: RecordedRequest = {
			method: 'GET',
			url: `https://accounts.example/api/v3/me.json?access_token=${MASK}…ab'c`,
			headers: [{ name: 'Authorization', value: `Bearer ${MASK}…wxyz` }],
			body: null
		};
		const command = toCurl(me);
		expect(argsOf(command, { ACCESS_TOKEN: 'tok' })).toEqual([
			'https://accounts.example/api/v3/me.json?access_token=tok',
			'-H',
			'Authorization: Bearer tok',
			'-H',
			'User-Agent:'
		]);
		const refresh: RecordedRequest = {
			method: 'POST',
			url: 'https://accounts.example/oauth/token',
			headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
			body: `grant_type=refresh_token&refresh_token=${MASK}…1234`
		};
		expect(argsOf(toCurl(refresh), { REFRESH_TOKEN: 'r' })).toContain('grant_type=refresh_token&refresh_token=r');
	});

	it('writes one argument per line, each continued with a backslash', () => {
		const lines = toCurl(tokenRequest).split('\n');
		expect(lines[0]).toBe('curl \\');
		expect(lines.slice(1, -1).every((l) => l.startsWith('  ') && l.endsWith(' \\'))).toBe(true);
	});
});
