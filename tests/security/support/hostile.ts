/**
 * A hostile target and hostile data: strings that run script if anything renders them as HTML, as a URL or as
 * code, put in every field a target or a HAR file can control. `expectInert` checks a page for any sign of them
 * having been interpreted.
 */
import type http from 'node:http';
import { expect, type Page } from '@playwright/test';

/** Each payload, when interpreted, sets window.__pwned or opens a dialog (which the tests fail on). */
export const PAYLOADS = [
	'<script>window.__pwned=1</script>',
	'<img src=x onerror="window.__pwned=1">',
	'javascript:window.__pwned=1',
	'"><svg onload=window.__pwned=1>',
	"'-window.__pwned=1-'",
	'</code></pre><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
	'{@html "<img src=x onerror=window.__pwned=1>"}',
	'<a href="javascript:window.__pwned=1">click</a>',
	'`${window.__pwned=1}`',
	'<img src=x onerror="alert(1)">',
	'<svg><animate onbegin=confirm(1) attributeName=x dur=1s>',
	'javascript:alert(document.domain)'
];
export const HOSTILE = PAYLOADS.join(' ');
const enc = encodeURIComponent;

/** Header values cannot hold line breaks; everything else goes in. */
function hostileHeaders(contentType: string): Record<string, string> {
	return {
		'Content-Type': contentType,
		'X-Hostile': HOSTILE,
		Location: 'javascript:window.__pwned=1',
		Link: '<javascript:window.__pwned=1>; rel="preload"',
		Refresh: '0; url=javascript:window.__pwned=1',
		'Set-Cookie': `hostile=${enc(HOSTILE)}; Path=/`,
		'Content-Security-Policy': "script-src 'unsafe-inline'",
		'WWW-Authenticate': `Bearer realm="${HOSTILE.replaceAll('"', "'")}"`
	};
}

/** A JSON object with hostile keys and values next to `fields`. */
function hostileJson(fields: Record<string, unknown>): string {
	return JSON.stringify({ ...fields, [HOSTILE]: HOSTILE, nested: { [PAYLOADS[1]!]: [HOSTILE, { [PAYLOADS[0]!]: PAYLOADS[2] }] } });
}

/**
 * The target: the authorisation page sends the browser to the explorer's /callback with hostile parameters; the
 * first token exchange succeeds with hostile tokens (so me.json can be called with them), the second answers 200
 * with hostile text where numbers and the token type belong, later ones fail with hostile errors or HTML; me.json
 * answers hostile data, a hostile 401 without a token, a hostile 404 without a User-Agent and a javascript:
 * redirect for a grant code.
 */
export function hostileTarget(explorer: string) {
	let exchanges = 0;
	return (req: http.IncomingMessage, res: http.ServerResponse) => {
		const url = new URL(req.url!, 'http://target');
		req.resume();
		if (url.pathname.startsWith('/sso/')) {
			res.writeHead(302, { Location: `${explorer}/callback?code=${enc(HOSTILE)}&x=${enc(HOSTILE)}&${enc(HOSTILE)}=${enc(PAYLOADS[2]!)}` }).end();
			return;
		}
		if (url.pathname === '/oauth/token') {
			exchanges++;
			if (url.searchParams.get('grant_type') === 'password') {
				res.writeHead(502, HOSTILE, hostileHeaders('text/html')).end(`<!doctype html><title>${HOSTILE}</title><body>${HOSTILE}</body>`);
			} else if (exchanges === 1) {
				res.writeHead(200, HOSTILE, hostileHeaders('application/json')).end(
					JSON.stringify({ access_token: HOSTILE, token_type: 'Bearer', expires_in: 2419199, refresh_token: HOSTILE, created_at: 1_700_000_000 })
				);
			} else if (exchanges === 2) {
				res.writeHead(200, HOSTILE, hostileHeaders('application/json')).end(
					hostileJson({ access_token: HOSTILE, token_type: HOSTILE, expires_in: HOSTILE, refresh_token: HOSTILE, created_at: HOSTILE })
				);
			} else {
				res.writeHead(400, HOSTILE, hostileHeaders('application/json')).end(
					hostileJson({ error: HOSTILE, error_description: HOSTILE, message: HOSTILE })
				);
			}
			return;
		}
		if (url.pathname === '/api/v3/me.json') {
			const credential = req.headers.authorization ?? url.searchParams.get('access_token');
			if (!credential) {
				res.writeHead(401, HOSTILE, hostileHeaders('application/json')).end(hostileJson({ message: HOSTILE }));
			} else if (!req.headers['user-agent']) {
				res.writeHead(404, HOSTILE, hostileHeaders('application/json')).end(hostileJson({ message: HOSTILE }));
			} else if (credential.includes(HOSTILE)) {
				res.writeHead(200, HOSTILE, hostileHeaders('application/json')).end(
					hostileJson({
						sbid_number: HOSTILE,
						verifications: [
							{ supergroup: HOSTILE, expires_on: HOSTILE },
							{ group: HOSTILE, expires_on: PAYLOADS[0] },
							{ group: 'student', expires_on: PAYLOADS[9] },
							{ supergroup: 'student', expires_on: '2099-01-01', [HOSTILE]: HOSTILE }
						]
					})
				);
			} else {
				res.writeHead(302, HOSTILE, hostileHeaders('text/html')).end(`<script>window.__pwned=1</script>`);
			}
			return;
		}
		res.writeHead(404, HOSTILE, hostileHeaders('text/html')).end(HOSTILE);
	};
}

