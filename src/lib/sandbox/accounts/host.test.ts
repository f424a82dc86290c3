import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseParams, splitTarget } from './http';
import { accessTokenFor, startAccounts, type RunningAccounts } from './test-support';

let sandbox: RunningAccounts;
beforeEach(async () => {
	sandbox = await startAccounts();
});
afterEach(() => sandbox.close());

describe('accounts host routing', () => {
	it('answers the health check with JSON', async () => {
		const res = await fetch(`${sandbox.url}/health`);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ ok: true, host: 'accounts', now: expect.any(String) });
	});
	it('answers another method on the health check with a 405 naming the allowed ones', async () => {
		const res = await fetch(`${sandbox.url}/health`, { method: 'DELETE' });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET, HEAD');
		expect(((await res.json()) as { message: string }).message).toBe('/health only answers GET and HEAD, not DELETE.');
	});
	it('answers an unknown path with a 404 naming the endpoints', async () => {
		const res = await fetch(`${sandbox.url}/api/v2/me.json`);
		expect(res.status).toBe(404);
		expect(((await res.json()) as { message: string }).message).toContain('/api/v3/me.json');
	});
	it('answers HEAD on me.json without a body', async () => {
		const token = await accessTokenFor(sandbox, 'student@example.com');
		const res = await fetch(`${sandbox.url}/api/v3/me.json`, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, 'user-agent': 't/1' } });
		expect(res.status).toBe(200);
		expect(await res.text()).toBe('');
	});
});

describe('request parsing', () => {
	it('splits origin-form and absolute-form targets', () => {
		expect(splitTarget('/oauth/token?a=1')).toEqual({ path: '/oauth/token', query: 'a=1' });
		expect(splitTarget('http://h.example/api/v3/me.json?x')).toEqual({ path: '/api/v3/me.json', query: 'x' });
		expect(splitTarget('*')).toEqual({ path: '/', query: '' });
	});
	it('parses form-urlencoded text strictly', () => {
		const ok = parseParams('a=1&b=x+y&c=%2F&empty=', 'query string');
		expect(ok.ok && [...ok.params]).toEqual([['a', '1'], ['b', 'x y'], ['c', '/']]);
		expect(parseParams('a=%', 'query string').ok).toBe(false);
		expect(parseParams('a=1&a=2', 'query string').ok).toBe(false);
		expect(parseParams('a=%00', 'query string').ok).toBe(false);
	});
});
