import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harStreamToRun, harToRun, runToHar } from './har';
import { scanHar } from './har-stream';
import { largeHarPieces, PADDING_COOKIE } from '../../testing/large-har';
import { redactRun } from '../redact/redact';
import { exchange, run } from '../test-helpers';

const dir = new URL('./fixtures/', import.meta.url);
const FIXTURES = readdirSync(dir).map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }));
const OPTIONS = { id: 'streamed', now: new Date('2026-03-02T10:00:00Z') };

/** The text in pieces of `size` characters, as a body arrives. */
async function* pieces(text: string, size = 7): AsyncGenerator<string> {
	for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function* bytes(chunks: Iterable<string>): AsyncGenerator<Uint8Array> {
	for (const chunk of chunks) yield new TextEncoder().encode(chunk);
}

const failure = async (text: string, maxBytes?: number) => {
	const result = await harStreamToRun(pieces(text), { ...OPTIONS, ...(maxBytes ? { maxBytes } : {}) });
	return result.ok ? '' : result.message;
};

const entry = (url: string, body: string, extra: Record<string, unknown> = {}) => ({
	startedDateTime: '2026-03-02T09:00:00.000Z',
	time: 1,
	request: { method: 'GET', url, httpVersion: 'h2', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
	response: {
		status: 200,
		statusText: '',
		httpVersion: 'h2',
		cookies: [],
		headers: [],
		content: { size: body.length, mimeType: 'text/plain', text: body },
		redirectURL: '',
		headersSize: -1,
		bodySize: body.length
	},
	cache: {},
	timings: { send: 0, wait: 1, receive: 0 },
	...extra
});
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '1' }, entries } });
const LINK = 'https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=https%3A%2F%2Fshop.example.com%2Fcb';

describe('harStreamToRun', () => {
	for (const { name, text } of FIXTURES)
		it(`imports ${name} read in pieces as harToRun imports it whole`, async () => {
			expect(await harStreamToRun(pieces(text), OPTIONS)).toEqual(harToRun(text, OPTIONS));
		});

	it('gives back an exported run exactly, every entry kept, as an imported HAR now', async () => {
		const original = redactRun(
			run({
				link: LINK,
				exchanges: [
					exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token' }, { status: 400, body: '{"error":"invalid_grant"}' }, 't'),
					// Not a path the flow uses: kept all the same, since the file is one of our exports.
					exchange('me', { url: 'https://accounts.example.com/elsewhere' }, { status: 404, body: 'not here' }, 'm')
				]
			})
		);
		const back = await harStreamToRun(pieces(JSON.stringify(runToHar(original)), 13));
		expect(back.ok && back.run).toEqual({ ...original, source: 'har' });
	});
});

describe('scanHar: which entries are kept', () => {
	it('keeps the flow, drops the rest, and never builds the bodies of unrelated entries', async () => {
		const text = har([
			entry('https://cdn.example.net/a.js', 'SCRIPT-BEFORE-LINK'),
			entry('https://shop.example.com/cb?code=early', 'EARLY-ARRIVAL-BODY'),
			entry(LINK, 'LINK-BODY'),
			entry('https://cdn.example.net/b.png', 'IMAGE-AFTER-LINK', { _webSocketMessages: [{ data: 'WS-MESSAGE' }] }),
			entry('https://shop.example.com/cb?code=c1', 'CALLBACK-BODY'),
			entry('https://accounts.example.com/api/v3/me.json', 'ME-BODY')
		]);
		const scan = await scanHar(pieces(text, 3), { maxBytes: 1e6 });
		expect(scan.ok).toBe(true);
		if (!scan.ok) return;
		expect(scan.total).toBe(6);
		expect(scan.entries.map((e) => e.index)).toEqual([1, 2, 4, 5]);
		const kept = JSON.stringify(scan.entries);
		expect(kept).toContain('LINK-BODY');
		expect(kept).toContain('CALLBACK-BODY');
		expect(kept).toContain('ME-BODY');
		// Read before the link named the redirect URI: kept as an arrival, but its body was dropped as it streamed.
		expect(kept).not.toContain('EARLY-ARRIVAL-BODY');
		expect(kept).not.toContain('WS-MESSAGE');
	});

	it('lets the pending entries go at the end when no link or token names a redirect URI', async () => {
		const scan = await scanHar(pieces(har([entry('https://cdn.example.net/a.js', 'x'), entry('https://accounts.example.com/api/v3/me.json', 'y')])), { maxBytes: 1e6 });
		expect(scan.ok && scan.entries.map((e) => e.index)).toEqual([1]);
	});

	it('finds the flow of a generated browser HAR among 300 entries with bodies, and no padding cookie survives', async () => {
		const result = await harStreamToRun(bytes(largeHarPieces({ bytes: 3_000_000, entries: 300 })), OPTIONS);
		if (!result.ok) throw new Error(result.message);
		expect(result.run.exchanges.map((e) => e.step)).toEqual(['link', 'arrival', 'token', 'me']);
		expect(result.found).toContain('ignored 296 unrelated requests');
		expect(JSON.stringify(result.run)).not.toContain(PADDING_COOKIE);
	});
});

