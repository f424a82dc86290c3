import { describe, expect, it } from 'vitest';
import type { RecordedExchange, StepId } from '../exchange';
import { MASK } from '../../http/exchange';
import { CANCEL_LOOP_SECONDS, reconstructFlows, type FlowEvidence } from './reconstruct';
import { expectLinear } from '../testing/expect-linear';
import { sharedCodeFlow } from '../testing/shared-code-flow';

const AUTH = 'http://auth.test';
const API = 'http://api.test';
const LINK = `${AUTH}/sso/student?response_type=code&client_id=app&redirect_uri=${encodeURIComponent('http://app.test/cb')}&country=uk`;

let clock = Date.parse('2030-01-01T10:00:00Z');
let serial = 0;
function recorded(step: StepId, method: string, url: string, options: { body?: string; headers?: [string, string][]; status?: number; location?: string; answer?: string; at?: number } = {}): RecordedExchange {
	clock = options.at ?? clock + 1000;
	return {
		id: `e${++serial}`,
		step,
		label: step,
		startedAt: new Date(clock).toISOString(),
		durationMs: 1,
		request: { method, url, headers: (options.headers ?? []).map(([name, value]) => ({ name, value })), body: options.body ?? null },
		response: {
			status: options.status ?? (options.location ? 303 : 200),
			statusText: '',
			headers: options.location ? [{ name: 'Location', value: options.location }] : [],
			body: options.answer ?? '',
			truncated: false
		},
		failure: null,
		masked: []
	};
}

/** A whole sign-in as an import has it: literal values, no keys. */
function signIn(code: string, token: string, decision: 'authorise' | 'cancel' = 'authorise'): RecordedExchange[] {
	const flowId = `F${code}`;
	const pages = [
		recorded('link', 'GET', LINK, { location: `/flow/${flowId}` }),
		recorded('sign-in', 'GET', `${AUTH}/flow/${flowId}`),
		recorded('sign-in', 'POST', `${AUTH}/flow/${flowId}/login`, { location: `/flow/${flowId}` }),
		recorded('sign-in', 'POST', `${AUTH}/flow/${flowId}/consent`, { location: decision === 'cancel' ? 'http://app.test/cb' : `http://app.test/cb?code=${code}` })
	];
	if (decision === 'cancel') return pages;
	return [
		...pages,
		recorded('token', 'POST', `${API}/oauth/token`, { body: `grant_type=authorization_code&client_id=app&code=${code}`, answer: `{"access_token":"${token}","refresh_token":"r-${token}"}` }),
		recorded('me', 'GET', `${API}/api/v3/me.json`, { headers: [['Authorization', `Bearer ${token}`]] })
	];
}

const literal = (exchanges: RecordedExchange[]): FlowEvidence[] => exchanges.map((exchange) => ({ exchange }));

