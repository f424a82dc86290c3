import { describe, expect, it } from 'vitest';
import { clientParty, flowSteps, laneNotes, redirectSeen, type FlowSoFar } from './sequence';

const exchange = (id: string, step: 'token' | 'me' | 'sign-in', status: number | null): FlowSoFar['exchanges'][number] => ({
	id,
	step,
	response: status === null ? null : { status, statusText: '', headers: [], body: '', truncated: false },
	failure: status === null ? { kind: 'unreachable', message: 'no answer' } : null
});

const ids = (flow: FlowSoFar) => flowSteps(flow).map((s) => `${s.id}:${s.state}${s.exchangeId ? `>${s.exchangeId}` : ''}`);

describe('flowSteps', () => {
	it('draws the whole flow pending before anything happened', () => {
		expect(ids({ link: false, callback: null, exchanges: [] })).toEqual([
			'link:pending',
			'redirect:pending',
			'callback:pending',
			'token-request:pending',
			'token-response:pending',
			'me-request:pending',
			'me-response:pending'
		]);
	});

	it('draws an exchange never sent as not sent, not as failed', () => {
		const pasted = { ...exchange('p', 'token', null), failure: null };
		const steps = flowSteps({ link: false, callback: null, exchanges: [pasted] }).filter((s) => s.exchangeId === 'p');
		expect(steps.map((s) => `${s.label}:${s.state}`)).toEqual(['POST /oauth/token (not sent):unsent', 'token response:unsent']);
	});

	it('gives every exchange its own pair of arrows, each opening it, in the order they were made', () => {
		const flow: FlowSoFar = {
			link: true,
			callback: 'code',
			exchanges: [exchange('t1', 'token', 400), exchange('t2', 'token', 200), exchange('a', 'sign-in', 302), exchange('t3', 'token', null)]
		};
		expect(ids(flow)).toEqual([
			'link:done',
			'redirect:done',
			'callback:done',
			't1-request:done>t1',
			't1-response:error>t1',
			't2-request:done>t2',
			't2-response:done>t2',
			't3-request:done>t3',
			't3-response:error>t3',
			'me-request:pending',
			'me-response:pending'
		]);
		expect(flowSteps(flow).find((s) => s.id === 't1-response')?.label).toBe('400 token response');
	});

	it('draws the arrival at the app as an error when the app\'s callback page then failed', () => {
		const steps = flowSteps({ link: true, callback: 'code', appFailed: true, exchanges: [] });
		expect(steps.slice(1, 3).map((s) => `${s.id}:${s.state}`)).toEqual(['redirect:done', 'callback:error']);
	});

	it('draws a cancel as a cancel, not an error', () => {
		const steps = flowSteps({ link: true, callback: 'cancel', exchanges: [exchange('m', 'me', 401)] });
		expect(steps.slice(1, 3).map((s) => s.state)).toEqual(['cancel', 'cancel']);
		expect(steps[1]?.label).toBe('redirect without code (cancel)');
		expect(steps.map((s) => s.id).slice(3)).toEqual(['m-request', 'm-response', 'token-request', 'token-response']);
	});
});

describe('the parties and the redirect back', () => {
	it('names the hosts by their real names, not placeholders', () => {
		expect(laneNotes({ client: 'this explorer', authUrl: 'http://localhost:3301', accountsUrl: 'https://accounts.example.com/base' })).toEqual({
			browser: 'the user',
			client: 'this explorer',
			auth: 'localhost:3301',
			accounts: 'accounts.example.com'
		});
		expect(laneNotes({ client: 'the app', authUrl: '', accountsUrl: '' }).accounts).toBe('not seen');
	});

	it("labels the browser's arrival with the redirect URI's own path, as seen", () => {
		const link = `https://auth.example.com/sso/student?client_id=shop&redirect_uri=${encodeURIComponent('https://shop.example.com/auth/return?lang=en')}`;
		const seen = redirectSeen(link, null);
		expect(seen).toBe('https://shop.example.com/auth/return?lang=en');
		expect(redirectSeen(link, 'https://shop.example.com/cb?code=x')).toBe('https://shop.example.com/cb?code=x');
		const callback = flowSteps({ link: true, callback: 'code', redirectUri: seen, exchanges: [] }).find((s) => s.id === 'callback');
		expect(callback?.label).toBe('GET /auth/return');
		expect(clientParty(false, seen)).toBe('shop.example.com');
		expect(clientParty(true, seen)).toBe('this explorer');
		expect(clientParty(false, null)).toBe('the app');
	});
});
