import { describe, expect, it } from 'vitest';
import { applyStep, type ExchangeEntry, type WalkStep, type WalkView } from './view';

function entry(id: string, body = '{}'): ExchangeEntry {
	return {
		exchange: {
			id,
			step: 'me',
			label: `read ${id}`,
			startedAt: '2026-11-23T10:00:00.000Z',
			durationMs: 1,
			request: { method: 'GET', url: 'http://localhost:3002/api/v3/me.json', headers: [], body: null },
			response: { status: 200, statusText: 'OK', headers: [], body, truncated: false },
			failure: null,
			masked: []
		},
		annotation: { outcome: 'success', headline: 'ok', row: null, findings: [] } as unknown as ExchangeEntry['annotation'],
		curl: `curl ${id}`
	};
}

const rest: Omit<WalkView, 'exchanges'> = {
	target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
	client: { clientId: 'demo-client', secret: { set: true, last: 'me' }, redirectUri: 'http://localhost:3000/callback', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] },
	link: 'http://localhost:3001/sso/student',
	serverFindings: [],
	callback: null,
	hasAccessToken: true,
	sandboxNow: null,
	runId: 'run-1'
};

const held = (...ids: string[]): WalkView => ({ ...rest, exchanges: ids.map((id) => entry(id)) });

const step = (base: [number, string | null], from: number, exchanges: ExchangeEntry[], view = rest): WalkStep => ({
	view,
	base: { count: base[0], lastId: base[1] },
	from,
	exchanges
});

describe('applyStep', () => {
	it('appends a step’s new exchange to the view held before it, and takes the rest of the view from the step', () => {
		const view = { ...rest, hasAccessToken: false, sandboxNow: '2026-11-23T10:00:00.000Z' };
		const merged = applyStep(held('a', 'b'), step([2, 'b'], 2, [entry('c')], view));
		expect(merged).toEqual({ ...view, exchanges: [entry('a'), entry('b'), entry('c')] });
	});

	it('replaces the exchanges from `from` on: those masked again by the step', () => {
		const remasked = entry('b', '{"note":"••••"}');
		expect(applyStep(held('a', 'b'), step([2, 'b'], 1, [remasked, entry('c')]))!.exchanges).toEqual([entry('a'), remasked, entry('c')]);
	});

	it('replaces everything when the step starts from nothing (a new walk), whatever was held', () => {
		expect(applyStep(held('a', 'b'), step([0, null], 0, []))).toEqual({ ...rest, exchanges: [] });
		expect(applyStep(null, step([5, 'x'], 0, [entry('y')]))).toEqual({ ...rest, exchanges: [entry('y')] });
	});

	it('refuses to merge into a view the step does not follow: another count, another last exchange, or none held', () => {
		expect(applyStep(held('a'), step([2, 'b'], 2, [entry('c')]))).toBeNull();
		expect(applyStep(held('a', 'x'), step([2, 'b'], 2, [entry('c')]))).toBeNull();
		expect(applyStep(held('a', 'b', 'c'), step([2, 'b'], 2, [entry('c')]))).toBeNull();
		expect(applyStep(null, step([2, 'b'], 2, [entry('c')]))).toBeNull();
	});
});
