import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { leaks } from '$lib/http/leak-forms';
import { parseCurl, parseRawHttp } from './curl-import';
import { diagnoseRun } from './diagnose-run';
import { channelOf, joinEvidence, keepAddedEvidence, timelineOf, type Evidence } from './join';
import type { LogEntry, LoggedExchange } from '$lib/http/logged-exchange';
import { onSandboxHosts, sandboxLogEvidence } from './sandbox-log-evidence';
import { redactRun } from './redact/redact';
import type { Run } from './run';
import { exchange, run } from './test-helpers';
import { expectLinear } from '$lib/flow/testing/expect-linear';
import { sharedCodeFlow } from '$lib/flow/testing/shared-code-flow';

const SECRET = 'Sh0p-Secret-4f8a9b2c1d';
const TOKEN = 'at_7Yq2Lm9Xw4Rt8Kp3Vn6Bz1Cd';
const CODE = 'code-5e1f0c7a9b3d2e4f';
const REDIRECT = 'https://shop.example.com/cb';
const LINK = `https://auth.example.com/sso/student?response_type=code&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`;

/** A walk stopped after the callback: the link and the browser's arrival with the code, then saved (redacted). */
const walked = redactRun(
	run({
		link: LINK,
		callback: { url: `${REDIRECT}?code=${CODE}`, receivedAt: '2026-01-01T10:00:05.000Z' },
		exchanges: [
			{ ...exchange('link', { url: LINK }, { status: 200 }), startedAt: '2026-01-01T10:00:00.000Z' },
			{ ...exchange('arrival', { url: `${REDIRECT}?code=${CODE}` }, { status: 200 }), startedAt: '2026-01-01T10:00:05.000Z' }
		]
	})
);

const TOKEN_CURL = `curl -X POST 'https://accounts.example.com/oauth/token' -H 'User-Agent: shop/1' -d grant_type=authorization_code -d code=${CODE} -d client_id=shop -d client_secret=${SECRET} -d redirect_uri=${encodeURIComponent(REDIRECT)}`;

function pasted(result: ReturnType<typeof parseCurl>, source: 'curl' | 'http' = 'curl'): Evidence {
	if (!result.ok) throw new Error(result.message);
	return { source, timed: false, record: result.run, redactions: result.run.redactions };
}