describe('harStreamToRun: bad files', () => {
	it('says when the file is not JSON, or is cut short', async () => {
		expect(await failure('<html>')).toMatch(/not JSON/);
		const whole = FIXTURES[0]!.text;
		expect(await failure(whole.slice(0, whole.length / 2))).toMatch(/not JSON/);
	});

	it('says when the JSON is not a HAR', async () => {
		expect(await failure('{"log":{}}')).toMatch(/no log\.entries/);
		expect(await failure('[1,2]')).toMatch(/no log\.entries/);
		expect(await failure('"log"')).toMatch(/no log\.entries/);
	});

	it('names the malformed entry and field, as harToRun does', async () => {
		const broken = JSON.parse(har([entry(LINK, ''), entry(LINK, ''), entry(LINK, '')]));
		delete broken.log.entries[2].request.url;
		const whole = harToRun(JSON.stringify(broken));
		expect(await failure(JSON.stringify(broken))).toBe(whole.ok ? 'imported' : whole.message);
		expect(await failure(JSON.stringify(broken))).toMatch(/entry 3: request\.url is missing/);
		broken.log.entries[2].request.url = 'x';
		broken.log.entries[0] = 42;
		expect(await failure(JSON.stringify(broken))).toMatch(/This HAR is malformed: entry 1/);
		delete broken.log.entries[0];
		broken.log.entries.shift();
		delete broken.log.creator;
		expect(await failure(JSON.stringify(broken))).toMatch(/log\.creator is missing/);
	});

	it('refuses a file nested deeper than a HAR, read whole or in pieces, before building it', async () => {
		const deep = `{"log":{"entries":[${'['.repeat(200_000)}${']'.repeat(200_000)}]}}`;
		const message = expect.stringMatching(/^This file nests arrays or objects more than 256 levels deep, and a HAR nests a few: it is not a HAR\./);
		expect(harToRun(deep)).toEqual({ ok: false, message });
		const pieces = (async function* () {
			for (let i = 0; i < deep.length; i += 65_536) yield deep.slice(i, i + 65_536);
		})();
		expect(await harStreamToRun(pieces)).toEqual({ ok: false, message });
	});

	it("skips unread what the import does not read outside the entries, however large: the root's other keys and the log's", async () => {
		const filler = `[${'{},'.repeat(200_000)}{}]`;
		const text = `{"padding":${filler},"log":{"version":"1.2","creator":{"name":"x","version":"1"},"x":${filler},"pages":${filler},"entries":[]}}`;
		const scan = await scanHar(pieces(text, 65_536), { maxBytes: 100 * 1024 * 1024 });
		expect(scan).toMatchObject({ ok: true, total: 0 });
		expect(scan.ok && Object.keys(scan.log)).toEqual(['version', 'creator', 'entries']);
	});

	it("refuses a log whose own fields hold more values than any HAR's, as it reads, before building them", async () => {
		const message = expect.stringMatching(/^This file holds far more values outside its entries than a HAR does/);
		for (const field of ['comment', 'creator', '_ssoFlowExplorer']) {
			const text = `{"log":{"version":"1.2","${field}":[${'{},'.repeat(20_000)}{}],"entries":[]}}`;
			expect(await harStreamToRun(pieces(text, 65_536))).toEqual({ ok: false, message });
		}
		// A root that is one big array is no HAR either, and is not built whole.
		expect(await harStreamToRun(pieces(`[${'{},'.repeat(20_000)}{}]`, 65_536))).toEqual({ ok: false, message });
	});

	it('refuses an entry holding more values than any browser writes, naming it, as it reads', async () => {
		const bomb = `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[${JSON.stringify(entry(LINK, ''))},{"request":{"x":[${'{},'.repeat(60_000)}{}]}}]}}`;
		expect(await harStreamToRun(pieces(bomb, 65_536))).toEqual({ ok: false, message: expect.stringMatching(/^This file holds far more values in entry 2 than a HAR does/) });
		// An entry of a real browser's size is read: the count starts again at each entry.
		const many = Array.from({ length: 30 }, () => entry(LINK, '', { request: { ...entry(LINK, '').request, headers: Array.from({ length: 2_000 }, (_, i) => ({ name: `x-${i}`, value: 'v' })) } }));
		expect((await harStreamToRun(pieces(har(many), 65_536))).ok).toBe(true);
	});

	it('refuses a file over the limit, in MB, saying what to do', async () => {
		const result = await harStreamToRun(bytes(largeHarPieces({ bytes: 3 * 1024 * 1024, entries: 30 })), { maxBytes: 2 * 1024 * 1024 });
		expect(result).toEqual({ ok: false, tooLarge: true, message: expect.stringMatching(/^The file is more than 2 MB; at most 2 MB can be imported\. Record a shorter HAR/) });
	});
});

describe('a HAR of a Flask app with its debugger on', () => {
	it('keeps the crash as the callback: the debugger\'s files fetched at the callback\'s path are no arrivals', async () => {
		const at = (s: number) => ({ startedDateTime: `2026-03-02T09:00:${String(s).padStart(2, '0')}.000Z` });
		const entries = [
			entry(LINK, '', at(0)),
			entry('https://shop.example.com/cb?code=c-1', 'Traceback (most recent call last):', { ...at(5), response: { ...entry('', '').response, status: 500 } }),
			...['debugger.js', 'style.css', 'less.png', 'more.png', 'console.png'].map((f, i) => entry(`https://shop.example.com/cb?__debugger__=yes&cmd=resource&f=${f}`, '/* file */', at(6 + i)))
		];
		const result = await harStreamToRun(pieces(har(entries), 4096), OPTIONS);
		expect(result.ok && result.run.callback?.url).toBe('https://shop.example.com/cb?code=c-1');
		expect(result.ok && result.run.exchanges.filter((e) => e.step === 'arrival').map((e) => e.request.url)).toEqual(['https://shop.example.com/cb?code=c-1']);
	});
});
