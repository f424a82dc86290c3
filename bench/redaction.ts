/**
 * `npx tsx bench/redaction.ts` (or BENCH_ONLY=redaction npm run bench): what saving a walk costs the explorer's
 * route, per step, as the walk grows. A walk is a token exchange (form transport) then me.json reads with a
 * Bearer header, as the explorer records them; each step saves the walk's run, one exchange longer, to a run store
 * on a temporary file (WAL, synchronous NORMAL, as the explorer's). For walks of up to 300 exchanges (real walks
 * have 4 to 30): the explorer's save of a step, as the walk's route saves (its triage left for the list; only the
 * exchanges whose redaction changed are redacted and written: redact.ts `ExchangeMemo`, store.ts `WrittenPieces`),
 * and, for copies of the same exchanges never redacted before under a new id, `redactRun` of the whole walk and its
 * first save. And a run of many sign-ins, as a HAR of a few hundred brings: each its own code, tokens and client
 * secret, and a 40 KB page, so that every value learnt is searched for in every text (`benchManySignIns`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RecordedExchange } from '$lib/flow/exchange';
import type { Run } from '$lib/features/runs/pure/run';
import { redactRun, type KnownSecrets } from '$lib/features/runs/pure/redact/redact';
import { openRunStore } from '$lib/features/runs/store';
import type { Measurement } from './report';

const LENGTHS = [4, 10, 20, 50, 150, 300];
const WALKS = Number(process.env.BENCH_REDACTION_WALKS ?? 30);

const SECRET = 'demo-secret-0123456789abcdefABCDEF';
const ACCESS = 'Aq1Bw2Ce3Dr4Ft5Gy6Hu7Ji8Ko9Lp0MzNxObPcQv';
const REFRESH = 'Rf1Rf2Rf3Rf4Rf5Rf6Rf7Rf8Rf9Rf0RfaRfbRfc';
const CODE = 'Cd1Cd2Cd3Cd4Cd5Cd6Cd7Cd8';
const ACCOUNTS = 'http://localhost:4275';

const ME_BODY = JSON.stringify({
	sbid_number: 'ABC1234',
	login: 'student@example.com',
	verifications: [{ supergroup: 'student', country: 'uk', verified: true, verified_on: '2026-09-01', expires_on: '2027-09-01' }],
	deletion_requested: false
});

const responseHeaders = [
	{ name: 'Content-Type', value: 'application/json; charset=utf-8' },
	{ name: 'Cache-Control', value: 'no-store' },
	{ name: 'Date', value: 'Mon, 23 Nov 2026 10:00:00 GMT' },
	{ name: 'Content-Length', value: '256' }
];

function recorded(i: number): RecordedExchange {
	const common = { id: `x${i}`, startedAt: '2026-11-23T10:00:06.000Z', durationMs: 3, failure: null, masked: [] };
	if (i === 0)
		return {
			...common,
			step: 'token',
			label: 'exchange the code (form)',
			request: {
				method: 'POST',
				url: `${ACCOUNTS}/oauth/token`,
				headers: [
					{ name: 'User-Agent', value: 'sso-flow-explorer/0.1' },
					{ name: 'Accept', value: 'application/json' },
					{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }
				],
				body: `grant_type=authorization_code&code=${CODE}&redirect_uri=http%3A%2F%2Flocalhost%3A4273%2Fcallback&client_id=demo-client&client_secret=${SECRET}`
			},
			response: {
				status: 200,
				statusText: 'OK',
				headers: responseHeaders,
				body: JSON.stringify({ access_token: ACCESS, token_type: 'Bearer', expires_in: 2419199, refresh_token: REFRESH, created_at: 1795000000 }),
				truncated: false
			}
		};
	return {
		...common,
		step: 'me',
		label: 'read me.json (access token, header)',
		request: {
			method: 'GET',
			url: `${ACCOUNTS}/api/v3/me.json`,
			headers: [
				{ name: 'Authorization', value: `Bearer ${ACCESS}` },
				{ name: 'User-Agent', value: 'sso-flow-explorer/0.1' },
				{ name: 'Accept', value: 'application/json' }
			],
			body: null
		},
		response: { status: 200, statusText: 'OK', headers: responseHeaders, body: ME_BODY, truncated: false }
	};
}

/** The run of a walk after its first `n` exchanges; a walk keeps its recorded exchanges, so they are the same objects each step. */
function walkRun(id: string, exchanges: RecordedExchange[], n: number): Run {
	return {
		id,
		title: 'Sandbox walk: demo-client, student',
		createdAt: '2026-11-23T10:00:05.000Z',
		target: { kind: 'sandbox', authUrl: 'http://localhost:4274', accountsUrl: ACCOUNTS },
		sandboxClock: '2026-11-23T10:00:05.000Z',
		link: 'http://localhost:4274/sso/student?response_type=code&client_id=demo-client&redirect_uri=http%3A%2F%2Flocalhost%3A4273%2Fcallback&country=uk',
		callback: { url: `http://localhost:4273/callback?code=${CODE}`, receivedAt: '2026-11-23T10:00:05.000Z' },
		exchanges: exchanges.slice(0, n),
		redactions: [],
		source: 'walk'
	};
}

const KNOWN: KnownSecrets = { clientSecrets: [SECRET], tokens: [ACCESS, REFRESH] };

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function timed(fn: () => void): number {
	const started = performance.now();
	fn();
	return performance.now() - started;
}

