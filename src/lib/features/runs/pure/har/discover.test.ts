import { describe, expect, it } from 'vitest';
import { crossFlags } from '$lib/flow/flags';
import { harStreamToRun, harToRun } from './har';

/** A single-page app's sign-in as Chrome records it: the link, the sandbox's pages, the arrival, the app's own API. */
const CODE = 'Zq3xV9kLm2Rt8WpY4sNc';
const REDIRECT = 'https://shop.example.com/callback';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`;

let second = 0;
function entry(method: string, url: string, status: number, options: { body?: string; location?: string; answer?: string; type?: string } = {}) {
	second += 1;
	const answer = options.answer ?? '';
	return {
		startedDateTime: `2026-03-02T09:00:${String(second).padStart(2, '0')}.000Z`,
		time: 20,
		request: {
			method,
			url,
			httpVersion: 'h2',
			cookies: [],
			headers: options.body ? [{ name: 'content-type', value: 'application/json' }] : [],
			queryString: [],
			headersSize: -1,
			bodySize: options.body?.length ?? 0,
			...(options.body ? { postData: { mimeType: 'application/json', text: options.body } } : {})
		},
		response: {
			status,
			statusText: '',
			httpVersion: 'h2',
			cookies: [],
			headers: [...(options.location ? [{ name: 'location', value: options.location }] : [])],
			content: { size: answer.length, mimeType: options.type ?? 'text/html', text: answer },
			redirectURL: options.location ?? '',
			headersSize: -1,
			bodySize: answer.length
		},
		cache: {},
		timings: { send: 0, wait: 20, receive: 0 }
	};
}

/** Through the sandbox's page to the arrival at the redirect URI (`query`: `?code=…`, or nothing for a cancel). */
const signIn = (query: string) => [
	entry('GET', LINK, 302, { location: 'https://auth.example.com/sso/student/flow/1' }),
	entry('GET', 'https://auth.example.com/sso/student/flow/1', 200, { answer: '<form method="post"><button>Sign in</button></form>' }),
	entry('POST', 'https://auth.example.com/sso/student/flow/1', 302, { body: '{}', location: `${REDIRECT}${query}` }),
	entry('GET', `${REDIRECT}${query}`, 200, { answer: '<!doctype html><div id="app"></div><script src="/assets/app.js"></script>' }),
	entry('GET', 'https://shop.example.com/assets/app.js', 200, { answer: 'fetch("/api/session")', type: 'text/javascript' }),
	entry('GET', 'https://fonts.example.net/inter.woff2', 200, { type: 'font/woff2' })
];
const api = (body: string, status: number, answer: string) =>
	entry('POST', 'https://shop.example.com/api/session', status, { body, answer, type: 'application/json' });
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '1' }, entries } });

async function* pieces(text: string): AsyncGenerator<string> {
	for (let i = 0; i < text.length; i += 11) yield text.slice(i, i + 11);
}

function imported(text: string) {
	const result = harToRun(text, { id: 'spa', now: new Date('2026-03-02T10:00:00Z') });
	if (!result.ok) throw new Error(result.message);
	return result;
}

describe("discoverFlow: a single-page app's own API calls", () => {
	const doubled = har([...signIn(`?code=${CODE}`), api(`{"code":"${CODE}"}`, 200, '{"ok":true}'), api(`{"code":"${CODE}"}`, 500, '{"error":"sign-in failed"}')]);

	it('keeps the calls that carry the arrival\'s code, by its value, and flags the code sent twice', async () => {
		const { run, found } = imported(doubled);
		const calls = run.exchanges.filter((e) => e.request.url.endsWith('/api/session'));
		expect(calls).toHaveLength(2);
		expect(calls.every((e) => e.step === 'arrival' && e.label.includes('carrying the code'))).toBe(true);
		expect(found.join('\n')).toContain('ignored 4 unrelated requests'); // the sandbox page, the script, the font, the form's page
		const flags = crossFlags(run);
		const twice = flags.find((f) => f.id === 'code-sent-twice');
		expect(twice).toMatchObject({ severity: 'error', exchangeId: calls[1]!.id });
		expect(twice?.message).toContain('2 times');
		expect(twice?.message).toContain('POST /api/session, answered 500');
		expect(twice?.message).toContain('arrived at the redirect URI once');
		expect(await harStreamToRun(pieces(doubled), { id: 'spa', now: new Date('2026-03-02T10:00:00Z') })).toEqual(imported(doubled));
	});

	it('does not flag one call per arrival of the code', () => {
		const { run } = imported(har([...signIn(`?code=${CODE}`), api(`{"code":"${CODE}"}`, 200, '{"ok":true}')]));
		expect(run.exchanges.filter((e) => e.request.url.endsWith('/api/session'))).toHaveLength(1);
		expect(crossFlags(run).map((f) => f.id)).not.toContain('code-sent-twice');
	});

	it('keeps a call sending `code: null` after a cancel, and flags the sign-in attempted without a code', async () => {
		const text = har([...signIn(''), api('{"code":null}', 400, '{"error":"invalid_request"}')]);
		const { run } = imported(text);
		const call = run.exchanges.find((e) => e.request.url.endsWith('/api/session'));
		expect(call?.label).toContain('sending no code, after the cancel');
		const flag = crossFlags(run).find((f) => f.id === 'sign-in-after-cancel');
		expect(flag).toMatchObject({ severity: 'error', exchangeId: call!.id });
		expect(flag?.message).toContain('POST /api/session, answered 400');
		expect(await harStreamToRun(pieces(text), { id: 'spa', now: new Date('2026-03-02T10:00:00Z') })).toEqual(imported(text));
	});

	it('leaves out a request with an empty `code` when nobody cancelled, and requests that carry no code', () => {
		const { run } = imported(har([...signIn(`?code=${CODE}`), api('{"code":null}', 400, '{}'), api('{"cart":3}', 200, '{}')]));
		expect(run.exchanges.some((e) => e.request.url.endsWith('/api/session'))).toBe(false);
	});
});

describe("discoverFlow: where the app's answer at the redirect URI sent the browser", () => {
	/** A cancel answered with a redirect of the app's own (omniauth's 302 to /auth/failure), then the page it leads to. */
	const cancelTo = (path: string, status: number, page: string) => [
		entry('GET', LINK, 302, { location: 'https://auth.example.com/sso/student/flow/1' }),
		entry('POST', 'https://auth.example.com/sso/student/flow/1', 302, { body: '{}', location: REDIRECT }),
		entry('GET', REDIRECT, 302, { location: path }),
		entry('GET', 'https://shop.example.com/unrelated', 200, { answer: '<title>Other</title>' }),
		entry('GET', `https://shop.example.com${path}`, status, { answer: page })
	];
	const options = { id: 'omniauth', now: new Date('2026-03-02T10:00:00Z') };

	it('keeps the page the redirect led to, and reads a cancel that ends on an error page as the cancel-as-error bug', async () => {
		const text = har(cancelTo('/auth/failure?message=invalid_credentials&strategy=sso', 400, '<title>Sign-in not completed</title><p>The sign-in did not complete (invalid_credentials).</p>'));
		const { run } = imported(text);
		expect(run.exchanges.map((e) => new URL(e.request.url).pathname)).toEqual(['/sso/student', '/callback', '/auth/failure']);
		expect(run.exchanges[2]?.label).toContain('sent the browser');
		const flag = crossFlags(run).find((f) => f.id === 'cancel-failed');
		expect(flag?.message).toContain('answered 302 to /auth/failure?message=invalid_credentials&strategy=sso, which answered 400 (exchange 3)');
		expect(await harStreamToRun(pieces(text), options)).toEqual(harToRun(text, options));
	});

	it('leaves a cancel that ends on a page of the app\'s own saying so as a cancel', () => {
		const { run } = imported(har(cancelTo('/?cancelled=1', 200, '<title>Sign-in cancelled</title><p>You cancelled the sign-in.</p>')));
		expect(run.exchanges).toHaveLength(3);
		expect(crossFlags(run).map((f) => f.id)).not.toContain('cancel-failed');
	});

	it('follows no redirect to another origin', () => {
		const entries = cancelTo('/x', 200, '');
		entries[2] = entry('GET', REDIRECT, 302, { location: 'https://elsewhere.example.net/x' });
		entries[4] = entry('GET', 'https://elsewhere.example.net/x', 500, {});
		expect(imported(har(entries)).run.exchanges).toHaveLength(2);
	});
});
