import { describe, expect, it } from 'vitest';
import { highlight } from './highlight';

describe('highlight', () => {
	it('renders an HTTP request with every token and dual-theme variables', async () => {
		const html = await highlight('GET /api/v3/me.json HTTP/1.1\nHost: accounts.example\n', 'http');
		expect(html.startsWith('<pre')).toBe(true);
		const text = html.replace(/<[^>]+>/g, '');
		expect(text).toContain('GET /api/v3/me.json HTTP/1.1');
		expect(text).toContain('Host: accounts.example');
		expect(html).toContain('--shiki-light:');
		expect(html).toContain('--shiki-dark:');
	});

	it('escapes markup in the code', async () => {
		const html = await highlight('{"message": "<script>alert(1)</script>"}', 'json');
		expect(html).not.toContain('<script>');
		expect(html).toContain('&#x3C;script>');
	});

	it('highlights shell commands, also when called concurrently', async () => {
		const [a, b] = await Promise.all([highlight('curl -X POST "$URL"', 'shellscript'), highlight('echo hi', 'shellscript')]);
		expect(a.replace(/<[^>]+>/g, '')).toContain('curl -X POST');
		expect(b.replace(/<[^>]+>/g, '')).toContain('echo hi');
	});
});