/** Per walk length: the median time of the step that brings a walk to that length, as the explorer saves it. */
export async function benchRedaction(log: (line: string) => void): Promise<Measurement[]> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-redaction-'));
	const store = openRunStore(join(dir, 'runs.sqlite'));
	const figures = { whole: 'redactRun of the whole walk', wholeSave: 'save of the whole walk', step: "the explorer's save of a step" };
	const times = Object.fromEntries(Object.keys(figures).map((k) => [k, new Map<number, number[]>(LENGTHS.map((n) => [n, []]))])) as Record<
		keyof typeof figures,
		Map<number, number[]>
	>;
	const longest = Math.max(...LENGTHS);
	let fresh = 0;
	try {
		// One warm-up walk. Each walk grows a step at a time, saved under its id as the explorer saves it (the
		// redaction and the store remember its exchanges and do only what changed); then copies of its exchanges
		// under ids never seen, so the redaction and the write are of the whole walk.
		for (let w = -1; w < WALKS; w++) {
			const exchanges = Array.from({ length: longest }, (_, i) => recorded(i));
			for (let n = 1; n <= longest; n++) {
				const ms = timed(() => store.save(walkRun(`walk-${w}`, exchanges, n), KNOWN, null, { triage: 'when-listed' }));
				if (w >= 0) times.step.get(n)?.push(ms);
			}
			if (w < 0) continue;
			for (const n of LENGTHS) {
				const copies = () => structuredClone(exchanges.slice(0, n));
				const forRedaction = copies();
				times.whole.get(n)!.push(timed(() => redactRun(walkRun(`fresh-${fresh++}`, forRedaction, n), KNOWN)));
				const id = `fresh-${fresh++}`;
				const forSave = copies();
				times.wholeSave.get(n)!.push(timed(() => store.save(walkRun(id, forSave, n), KNOWN)));
				store.remove(id); // the walks' file stays the size of one walk's

			}
		}
		return LENGTHS.flatMap((n) => {
			log(`${n} exchanges: ${Object.entries(figures).map(([k, name]) => `${name} ${median(times[k as keyof typeof figures].get(n)!).toFixed(3)} ms`).join(', ')}`);
			return Object.entries(figures).map(([k, name]) => ({
				metric: `${name[0]!.toUpperCase()}${name.slice(1)}, ${n} exchanges`,
				measured: `${median(times[k as keyof typeof figures].get(n)!).toFixed(2)} ms`,
				target: 'reported',
				pass: null
			}));
		});
	} finally {
		store.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

const SIGN_IN_COUNTS = [50, 150, 300];
const PAGE = `<!doctype html><html><body>${'<div class="row"><span>lorem ipsum dolor sit amet</span></div>\n'.repeat(640)}</body></html>`;

/** Sign-in `i` of a long run: its token exchange, with values of its own, and a 40 KB page served after it. */
function signIn(i: number): RecordedExchange[] {
	const own = (name: string) => `${name}${i.toString(36).padStart(4, '0')}`.padEnd(32, 'x');
	const token = recorded(0);
	const exchange: RecordedExchange = {
		...token,
		id: `s${i}`,
		request: { ...token.request, body: `grant_type=authorization_code&code=${own('code')}&client_id=shop&client_secret=${own('secret')}` },
		response: { ...token.response!, body: JSON.stringify({ access_token: own('access'), token_type: 'Bearer', refresh_token: own('refresh') }) }
	};
	const page: RecordedExchange = { ...recorded(1), id: `p${i}`, response: { ...recorded(1).response!, body: PAGE } };
	return [exchange, page];
}

/**
 * `redactRun` of a run of many sign-ins, each with values of its own: per sign-in, its cost stays the same as the
 * run grows when every value is searched for in one pass over each text (redact-search.ts), and grew with the
 * number of values when each was searched for in turn.
 */
export function benchManySignIns(log: (line: string) => void): Measurement[] {
	const perSignIn = SIGN_IN_COUNTS.map((count) => {
		const exchanges = Array.from({ length: count }, (_, i) => signIn(i)).flat();
		redactRun(walkRun(`warm-${count}`, structuredClone(exchanges), exchanges.length));
		const ms = median([0, 1, 2].map(() => timed(() => redactRun(walkRun(`many-${count}`, structuredClone(exchanges), exchanges.length)))));
		log(`${count} sign-ins with values of their own: redactRun ${ms.toFixed(1)} ms, ${(ms / count).toFixed(3)} ms per sign-in`);
		return { count, ms };
	});
	// Against the next-longest run, not the shortest: `encodedForms` keeps the forms of its last 256 values, so a run of
	// 50 sign-ins (200 values) is searched with its forms already made, and longer ones are not.
	const [first, last] = [perSignIn.at(-2)!, perSignIn.at(-1)!];
	const growth = last.ms / last.count / (first.ms / first.count);
	return [
		...perSignIn.map(({ count, ms }) => ({ metric: `redactRun of ${count} sign-ins, each with its own values and a 40 KB page`, measured: `${ms.toFixed(0)} ms`, target: 'reported', pass: null })),
		{
			metric: `Cost per sign-in at ${last.count} sign-ins against ${first.count}`,
			measured: `${growth.toFixed(2)}×`,
			target: '< 2× (linear in the run)',
			pass: growth < 2
		}
	];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	await benchRedaction((line) => console.log(line));
	benchManySignIns((line) => console.log(line));
}