const STRUCTURAL = new Set(['method', 'httpVersion', 'startedDateTime', 'version', 'mimeType', 'encoding']);

/**
 * A HAR with hostile text in every free field: header values, status texts, comments, cookie values, bodies
 * (JSON bodies keep their fields and gain hostile ones), and an extra hostile query parameter on every URL.
 */
export function poisonHar(text: string): string {
	const poison = (value: unknown, key: string | null): unknown => {
		if (Array.isArray(value)) return value.map((v) => poison(v, key));
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
		}
		if (typeof value !== 'string' || (key !== null && STRUCTURAL.has(key))) return value;
		if (key === 'url' || key === 'redirectURL') return value ? `${value}${value.includes('?') ? '&' : '?'}x=${enc(HOSTILE)}` : value;
		if (key === 'text') {
			try {
				return hostileJson(JSON.parse(value) as Record<string, unknown>);
			} catch {
				return `${value}${HOSTILE}`;
			}
		}
		if (key === 'name') return value;
		return `${value} ${HOSTILE}`;
	};
	const har = poison(JSON.parse(text), null) as { log: { comment?: string } };
	har.log.comment = HOSTILE;
	return JSON.stringify(har);
}

/** Fails when anything of a payload was interpreted on the page. */
export async function expectInert(page: Page, where: string): Promise<void> {
	const found = await page.evaluate(() => {
		const problems: string[] = [];
		if ((window as unknown as { __pwned?: unknown }).__pwned !== undefined) problems.push('window.__pwned is set');
		for (const element of document.querySelectorAll('*')) {
			for (const attribute of element.attributes) {
				const name = attribute.name.toLowerCase();
				const value = attribute.value.trim().toLowerCase();
				if (name.startsWith('on')) problems.push(`<${element.tagName}> has ${name}="${attribute.value}"`);
				if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data'].includes(name) && value.startsWith('javascript:')) {
					problems.push(`<${element.tagName}> has ${name}="${attribute.value}"`);
				}
				if (name === 'srcdoc') problems.push(`<${element.tagName}> has srcdoc`);
			}
			// SvelteKit's inline page data holds the payloads escaped, as data; a payload's own script starts with it.
			if (element.tagName === 'SCRIPT' && /^\s*(window|parent)\.__pwned/.test(element.textContent ?? '')) problems.push('a <script> from a payload');
			if (['IFRAME', 'SVG', 'OBJECT', 'EMBED'].includes(element.tagName.toUpperCase()) && element.outerHTML.includes('pwned')) {
				problems.push(`an element <${element.tagName}> from a payload`);
			}
			if (element.tagName === 'IMG' && element.getAttribute('src') === 'x') problems.push('an <img src=x> from a payload');
		}
		return problems;
	});
	expect(found, where).toEqual([]);
}
