import { describe, expect, it } from 'vitest';
import { HarSchema, harToRun, runToHar } from './har';
import { redactRun } from '../redact/redact';
import { exchange, run } from '../test-helpers';

const LINK = 'https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=https%3A%2F%2Fshop.example.com%2Fcb&country=uk';
const CALLBACK = { url: 'https://shop.example.com/cb?code=c-123456', receivedAt: '2026-01-01T10:00:00.000Z' };

function walkRun() {
	return run({
		link: LINK,
		callback: CALLBACK,
		sandboxClock: '2026-01-01T10:00:00.000Z',
		redactions: [{ what: 'client secret', where: 'exchange 1 (token) URL parameter client_secret' }],
		exchanges: [
			exchange(
				'token',
				{ method: 'POST', url: 'https://accounts.example.com/oauth/token?code=c-123456&client_secret=••••••', headers: { 'User-Agent': 'x' } },
				{ status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"access_token":"••••••"}' },
				't1'
			),
			{
				...exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: '' }, undefined, 't2'),
				failure: { kind: 'timeout', message: 'no answer in 10 s', timeoutMs: 10000 }
			},
			{
				...exchange('me', { url: 'https://accounts.example.com/api/v3/me.json' }, { status: 403 }, 'm1'),
				masked: [{ kind: 'access_token', where: 'request header Authorization', hint: '…abcd' }]
			}
		]
	});
}

describe('runToHar', () => {
	it('writes valid HAR 1.2: version, creator, and every required field of each entry', () => {
		const har = runToHar(walkRun());
		expect(HarSchema.safeParse(har).success).toBe(true);
		expect(har.log.version).toBe('1.2');
		for (const entry of har.log.entries) {
			expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
			expect(entry.time).toBeGreaterThanOrEqual(0);
			expect(entry.time).toBe(entry.timings.send + entry.timings.wait + entry.timings.receive);
			expect(entry.request.bodySize).toBeGreaterThanOrEqual(0);
		}
	});

	it('adds the link and the callback as GET entries, link first, callback before the first API call', () => {
		const urls = runToHar(walkRun()).log.entries.map((e) => `${e.request.method} ${e.request.url}`);
		expect(urls.slice(0, 2)).toEqual([`GET ${LINK}`, `GET ${CALLBACK.url}`]);
		expect(urls).toHaveLength(5);
	});

	it('lists query parameters decoded, and a body as postData only when there is one', () => {
		const [, , token, failed, me] = runToHar(walkRun()).log.entries;
		expect(token?.request.queryString).toEqual([
			{ name: 'code', value: 'c-123456' },
			{ name: 'client_secret', value: '••••••' }
		]);
		expect(token?.request.postData).toBeUndefined();
		expect(failed?.request.postData).toEqual({ mimeType: '', text: '' });
		expect(failed?.response.status).toBe(0);
		expect(me?.response.content).toEqual({ size: 0, mimeType: 'x-unknown', text: '' });
	});
});

describe('harToRun: round trip', () => {
	it('gives back the same run from an exported HAR, now an imported one, saying what it was', () => {
		const original = redactRun(walkRun());
		const back = harToRun(JSON.stringify(runToHar(original)));
		expect(back.ok && back.run).toEqual({ ...original, source: 'har' });
		expect(back.ok && back.found[0]).toBe('an SSO Flow Explorer export of a walk in the explorer: the run is restored as it was saved');
	});

	it('takes the id it is given, so re-importing an export never overwrites the run it came from', () => {
		const original = redactRun(walkRun());
		const back = harToRun(JSON.stringify(runToHar(original)), { id: 'a-new-id' });
		expect(back.ok && back.run).toEqual({ ...original, id: 'a-new-id', source: 'har' });
	});

	it('keeps a link or callback that is an exchange as that exchange, without a duplicate entry', () => {
		const original = redactRun(run({
			link: LINK,
			callback: CALLBACK,
			source: 'har',
			exchanges: [
				exchange('link', { url: LINK }, { status: 302, headers: { Location: '/login' } }, 'l'),
				{ ...exchange('arrival', { url: CALLBACK.url }, { status: 200 }, 'a'), startedAt: CALLBACK.receivedAt }
			]
		}));
		const har = runToHar(original);
		expect(har.log.entries).toHaveLength(2);
		const back = harToRun(JSON.stringify(har));
		expect(back.ok && back.run).toEqual(original);
	});

	it('reads an export made when sign-in pages and arrivals were both `authorise`: a live run\'s pages, a HAR\'s arrival', () => {
		const original = redactRun(run({
			link: LINK,
			source: 'live',
			exchanges: [
				exchange('sign-in', { method: 'POST', url: 'https://auth.example.com/flow/f1/consent' }, { status: 303, headers: { Location: CALLBACK.url } }, 's'),
				{ ...exchange('arrival', { url: CALLBACK.url }, { status: 500 }, 'a'), evidence: { source: 'har', timed: true, matchedBy: 'code' } }
			]
		}));
		const old = JSON.stringify(runToHar(original)).replaceAll('"step":"sign-in"', '"step":"authorise"').replaceAll('"step":"arrival"', '"step":"authorise"');
		expect(old).not.toMatch(/"step":"(sign-in|arrival)"/);
		const back = harToRun(old);
		expect(back.ok && back.run.exchanges.map((e) => e.step)).toEqual(['sign-in', 'arrival']);
		expect(back.ok && back.run).toEqual({ ...original, source: 'har' });
	});
});

describe('harToRun: bad files', () => {
	const fail = (text: string, options = {}) => {
		const result = harToRun(text, options);
		return result.ok ? '' : result.message;
	};
	it('says when the file is not JSON', () => {
		expect(fail('<html>')).toMatch(/not JSON/);
	});
	it('says when the JSON is not a HAR', () => {
		expect(fail('{"log":{}}')).toMatch(/no log\.entries/);
		expect(fail('[1,2]')).toMatch(/no log\.entries/);
	});
	it('says when the file is too large, before parsing it', () => {
		expect(fail(`{"log":{"entries":[]},"pad":"${'x'.repeat(2048)}"}`, { maxBytes: 1024 })).toMatch(/at most 1 KB/);
	});
	it('names the malformed entry and field', () => {
		const har = runToHar(walkRun());
		const broken = JSON.parse(JSON.stringify(har));
		delete broken.log.entries[2].request.url;
		expect(fail(JSON.stringify(broken))).toMatch(/entry 3: request\.url is missing/);
		broken.log.entries[2].request.url = 'x';
		broken.log.entries[0].response.status = 'ok';
		expect(fail(JSON.stringify(broken))).toMatch(/entry 1: response\.status should be a number/);
	});
	it('says when nothing in the file belongs to the flow', () => {
		const har = { log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } };
		expect(fail(JSON.stringify(har))).toMatch(/None of the 0 requests belongs to the sign-in flow/);
	});
});
