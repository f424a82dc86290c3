/**
 * A walk and its permalink read one record: the walk's annotations are the flow engine's over the walk's record, and
 * the saved run is that record redacted. Whatever happened to the sandbox's clock in between (issue 24, two clocks),
 * the walk's step and the run page give the same row, cause and code age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { diagnoseFlow } from '$lib/flow/diagnose-flow';
import { redactRun } from '$lib/features/runs/pure';
import { applySettings, exchangeCode, newWalk, recordCallback, startAuthorisation, type Walk } from './walk';
import { walkSecrets, walkToRun } from './walk-view';
import { resolveTarget } from '../../platform/outbound/targets';
import { testConfig } from '../../platform/test-config';
import type { ExplorerConfig } from '../../platform/config';

const INVALID_GRANT = JSON.stringify({ error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' });
const TWO_HOURS_MS = 2 * 3600 * 1000;

let server: http.Server;
let config: ExplorerConfig;
/** The sandbox's clock's lead over real time, which a test moves as `POST /sandbox/clock {advance}` would. */
let ahead = 0;
const sandboxClock = () => new Date(Date.now() + ahead);

beforeAll(async () => {
	// An accounts host that issues a token once per code, and refuses a code it saw or one older than 2 hours.
	const issued = new Map<string, number>();
	server = http.createServer((req, res) => {
		const code = new URL(req.url ?? '/', 'http://x').searchParams.get('code') ?? '';
		res.setHeader('Content-Type', 'application/json');
		const first = issued.get(code);
		issued.set(code, first ?? Date.now() + ahead);
		if (first !== undefined || code.startsWith('old-')) return void res.writeHead(400).end(INVALID_GRANT);
		res.end(JSON.stringify({ access_token: `access-${code}-0123456789`, token_type: 'Bearer', expires_in: 2419199, refresh_token: `refresh-${code}-0123456789`, created_at: 1 }));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	config = testConfig({ ACCOUNTS_PORT: String((server.address() as AddressInfo).port) });
});
afterAll(() => new Promise((r) => server.close(r)));

function walkWithCode(code: string): Walk {
	const target = resolveTarget({ kind: 'sandbox' }, config);
	if (!target.ok) throw new Error(target.message);
	const w = newWalk(target.target, { clientId: 'demo-client', clientSecret: 'a-secret-value', redirectUri: 'http://localhost:3000/callback', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] });
	startAuthorisation(w, `${w.target.authUrl}/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(w.client.redirectUri)}&country=uk`);
	recordCallback(w, `http://localhost:3000/callback?code=${code}`, sandboxClock);
	return w;
}

/** The run page's annotations: the saved run (redacted as the store keeps it) diagnosed. */
function permalinkAnnotations(w: Walk) {
	const run = redactRun(walkToRun(w, sandboxClock(), new Date()), walkSecrets(w));
	return diagnoseFlow(run).annotations.exchanges;
}

const verdictOf = (a: { rowId?: string; causeId?: string; candidates: { causeId: string; why: string[] | string }[] } | null | undefined) => ({
	rowId: a?.rowId,
	causeId: a?.causeId,
	why: a?.candidates.map((c) => `${c.causeId}: ${String(c.why)}`)
});

describe('a walk and its permalink', () => {
	it('give the same code age after the sandbox clock moved 2 hours between the redirect and the exchange', async () => {
		ahead = 0;
		const w = walkWithCode('old-code-1');
		ahead = TWO_HOURS_MS + 60_000;
		try {
			await exchangeCode(w, { transport: 'query' }, config, sandboxClock);
		} finally {
			ahead = 0;
		}
		const walked = w.exchanges[0]!.annotation;
		expect(walked.causeId).toBe('expired');
		expect(JSON.stringify(walked.candidates)).toContain('The code arrived 2 h');
		expect(verdictOf(permalinkAnnotations(w)[0])).toEqual(verdictOf(walked));
		expect(permalinkAnnotations(w)[0]).toEqual(walked);
	});

	it('say the code was used, when it was exchanged earlier in the walk', async () => {
		const w = walkWithCode('code-used-twice');
		await exchangeCode(w, { transport: 'query' }, config, sandboxClock);
		await exchangeCode(w, { transport: 'query', tamper: 'again' }, config, sandboxClock);
		expect(w.exchanges[1]!.annotation.causeId).toBe('used');
		expect(verdictOf(permalinkAnnotations(w)[1])).toEqual(verdictOf(w.exchanges[1]!.annotation));
	});

	it('say the code was used when a new secret started a new run after the code was exchanged: the record carries it', async () => {
		const w = walkWithCode('code-used-before-new-secret');
		await exchangeCode(w, { transport: 'query' }, config, sandboxClock);
		const settings = { target: { kind: 'sandbox' as const }, clientId: 'demo-client', clientSecret: 'another-secret-value', redirectUri: w.client.redirectUri, supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] as [string, string][] };
		expect(applySettings(w, settings, config)).toEqual({ ok: true });
		await exchangeCode(w, { transport: 'query' }, config, sandboxClock);
		expect(w.exchanges).toHaveLength(1);
		expect(w.exchanges[0]!.annotation.causeId).toBe('used');
		expect(verdictOf(permalinkAnnotations(w)[0])).toEqual(verdictOf(w.exchanges[0]!.annotation));
	});
});
