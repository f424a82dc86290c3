/**
 * The sandbox under load, beside a bare `node:http` server answering a fixed JSON body: same machine, same client
 * (autocannon, in this process), servers in a child process. Figures are ratios to the bare server.
 */
import autocannon from 'autocannon';
import { startChild } from './child';
import { BENCH_CLIENT, BENCH_REDIRECT_URI, type ServersReady } from './load-protocol';
import type { Measurement } from './report';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
/** Rounds of bare, me.json and token runs, alternating, so a slow spell of the machine hits all three alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Fresh codes per token run (autocannon stops when they are used up, so this caps the run's rate at CODES / DURATION). */
const TOKEN_CODES = Number(process.env.BENCH_TOKEN_CODES ?? 250_000);
const TOKEN_WARMUP_CODES = 3_000;

interface Figures {
	rps: number;
	p50: number;
	p99: number;
	requests: number;
	non2xx: number;
	errors: number;
	seconds: number;
}

type Options = Parameters<typeof autocannon>[0];

/** One autocannon run; stops after `stopAfterS` seconds even when it has an `amount` (which disables `duration`). */
function cannon(options: Options, stopAfterS?: number): Promise<Figures> {
	return new Promise((resolve, reject) => {
		const tracker = autocannon({ connections: CONNECTIONS, pipelining: 1, ...options }, (error, result) => {
			clearTimeout(timer);
			if (error) return reject(error);
			resolve({
				rps: result.requests.total / result.duration,
				p50: result.latency.p50,
				p99: result.latency.p99,
				requests: result.requests.total,
				non2xx: result.non2xx,
				errors: result.errors + result.timeouts,
				seconds: result.duration
			});
		});
		const timer = stopAfterS === undefined ? undefined : setTimeout(() => tracker.stop(), stopAfterS * 1000);
	});
}

/** Each request takes the next pre-issued code, so every exchange is a first (successful) use. */
function tokenRequests(codes: string[]): Options['requests'] {
	let next = 0;
	const fixed = new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: BENCH_REDIRECT_URI, client_id: BENCH_CLIENT.client_id, client_secret: BENCH_CLIENT.client_secret });
	return [
		{
			method: 'POST',
			setupRequest: (req) => ({ ...req, path: `/oauth/token?${fixed}&code=${codes[next++ % codes.length]}` })
		}
	];
}

function describe(name: string, f: Figures): string {
	return `${name}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.requests} requests in ${f.seconds.toFixed(1)} s, ${f.non2xx} non-2xx, ${f.errors} errors`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each figure over the rounds; errors and non-2xx answers are summed. */
function combine(rounds: Figures[]): Figures {
	return {
		rps: median(rounds.map((f) => f.rps)),
		p50: median(rounds.map((f) => f.p50)),
		p99: median(rounds.map((f) => f.p99)),
		requests: rounds.reduce((sum, f) => sum + f.requests, 0),
		non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
		errors: rounds.reduce((sum, f) => sum + f.errors, 0),
		seconds: rounds.reduce((sum, f) => sum + f.seconds, 0)
	};
}

export async function benchLoad(log: (line: string) => void): Promise<Measurement[]> {
	const servers = await startChild<ServersReady>('./servers.ts', [String(ROUNDS * TOKEN_CODES + TOKEN_WARMUP_CODES)]);
	try {
		const { bareUrl, accountsUrl, accessToken, codes } = servers.message;
		const meHeaders = { authorization: `Bearer ${accessToken}`, 'user-agent': 'autocannon' };
		const meUrl = `${accountsUrl}/api/v3/me.json`;

		await cannon({ url: bareUrl, duration: WARMUP_S, headers: meHeaders });
		await cannon({ url: meUrl, duration: WARMUP_S, headers: meHeaders });
		await cannon({ url: accountsUrl, amount: TOKEN_WARMUP_CODES, requests: tokenRequests(codes.slice(0, TOKEN_WARMUP_CODES)) });

		const runs: Record<'bare' | 'me' | 'token', Figures[]> = { bare: [], me: [], token: [] };
		for (let round = 0; round < ROUNDS; round++) {
			runs.bare.push(await cannon({ url: bareUrl, duration: DURATION_S, headers: meHeaders }));
			log(describe(`round ${round + 1} bare node:http`, runs.bare.at(-1)!));
			runs.me.push(await cannon({ url: meUrl, duration: DURATION_S, headers: meHeaders }));
			log(describe(`round ${round + 1} sandbox me.json`, runs.me.at(-1)!));
			const first = TOKEN_WARMUP_CODES + round * TOKEN_CODES;
			const tokenCodes = codes.slice(first, first + TOKEN_CODES);
			// Duration-bound like the others, but never past the last fresh code (a reused code would be a cheap 400).
			runs.token.push(await cannon({ url: accountsUrl, amount: tokenCodes.length, requests: tokenRequests(tokenCodes) }, DURATION_S));
			log(describe(`round ${round + 1} sandbox token exchange (fresh code each)`, runs.token.at(-1)!));
		}
		const bare = combine(runs.bare);
		const me = combine(runs.me);
		const token = combine(runs.token);
		log(describe(`median of ${ROUNDS} rounds, bare node:http`, bare));
		log(describe(`median of ${ROUNDS} rounds, sandbox me.json`, me));
		log(describe(`median of ${ROUNDS} rounds, sandbox token exchange`, token));

		const clean = (f: Figures) => f.non2xx === 0 && f.errors === 0;
		return [
			{ metric: 'bare node:http throughput', measured: `${bare.rps.toFixed(0)} req/s`, target: '(baseline)', pass: null },
			{ metric: 'me.json throughput vs bare', measured: `${((me.rps / bare.rps) * 100).toFixed(0)}% (${me.rps.toFixed(0)} req/s)`, target: '≥ 60%', pass: me.rps / bare.rps >= 0.6 },
			{ metric: 'token exchange throughput vs bare', measured: `${((token.rps / bare.rps) * 100).toFixed(0)}% (${token.rps.toFixed(0)} req/s)`, target: '≥ 30%', pass: token.rps / bare.rps >= 0.3 },
			{ metric: 'me.json p99 latency, 50 connections', measured: `${me.p99} ms`, target: '< 10 ms', pass: me.p99 < 10 },
			{ metric: 'token exchange p99 latency, 50 connections', measured: `${token.p99} ms`, target: '< 10 ms', pass: token.p99 < 10 },
			{
				metric: 'load runs answered 2xx without errors',
				measured: `me.json ${me.non2xx}/${me.errors}, token ${token.non2xx}/${token.errors} (non-2xx/errors)`,
				target: '0 / 0',
				pass: clean(me) && clean(token)
			}
		];
	} finally {
		await servers.stop();
	}
}
