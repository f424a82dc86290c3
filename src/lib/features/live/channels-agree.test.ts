/**
 * Issue 24: one engine, the same verdict on every channel. The same recorded flows (a reused code, a redirect_uri
 * that differs from the link's) diagnosed as the walk recorded them, as an import of the run's HAR, as the live
 * view rebuilds them from the sandbox's log and as the app check reads that log give the same failing step, row and
 * likely cause. The app check also judges what the user saw, which no log holds: its browser's part is given here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { literalKeys, reconstructFlows } from '$lib/flow/reconstruct/reconstruct';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import type { FlowRecord } from '$lib/flow/record';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { LoggedExchange } from '$lib/sandbox/log';
import type { LogEntry } from '$lib/http/logged-exchange';
import { diagnoseCheck } from '$lib/features/app-check/pure/engine';
import { findAppCheck } from '$lib/features/app-check/pure/checks';
import { judgeAppCheck } from '$lib/features/app-check/pure/judge';
import type { AppCheckEvidence, UserEvidence } from '$lib/features/app-check/pure/evidence';
import type { AppCheckId } from '$lib/features/app-check/pure/checks';
import { OUTCOME_RULE_HEADER } from '$lib/protocol';
import { diagnoseRun } from '$lib/features/runs/pure/diagnose-run';
import { harToRun, runToHar } from '$lib/features/runs/pure/har/har';
import { redactRun, type Run } from '$lib/features/runs/pure';
import { exchangeCode, newWalk, recordCallback, startAuthorisation, type ExchangeOptions, type Walk } from '../walk/walk';
import { walkSecrets, walkToRun } from '../walk/walk-view';
import { resolveTarget } from '../../platform/outbound/targets';
import { testConfig } from '../../platform/test-config';
import type { ExplorerConfig } from '../../platform/config';
import { evidenceOf } from '$lib/flow/reconstruct/log-evidence';

const INVALID_GRANT = JSON.stringify({ error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' });
const REDIRECT = 'http://localhost:3000/callback';
/** The code the `token-invalid-grant` outcome rule answers. */
const RULED = 'code-ruled';

let server: http.Server;
let config: ExplorerConfig;