describe('reconstructFlows', () => {
	it('joins link, pages, redirect, exchange and me.json by literal values, two interleaved flows apart', () => {
		const a = signIn('codeA', 'tokenA');
		const b = signIn('codeB', 'tokenB');
		// Interleaved in time: a's and b's requests alternate.
		const mixed = a.flatMap((e, i) => [e, b[i]!]).map((e, i) => ({ ...e, startedAt: new Date(Date.parse('2030-02-01T00:00:00Z') + i * 1000).toISOString() }));
		const flows = reconstructFlows(literal(mixed));
		expect(flows).toHaveLength(2);
		expect(flows[0]!.exchanges.map((e) => e.id)).toEqual(a.map((e) => e.id));
		expect(flows[1]!.exchanges.map((e) => e.id)).toEqual(b.map((e) => e.id));
		expect(flows[0]).toMatchObject({ clientId: 'app', link: LINK, followsCancel: null, callback: { url: 'http://app.test/cb?code=codeA' } });
	});

	it('joins on the keys when given (the live log), not on the masked values', () => {
		const [link, page, login, consent, token, me] = signIn(`${MASK}1234`, `${MASK}5678`);
		const keyed: FlowEvidence[] = [
			{ exchange: link!, keys: { clientId: 'app', authFlow: 'f' } },
			{ exchange: page!, keys: { authFlow: 'f' } },
			{ exchange: login!, keys: { authFlow: 'f' } },
			{ exchange: consent!, keys: { authFlow: 'f', code: 'c' } },
			{ exchange: token!, keys: { clientId: 'app', code: 'c', issued: ['t'] } },
			{ exchange: me!, keys: { presented: 't' } }
		];
		const flows = reconstructFlows(keyed.reverse());
		expect(flows).toHaveLength(1);
		expect(flows[0]!.exchanges.map((e) => e.step)).toEqual(['link', 'sign-in', 'sign-in', 'sign-in', 'token', 'me']);
		// Without keys, masked values join nothing: the exchange and me.json stand apart.
		expect(reconstructFlows(literal([link!, page!, login!, consent!, token!, me!])).length).toBeGreaterThan(1);
	});

	it('joins a second exchange of the same code, and a refresh by its refresh token', () => {
		const flow = signIn('codeC', 'tokenC');
		const again = recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&code=codeC', status: 400 });
		const refresh = recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=refresh_token&refresh_token=r-tokenC', answer: '{"access_token":"tokenD"}' });
		const meD = recorded('me', 'GET', `${API}/api/v3/me.json?access_token=tokenD`);
		const flows = reconstructFlows(literal([...flow, again, refresh, meD]));
		expect(flows).toHaveLength(1);
		expect(flows[0]!.exchanges.slice(-3).map((e) => e.id)).toEqual([again.id, refresh.id, meD.id]);
	});

	it('gives an exchange whose redirect is not in the window a flow of its own', () => {
		const orphan = recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&client_id=app&code=old' });
		const [flow] = reconstructFlows(literal([orphan]));
		expect(flow).toMatchObject({ id: orphan.id, clientId: 'app', link: null, callback: null });
	});

	it('joins an exchange of a code no redirect delivered to the cancel just before it, and not one that comes later', () => {
		const cancelled = signIn('codeI', 'tokenI', 'cancel');
		const after = recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&client_id=app&code=null', status: 400 });
		const flows = reconstructFlows(literal([...cancelled, after]));
		expect(flows).toHaveLength(1);
		expect(flows[0]!.exchanges.at(-1)!.id).toBe(after.id);

		const cancelledAgain = signIn('codeJ', 'tokenJ', 'cancel');
		clock += (CANCEL_LOOP_SECONDS + 5) * 1000;
		const later = recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&client_id=app&code=null', status: 400 });
		expect(reconstructFlows(literal([...cancelledAgain, later]))).toHaveLength(2);
	});

	it('joins each client\'s exchange of the same undelivered code (`null`) to its own cancel, not to the first that sent it', () => {
		const first = [...signIn('codeK', 'tokenK', 'cancel'), recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&client_id=app&code=null', status: 400 })];
		const otherLink = LINK.replace('client_id=app', 'client_id=other');
		const second = [
			recorded('link', 'GET', otherLink, { location: '/flow/FL' }),
			recorded('sign-in', 'POST', `${AUTH}/flow/FL/consent`, { location: 'http://app.test/cb' }),
			recorded('token', 'POST', `${API}/oauth/token`, { body: 'grant_type=authorization_code&client_id=other&code=null', status: 400 })
		];
		const flows = reconstructFlows(literal([...first, ...second]));
		expect(flows.map((f) => [f.clientId, f.exchanges.map((e) => e.step).join(',')])).toEqual([
			['app', 'link,sign-in,sign-in,sign-in,token'],
			['other', 'link,sign-in,token']
		]);
	});

	it('marks a new link right after a cancel as following it (the loop), and not one that comes later', () => {
		const cancelled = signIn('codeE', 'tokenE', 'cancel');
		const restart = signIn('codeF', 'tokenF');
		const flows = reconstructFlows(literal([...cancelled, ...restart]));
		expect(flows).toHaveLength(2);
		expect(flows[0]!.callback?.url).toBe('http://app.test/cb');
		expect(flows[1]!.followsCancel).toEqual({ flowId: flows[0]!.id, secondsAfter: 1 });

		const cancelledAgain = signIn('codeG', 'tokenG', 'cancel');
		clock += (CANCEL_LOOP_SECONDS + 5) * 1000;
		const later = signIn('codeH', 'tokenH');
		expect(reconstructFlows(literal([...cancelledAgain, ...later]))[1]!.followsCancel).toBeNull();
	});
});


describe('reconstructing thousands of exchanges of one code', () => {
	it('joins them into one flow, in time linear in the exchanges', () => {
		const evidence = (n: number) => sharedCodeFlow(n).exchanges.map((exchange) => ({ exchange }));
		const inputs = new Map([2000, 8000].map((n) => [n, evidence(n)]));
		// The link's flow, and the exchanges' (the import has no redirect exchange carrying the code to join them by).
		expect(reconstructFlows(inputs.get(2000)!).map((f) => f.exchanges.length)).toEqual([1, 2000]);
		expectLinear((n) => reconstructFlows(inputs.get(n)!), 2000);
	});
});
