/**
 * Issue 24: one engine, the same verdict on every channel. The same recorded flows (a reused code, a redirect_uri
 * that differs from the link's) diagnosed as the walk recorded them, as an import of the run's HAR and as the live
 * view rebuilds them from the sandbox's log give the same failing step, row and likely cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { literalKeys, reconstructFlows } from '$lib/flow/reconstruct/reconstruct';
import { flowVerdict, type Verdict } from '$lib/flow/verdict';
import type { FlowRecord } from '$lib/flow/record';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { LoggedExchange } from '$lib/sandbox/log';
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

let server: http.Server;
let config: ExplorerConfig;

beforeAll(async () => {
	// An accounts host that, like the service, issues a token once per code and only for the link's redirect_uri.
	const seen = new Set<string>();
	server = http.createServer((req, res) => {
		const params = new URL(req.url ?? '/', 'http://x').searchParams;
		const code = params.get('code') ?? '';
		res.setHeader('Content-Type', 'application/json');
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

/** The verdict's failing step, row and likely cause. */
function essence(record: FlowRecord, verdict: Verdict) {
	const failing = verdict.exchange ? record.exchanges[verdict.exchange.n - 1]?.step : null;
	// Each channel numbers the exchanges of its own record: the live log's has the link and sign-in pages too.
	const cause = verdict.cause.replace(/\bexchange \d+/gi, 'exchange N');
	return { severity: verdict.severity, step: failing, row: verdict.reference?.kind === 'row' ? verdict.reference.rowId : null, cause };
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
 * The live view's run of the flow, from the sandbox's log of it: the link, the sign-in page that redirected back,
 * then the walk's own requests, each keyed as the log keys them (by digests of these same values).
 */
function live(w: Walk): Run {
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
	const logged: LoggedExchange[] = [
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
	const flows = reconstructFlows(logged.flatMap((e) => evidenceOf(e) ?? []));
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

const CASES: { name: string; code: string; steps: ExchangeOptions[]; row: string }[] = [
	{ name: 'a reused code', code: 'code-reused', steps: [{ transport: 'query' }, { transport: 'query', tamper: 'again' }], row: 'token-invalid-grant' },
	{ name: 'a redirect_uri other than the link’s', code: 'code-mismatch', steps: [{ transport: 'query', tamper: 'redirect_uri' }], row: 'token-invalid-grant' }
];

describe('the same flow on every channel', () => {
	for (const { name, code, steps, row } of CASES) {
		it(`${name}: the walk, its import and the live view name the same failing step, row and likely cause`, async () => {
			const w = await walked(code, steps);
			const last = w.exchanges.at(-1)!.annotation;
			const asWalked = judged(savedRun(w));
			expect(asWalked).toMatchObject({ severity: 'error', step: 'token', row });
			// The walk's own annotation is the record's.
			expect([last.rowId, last.causeId]).toEqual([row, diagnoseRun(savedRun(w)).annotations.exchanges.at(-1)?.causeId]);
			expect(judged(imported(savedRun(w)))).toEqual(asWalked);
			expect(judged(live(w))).toEqual(asWalked);
		});
	}
});