const TOKEN_HTTP = [
	'POST /oauth/token HTTP/1.1',
	'Host: accounts.example.com',
	'User-Agent: shop/1',
	'Content-Type: application/x-www-form-urlencoded',
	'',
	`grant_type=authorization_code&code=${CODE}&client_id=shop&client_secret=${SECRET}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
	'HTTP/1.1 200 OK',
	'Content-Type: application/json',
	'',
	`{"access_token":"${TOKEN}","token_type":"Bearer"}`
].join('\n');

const ME_HTTP = ['GET /api/v3/me.json HTTP/1.1', 'Host: accounts.example.com', `Authorization: Bearer ${TOKEN}`, '', 'HTTP/1.1 403 Forbidden', '', '{}'].join('\n');

/** The run redacted as the store redacts it. */
const saved = (joined: Run) => redactRun({ ...joined, id: `${joined.id}-saved` });

describe('joinEvidence', () => {
	it('places a pasted token exchange after the redirect that carried its code, and the checks run over the whole', () => {
		const joined = joinEvidence(walked, pasted(parseCurl(TOKEN_CURL)));
		expect(joined.run.exchanges.map((e) => e.step)).toEqual(['link', 'arrival', 'token']);
		const added = joined.run.exchanges[2]!;
		expect(added.evidence).toEqual({ source: 'curl', timed: false, matchedBy: 'code' });
		expect(channelOf(added)).toBe('back');
		expect(channelOf(joined.run.exchanges[1]!)).toBe('front');
		expect(joined.added).toEqual([added.id]);
		// The link's redirect_uri and the one sent are compared across the channels: the same, so no flag.
		expect(diagnoseRun(joined.run).flags.map((f) => f.id)).not.toContain('redirect-uri-differs');
		const differing = joinEvidence(walked, pasted(parseCurl(TOKEN_CURL.replace(encodeURIComponent(REDIRECT), encodeURIComponent(`${REDIRECT}/`)))));
		expect(diagnoseRun(differing.run).flags.map((f) => f.id)).toContain('redirect-uri-differs');
	});

	it('matches me.json to the token exchange that issued its token, by the tail a saved run keeps', () => {
		const withToken = saved(joinEvidence(walked, pasted(parseRawHttp(TOKEN_HTTP), 'http')).run);
		expect(JSON.stringify(withToken)).not.toContain(TOKEN);
		expect(withToken.exchanges[2]!.tokenTails).toEqual([TOKEN.slice(-4)]);
		const joined = joinEvidence(withToken, pasted(parseRawHttp(ME_HTTP), 'http'));
		const me = joined.run.exchanges.at(-1)!;
		expect(me.step).toBe('me');
		expect(me.evidence?.matchedBy).toBe('token');
	});

	it('does not add an exchange the run already holds, and fills in the answer a pasted one lacked', () => {
		const once = saved(joinEvidence(walked, pasted(parseCurl(TOKEN_CURL))).run);
		expect(once.exchanges[2]!.response).toBeNull();
		const again = joinEvidence(once, pasted(parseCurl(TOKEN_CURL)));
		expect(again.duplicates).toBe(1);
		expect(again.run.exchanges).toHaveLength(3);
		expect(again.answered).toBe(0);
		const answered = joinEvidence(once, pasted(parseRawHttp(TOKEN_HTTP), 'http'));
		expect(answered.answered).toBe(1);
		expect(answered.run.exchanges).toHaveLength(3);
		expect(answered.run.exchanges[2]!.response?.status).toBe(200);
		expect(answered.run.exchanges[2]!.id).toBe(once.exchanges[2]!.id);
	});

	it("takes a server HAR's accepted token exchange for the run's own, however far its clock is off: no code-reused", () => {
		const at = (e: ReturnType<typeof exchange>, startedAt: string) => ({ ...e, startedAt });
		const url = `https://accounts.example.com/oauth/token?grant_type=authorization_code&code=${CODE}&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`;
		const token = (id: string, time: string, status = 200) => at(exchange('token', { method: 'POST', url }, { status }, id), time);
		const withToken = { ...walked, exchanges: [...walked.exchanges, token('t1', '2026-01-01T10:00:06.000Z')] };
		const skewed = (status: number): Evidence => ({ source: 'har', timed: true, record: { link: null, callback: null, exchanges: [token('h1', '2026-01-01T10:03:06.000Z', status)] }, redactions: [] });
		const joined = joinEvidence(withToken, skewed(200));
		expect(joined.duplicates).toBe(1);
		expect(joined.run.exchanges).toHaveLength(3);
		expect(diagnoseRun(joined.run).flags.map((f) => f.id)).not.toContain('code-reused');
		// A refused exchange of the same code minutes later is another attempt, and is added.
		expect(joinEvidence(withToken, skewed(400)).added).toHaveLength(1);
	});

	it('orders timed evidence by time among the run', () => {
		const at = (e: ReturnType<typeof exchange>, startedAt: string) => ({ ...e, startedAt });
		const token = at(exchange('token', { method: 'POST', url: `https://accounts.example.com/oauth/token?code=${CODE}&client_id=shop` }, { status: 200 }, 'h1'), '2026-01-01T10:00:03.000Z');
		const har: Evidence = { source: 'har', timed: true, record: { link: null, callback: null, exchanges: [token] }, redactions: [] };
		const joined = joinEvidence(walked, har);
		// Before the redirect it claims to follow: the times say it came first (a code replayed from elsewhere).
		expect(joined.run.exchanges.map((e) => e.step)).toEqual(['link', 'token', 'arrival']);
		expect(joined.run.exchanges[1]!.evidence?.matchedBy).toBe('time');
	});

	it('renumbers the places of what was redacted, and the joined run redacted whole holds no secret', () => {
		const first = saved(joinEvidence(walked, pasted(parseRawHttp(ME_HTTP), 'http')).run);
		const joined = joinEvidence(first, pasted(parseRawHttp(TOKEN_HTTP), 'http'));
		const stored = saved(joined.run);
		expect(stored.exchanges.map((e) => e.step)).toEqual(['link', 'arrival', 'token', 'me']);
		expect(stored.redactions.some((r) => r.where.startsWith('exchange 4 (me)'))).toBe(true);
		expect(stored.redactions.some((r) => r.where.startsWith('exchange 3 (token)') && r.what === 'client secret')).toBe(true);
		expect(stored.redactions.some((r) => r.where.startsWith('exchange 3 (me)'))).toBe(false);
		expect([SECRET, TOKEN].flatMap((secret) => leaks(JSON.stringify(stored), secret))).toEqual([]);
	});
});