beforeAll(async () => {
	// An accounts host that, like the service, issues a token once per code and only for the link's redirect_uri.
	const seen = new Set<string>();
	server = http.createServer((req, res) => {
		const params = new URL(req.url ?? '/', 'http://x').searchParams;
		const code = params.get('code') ?? '';
		res.setHeader('Content-Type', 'application/json');
		// The sandbox's answer when an outcome rule produced it, which names the rule.
		if (code === RULED) return void res.writeHead(400, { [OUTCOME_RULE_HEADER]: 'token-invalid-grant' }).end(INVALID_GRANT);
		if (seen.has(code) || params.get('redirect_uri') !== REDIRECT) return void res.writeHead(400).end(INVALID_GRANT);
		seen.add(code);
		res.end(JSON.stringify({ access_token: `access-${code}-0123456789`, token_type: 'Bearer', expires_in: 2419199, refresh_token: `refresh-${code}-0123456789`, created_at: 1 }));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	config = testConfig({ ACCOUNTS_PORT: String((server.address() as AddressInfo).port) });
});
afterAll(() => new Promise((r) => server.close(r)));

/** A walk of the sandbox's demo client that brought `code` back and then sent each exchange of `steps`. */
async function walked(code: string, steps: ExchangeOptions[]): Promise<Walk> {
	const target = resolveTarget({ kind: 'sandbox' }, config);
	if (!target.ok) throw new Error(target.message);
	const w = newWalk(target.target, { clientId: 'demo-client', clientSecret: 'a-secret-value', redirectUri: REDIRECT, supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] });
	startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(REDIRECT)}&country=uk`);
	recordCallback(w, `${REDIRECT}?code=${code}`, () => new Date());
	for (const options of steps) await exchangeCode(w, options, config, () => new Date());
	return w;
}

/** Each channel numbers the exchanges of its own record: the live log's has the link and sign-in pages too. */
const unnumbered = (text: string) => text.replace(/\bexchange \d+/gi, 'exchange N');

/** The verdict's failing step, row and likely cause. */
function essence(record: FlowRecord, verdict: Verdict) {
	const failing = verdict.exchange ? record.exchanges[verdict.exchange.n - 1]?.step : null;
	return { severity: verdict.severity, step: failing, row: verdict.reference?.kind === 'row' ? verdict.reference.rowId : null, cause: unnumbered(verdict.cause) };
}
const judged = (run: Run) => essence(run, flowVerdict(run, diagnoseRun(run)));

/** The walk's saved run: its record, redacted as the store keeps it. */
const savedRun = (w: Walk) => redactRun(walkToRun(w, null, new Date()), walkSecrets(w));

/** The run's HAR export, imported again. */
function imported(run: Run): Run {
	const result = harToRun(JSON.stringify(runToHar(run)));
	if (!result.ok) throw new Error(result.message);
	return result.run;
}

/**
 * The sandbox's log of the flow: the link, the sign-in page that redirected back, then the walk's own requests, each
 * keyed as the log keys them (by digests of these same values).
 */
function logOf(w: Walk): LoggedExchange[] {
	const start = Date.parse(w.callback!.receivedAt) - 2000;
	const at = (ms: number) => new Date(ms).toISOString();
	const page = (ref: string, method: string, url: string, status: number, location: string, ms: number): LoggedExchange => ({
		ref,
		host: 'authorisation',
		sandboxAt: at(ms),
		durationMs: 1,
		request: { method, url, headers: [], body: null },
		response: { status, statusText: '', headers: [{ name: 'Location', value: location }], body: '', truncated: false },
		keys: {}
	});
	const flowPage = `${w.target.authUrl}/flow/flow-1/consent`;
	return [
		{ ...page('l-1', 'GET', w.link!, 303, flowPage, start), keys: { clientId: 'demo-client', authFlow: 'flow-1' } },
		{ ...page('l-2', 'POST', flowPage, 302, w.callback!.url, start + 1000), keys: { authFlow: 'flow-1', code: new URL(w.callback!.url).searchParams.get('code')! } },
		...w.exchanges.map(({ exchange }, i): LoggedExchange => ({
			ref: `l-${i + 3}`,
			host: 'accounts',
			sandboxAt: exchange.startedAt,
			durationMs: exchange.durationMs,
			request: exchange.request as RecordedExchange['request'],
			response: exchange.response as LoggedExchange['response'],
			keys: keysOf(exchange as RecordedExchange)
		}))
	];
}

/** The live view's run of the flow, from the sandbox's log of it. */
function live(w: Walk): Run {
	const flows = reconstructFlows(logOf(w).flatMap((e) => evidenceOf(e) ?? []));
	expect(flows).toHaveLength(1);
	const flow = flows[0]!;
	return redactRun(
		{ id: flow.id, title: 'live', createdAt: flow.startedAt, target: { ...w.target }, sandboxClock: flow.updatedAt, link: flow.link, callback: flow.callback, exchanges: flow.exchanges, redactions: [], source: 'live' },
		walkSecrets(w)
	);
}

/** The keys the log gives an exchange: digests of these values, which join alike. */
function keysOf(exchange: RecordedExchange): LoggedExchange['keys'] {
	const { issued, ...keys } = literalKeys(exchange);
	return { ...keys, ...(issued ? { issued: [...issued] } : {}) };
}

/** What the app check's browser saw: the app's normal page after the sign-in. */
const NORMAL_PAGE: UserEvidence = {
	callbackUrl: `${REDIRECT}?code=••••••`,
	hops: [{ url: `${REDIRECT}?code=••••••`, status: 200, where: 'app' }],
	final: { url: `${REDIRECT}?code=••••••`, status: 200, title: 'Signed in', excerpt: 'Welcome' },
	backToSignIn: false,
	stackTrace: [],
	blocked: [],
	fingerprint: 'Welcome',
	template: 'Welcome'
};

/**
 * A check of the app check over the same log, as GET /sandbox/log answers it: the engine's account of the app's
 * server (its step, row and cause) and the judge's result on it, with what the check's browser saw (`user`).
 */
function appChecked(w: Walk, id: AppCheckId = 'success', user: UserEvidence = NORMAL_PAGE) {
	const entries: LogEntry[] = logOf(w).map((entry, i) => ({ id: i + 1, at: entry.sandboxAt, host: entry.host, entry }));
	const check = findAppCheck(id)!;
	const engine = diagnoseCheck(entries, { clientId: 'demo-client', afterId: 0, check, clientSecrets: walkSecrets(w).clientSecrets ?? [] });
	const server = { ...engine.calls, diagnosis: engine.server, link: engine.link, page: engine.page, loopFix: engine.loopFix };
	const rule: AppCheckEvidence['rule'] = check.rule && { outcome: check.rule, used: true };
	const result = judgeAppCheck(check, { user, server, rule }, 'demo-client');
	return { severity: engine.server?.severity, step: engine.server?.step, row: result.row?.rowId ?? null, cause: unnumbered(engine.server?.cause ?? ''), result };
}

const CASES: { name: string; code: string; steps: ExchangeOptions[]; row: string }[] = [
	{ name: 'a reused code', code: 'code-reused', steps: [{ transport: 'query' }, { transport: 'query', tamper: 'again' }], row: 'token-invalid-grant' },
	{ name: 'a redirect_uri other than the link’s', code: 'code-mismatch', steps: [{ transport: 'query', tamper: 'redirect_uri' }], row: 'token-invalid-grant' }
];

describe('the same flow on every channel', () => {
	for (const { name, code, steps, row } of CASES) {
		it(`${name}: the walk, its import, the live view and the app check name the same failing step, row and likely cause`, async () => {
			const w = await walked(code, steps);
			const last = w.exchanges.at(-1)!.annotation;
			const asWalked = judged(savedRun(w));
			expect(asWalked).toMatchObject({ severity: 'error', step: 'token', row });
			// The walk's own annotation is the record's.
			expect([last.rowId, last.causeId]).toEqual([row, diagnoseRun(savedRun(w)).annotations.exchanges.at(-1)?.causeId]);
			expect(judged(imported(savedRun(w)))).toEqual(asWalked);
			expect(judged(live(w))).toEqual(asWalked);
			const checked = appChecked(w);
			expect({ severity: checked.severity, step: checked.step, row: checked.row, cause: checked.cause }).toEqual(asWalked);
			// The app check fails the sign-in on that cause alone, in the engine's words, with the engine's row and fix.
			expect(checked.result).toMatchObject({ verdict: 'fail', row: { rowId: row }, fix: flowVerdict(savedRun(w), diagnoseRun(savedRun(w))).fix });
			expect(checked.result.findings).toHaveLength(1);
			expect(unnumbered(checked.result.findings[0]!)).toContain(asWalked.cause.replace(/\.$/, ''));
		});
	}

	it("an outcome rule's answer: no fault of the app's on either channel; the live view says it cannot see the app's page, the app check judges the page it saw", async () => {
		const w = await walked(RULED, [{ transport: 'query' }]);
		const run = live(w);
		expect(flowVerdict(run, diagnoseRun(run))).toMatchObject({ severity: 'unobserved', what: expect.stringMatching(/by your outcome rule, as asked; how your app handled it is not in this record/) });
		const handled: UserEvidence = { ...NORMAL_PAGE, final: { url: `${REDIRECT}?code=••••••`, status: 400, title: 'Sign-in failed', excerpt: 'That sign-in did not work. Sign in again.' } };
		const checked = appChecked(w, 'code-expired', handled);
		expect(checked.step).toBeUndefined();
		expect(checked.result).toMatchObject({ verdict: 'pass', row: null });
		expect(appChecked(w, 'code-expired', { ...handled, final: { ...handled.final!, status: 500, excerpt: 'Internal Server Error' } }).result.findings).toEqual(['the user got a 500 server error']);
	});
});
