import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { highlight } from './highlight';

/** WCAG 2 relative luminance and contrast ratio of two `#rrggbb` colours. */
function luminance(hex: string): number {
	const [r, g, b] = hex.slice(1, 7).match(/../g)!.map((h) => {
		const v = parseInt(h, 16) / 255;
		return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
	});
	return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
	const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
	return (hi! + 0.05) / (lo! + 0.05);
};

/** The code background of each theme, as the stylesheet defines it (first value: light, last: dark). */
const codeBackgrounds = [...readFileSync(new URL('../../../app.css', import.meta.url), 'utf8').matchAll(/--code-bg:\s*(#[0-9a-f]{6})/gi)].map((m) => m[1]!);

/** An exchange, its JSON body and a curl command: every kind of token the explorer highlights. */
const SAMPLES: [string, 'http' | 'json' | 'shellscript'][] = [
	['POST /oauth/token?grant_type=authorization_code&code=abc HTTP/1.1\nHost: localhost:3002\nContent-Type: application/json\n', 'http'],
	['{"access_token": "x", "expires_in": 2419199, "ok": true, "none": null, "list": [1, "a"]}', 'json'],
	['curl -X POST "https://x.example/oauth/token?a=1" -H \'User-Agent: x\' --data-urlencode "client_secret=$CLIENT_SECRET" # note', 'shellscript']
];

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

	it('gives every token at least 4.5:1 contrast on the code background, in both themes (WCAG AA)', async () => {
		const [light, dark] = [codeBackgrounds[0]!, codeBackgrounds.at(-1)!];
		expect(light).not.toBe(dark);
		const weak: string[] = [];
		for (const [code, lang] of SAMPLES) {
			const html = await highlight(code, lang);
			for (const [, l, d] of html.matchAll(/--shiki-light:(#[0-9a-f]{6})[^;"]*;--shiki-dark:(#[0-9a-f]{6})/gi)) {
				if (contrast(l!, light) < 4.5) weak.push(`light ${l} on ${light}: ${contrast(l!, light).toFixed(2)}`);
				if (contrast(d!, dark) < 4.5) weak.push(`dark ${d} on ${dark}: ${contrast(d!, dark).toFixed(2)}`);
			}
		}
		expect(weak).toEqual([]);
	});

	it('colours an exchange by part: method, status code, header names and values, and the JSON body', async () => {
		const tokens = async (code: string) => {
			const html = await highlight(code, 'http');
			return [...html.matchAll(/<span style="--shiki-light:(#[0-9a-f]{6})[^"]*">([^<]*)<\/span>/gi)].map(([, colour, text]) => ({ colour, text: text! }));
		};
		const colourOf = (list: { colour?: string; text: string }[], text: string) => list.find((t) => t.text.trim() === text)?.colour;
		const request = await tokens('GET /api/v3/me.json HTTP/1.1\nUser-Agent: x\n');
		const response = await tokens('HTTP/1.1 401 Unauthorized\nContent-Type: application/json\n\n{"message": "Invalid token", "n": 2}');
		const plain = colourOf(request, '/api/v3/me.json');
		expect(colourOf(request, 'GET')).toBeDefined();
		expect(colourOf(request, 'GET')).not.toBe(plain);
		expect(colourOf(response, '401')).toBeDefined();
		expect(colourOf(response, 'Content-Type')).not.toBe(colourOf(response, 'application/json'));
		// The body is JSON: keys, strings and numbers each in their colour, unlike a header line.
		const key = colourOf(response, '"message"') ?? colourOf(response, 'message');
		expect(key).toBeDefined();
		expect(colourOf(response, '2')).toBeDefined();
		expect(colourOf(response, '2')).not.toBe(key);
	});
});