describe('keepAddedEvidence', () => {
	it("keeps the evidence where it was placed when the walk saves its run again, the walk's new steps after", () => {
		const joined = saved(joinEvidence(walked, pasted(parseCurl(TOKEN_CURL))).run);
		const me = exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers: { 'User-Agent': 'x' } }, { status: 401 }, 'walk-me');
		const walkedOn = { ...walked, exchanges: [...walked.exchanges, me] };
		const kept = keepAddedEvidence(walkedOn, joined);
		expect(kept.exchanges.map((e) => e.id)).toEqual([...joined.exchanges.map((e) => e.id), 'walk-me']);
		expect(keepAddedEvidence(walkedOn, walked)).toBe(walkedOn);
	});
});

describe('channelOf', () => {
	const me = (headers: Record<string, string>) => exchange('me', { url: 'https://accounts.example.com/api/v3/me.json', headers }, { status: 200 });

	it("takes a me.json call a browser sent, without an Origin, for the browser's", () => {
		expect(channelOf(me({ 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Site': 'same-site' }))).toBe('front');
		expect(channelOf(me({ Origin: 'https://shop.example.com' }))).toBe('front');
	});

	it("takes one without a browser's headers for the server's", () => {
		expect(channelOf(me({ 'User-Agent': 'shop/1', Authorization: 'Bearer x' }))).toBe('back');
	});

	it("takes a call from Node's fetch, which sends Sec-Fetch-Mode alone, for the server's", () => {
		expect(channelOf(me({ 'User-Agent': 'node', 'Sec-Fetch-Mode': 'cors', Authorization: 'Bearer x' }))).toBe('back');
	});
});

describe('timelineOf', () => {
	it('says each exchange\'s channel and source, and how an added one was placed', () => {
		const timeline = timelineOf(joinEvidence(walked, pasted(parseCurl(TOKEN_CURL))).run);
		expect(timeline.map((t) => [t.step, t.channel, t.source, t.matchedBy, t.status])).toEqual([
			['link', 'front', 'the run itself', null, '200 OK'],
			['arrival', 'front', 'the run itself', null, '200 OK'],
			['token', 'back', 'a pasted curl command', 'code', null]
		]);
		expect(timeline[2]!.at).toBeNull();
	});
});

describe('sandboxLogEvidence', () => {
	let row = 0;
	/** An entry as the log keeps it: written at `at` (wall time), 3 ms after it arrived, the sandbox clock unmoved. */
	const entryOf = (at: string, request: LoggedExchange['request'], response: LoggedExchange['response']): LogEntry => ({
		id: ++row,
		at,
		host: 'accounts',
		entry: { ref: `r.${row}`, host: 'accounts', sandboxAt: new Date(Date.parse(at) - 3).toISOString(), durationMs: 3, request, response, keys: {} }
	});
	const logged = (path: string, at: string, body: string | null, status: number, responseBody = '', headers: { name: string; value: string }[] = []) =>
		entryOf(
			at,
			{ method: body === null ? 'GET' : 'POST', url: `http://accounts.sandbox.test${path}`, headers, body },
			{ status, statusText: '', headers: [], body: responseBody, truncated: false }
		);
	const masked = (value: string) => `${MASK}${value.slice(-4)}`;

	it("takes this flow's entries: the link that started it, the token exchange of its code, the me.json of its token", () => {
		const linkEntry = (at: string) => entryOf(at, { method: 'GET', url: LINK, headers: [], body: null }, { status: 200, statusText: '', headers: [], body: '', truncated: false });
		const entries = [
			linkEntry('2026-01-01T09:00:00.000Z'),
			logged('/oauth/token', '2026-01-01T09:00:06.000Z', `grant_type=authorization_code&code=${encodeURIComponent(`${MASK}zzzz`)}&client_id=shop`, 200, `{"access_token":"${MASK}yyyy"}`),
			logged('/api/v3/me.json', '2026-01-01T09:00:07.000Z', null, 200, '{}', [{ name: 'Authorization', value: `Bearer ${MASK}yyyy` }]),
			linkEntry('2026-01-01T10:00:01.000Z'),
			logged('/oauth/token', '2026-01-01T10:00:06.000Z', `grant_type=authorization_code&code=${encodeURIComponent(masked(CODE))}&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`, 200, `{"access_token":"${masked(TOKEN)}"}`),
			logged('/oauth/token', '2026-01-01T10:00:06.500Z', 'grant_type=authorization_code&code=x&client_id=other', 400),
			logged('/api/v3/me.json', '2026-01-01T10:00:07.000Z', null, 200, '{}', [{ name: 'Authorization', value: `Bearer ${masked(TOKEN)}` }]),
			logged('/api/v3/me.json', '2026-01-01T10:00:08.000Z', null, 401, '{}', [{ name: 'Authorization', value: `Bearer ${MASK}zzzz` }]),
			logged('/health', '2026-01-01T10:00:09.000Z', null, 200)
		];
		const evidence = sandboxLogEvidence(entries, 'shop', walked, 500);
		// Each started as long before it was logged as it took.
		expect(evidence.record.exchanges.map((e) => `${e.step} ${e.startedAt.slice(11, 19)}`)).toEqual(['link 10:00:00', 'token 10:00:05', 'me 10:00:06']);
		const joined = joinEvidence(walked, evidence);
		// The logged link is the walk's own (the same link, close in time): not added twice.
		expect(joined.duplicates).toBe(1);
		expect(joined.run.exchanges.map((e) => e.step)).toEqual(['link', 'arrival', 'token', 'me']);
		// The logged code (masked to a tail) is the redirect's: the same code, so no flag says otherwise.
		expect(diagnoseRun(joined.run).flags.filter((f) => f.severity === 'error').map((f) => f.message)).toEqual([]);
		// Logged again (one click twice): nothing new.
		expect(joinEvidence(joined.run, sandboxLogEvidence(entries, 'shop', joined.run, 500)).added).toEqual([]);
	});

	it('takes a me.json call that presented the run\'s grant code as its token, and the flag names it', () => {
		const entries = [
			logged('/oauth/token', '2026-01-01T10:00:06.000Z', `grant_type=authorization_code&code=${encodeURIComponent(masked(CODE))}&client_id=shop&redirect_uri=${encodeURIComponent(REDIRECT)}`, 200, `{"access_token":"${masked(TOKEN)}"}`),
			logged('/api/v3/me.json', '2026-01-01T10:00:07.000Z', null, 401, '{}', [{ name: 'Authorization', value: `Bearer ${masked(CODE)}` }]),
			logged('/api/v3/me.json', '2026-01-01T10:00:08.000Z', null, 401, '{}', [{ name: 'Authorization', value: `Bearer ${MASK}zzzz` }])
		];
		const evidence = sandboxLogEvidence(entries, 'shop', walked, 500);
		expect(evidence.record.exchanges.map((e) => `${e.step} ${e.response?.status}`)).toEqual(['token 200', 'me 401']);
		const flag = diagnoseRun(joinEvidence(walked, evidence).run).flags.find((f) => f.id === 'code-sent-to-me');
		expect(flag?.message).toContain('sends the grant code as its token, not an access token');
	});

	it('says why it found none of the flow\'s token exchanges: a sanitised code, or one the log does not hold', () => {
		const entries = [logged('/oauth/token', '2026-01-01T10:00:06.000Z', `grant_type=authorization_code&code=${encodeURIComponent(`${MASK}zzzz`)}&client_id=shop`, 200)];
		expect(sandboxLogEvidence(entries, 'shop', walked, 500).shortfall).toBe(
			"The sandbox's log holds 1 token exchange of client shop, none of them with this run's grant code: the app never exchanged it here, or the log has pushed it out (it keeps each workspace's newest 500 requests)."
		);
		const arrived = `${REDIRECT}?code=[REDACTED]`;
		const sanitised = run({ link: LINK, callback: { url: arrived, receivedAt: '2026-01-01T10:00:05.000Z' }, exchanges: [exchange('arrival', { url: arrived }, { status: 200 })] });
		expect(sandboxLogEvidence(entries, 'shop', sanitised, 500).shortfall).toContain("this run's grant code was replaced by a sanitiser ([REDACTED]), so none can be told to be this flow's");
		expect(sandboxLogEvidence([], 'shop', walked, 500).shortfall).toContain('holds 0 token exchanges of client shop: the app never exchanged a code with this sandbox');
		const own = logged('/oauth/token', '2026-01-01T10:00:06.000Z', `grant_type=authorization_code&code=${encodeURIComponent(masked(CODE))}&client_id=shop`, 200);
		expect(sandboxLogEvidence([own], 'shop', walked, 500).shortfall).toBeUndefined();
	});

	it("takes a token exchange sent as a JSON body, told by the client and code the body carried", () => {
		const body = JSON.stringify({ grant_type: 'authorization_code', code: masked(CODE), client_id: 'shop', redirect_uri: REDIRECT });
		const entries = [logged('/oauth/token', '2026-01-01T10:00:06.000Z', body, 400, '{"error":"invalid_request","error_description":"JSON bodies are not accepted."}', [{ name: 'Content-Type', value: 'application/json' }])];
		expect(sandboxLogEvidence(entries, 'shop', walked, 500).record.exchanges.map((e) => e.step)).toEqual(['token']);
	});
});

describe('onSandboxHosts', () => {
	const sandbox = { authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' };
	const target = (authUrl: string, accountsUrl: string, kind: 'sandbox' | 'custom' = 'custom') => ({ target: { kind, authUrl, accountsUrl } });

	it('holds for a run of the built-in sandbox, and an imported one whose every host is the sandbox\'s', () => {
		expect(onSandboxHosts(target('', '', 'sandbox'), sandbox)).toBe(true);
		expect(onSandboxHosts(target('http://localhost:3001', ''), sandbox)).toBe(true);
		expect(onSandboxHosts(target('http://localhost:3001', 'http://localhost:3002'), sandbox)).toBe(true);
	});

	it('does not hold for an import that reached another host, or none', () => {
		expect(onSandboxHosts(target('http://localhost:3001', 'https://accounts.example.com'), sandbox)).toBe(false);
		expect(onSandboxHosts(target('http://localhost:4001', ''), sandbox)).toBe(false);
		expect(onSandboxHosts(target('', ''), sandbox)).toBe(false);
	});
});

describe('joining a log to a run of thousands of exchanges', () => {
	/** A full log's worth of the client's other exchanges (each its own code, told apart by its tail), among the run's in time. */
	const log: Evidence = {
		source: 'sandbox-log',
		timed: true,
		record: {
			link: null,
			callback: null,
			exchanges: Array.from({ length: 500 }, (_, i) => ({
				...exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body: `grant_type=authorization_code&code=other-code-abcdefgh-${String(i).padStart(4, '0')}` }, { status: 400 }, `log-${i}`),
				startedAt: new Date(Date.parse('2026-01-01T10:00:00.000Z') + i * 7).toISOString()
			}))
		},
		redactions: []
	};

	it('adds each exchange once, in time linear in the run (each was compared with every exchange of the run)', () => {
		const runs = new Map([1000, 4000].map((n) => [n, run(sharedCodeFlow(n))]));
		expect(joinEvidence(runs.get(1000)!, log).added).toHaveLength(500);
		expectLinear((n) => joinEvidence(runs.get(n)!, log), 1000);
	});
});
