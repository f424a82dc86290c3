import { describe, expect, it } from 'vitest';
import type { LoggedExchange } from '$lib/http/logged-exchange';
import { evidenceOf, sandboxFlowRecord } from './log-evidence';
import { reconstructFlows } from './reconstruct';

describe('evidenceOf', () => {
	const logged = (method: string, url: string): LoggedExchange => ({
		ref: 'p.1',
		host: 'authorisation',
		sandboxAt: '2030-01-01T00:00:00.000Z',
		durationMs: 2,
		request: { method, url, headers: [], body: null },
		response: { status: 200, statusText: 'OK', headers: [], body: '', truncated: false },
		keys: { authFlow: 'digest' }
	});

	it('makes a flow step of a sign-in request, timed on the sandbox clock, with its keys; nothing of other requests', () => {
		expect(evidenceOf(logged('POST', 'http://auth.test/flow/abc/consent'))).toMatchObject({
			exchange: { id: 'p.1', step: 'sign-in', label: 'sign-in: consent', startedAt: '2030-01-01T00:00:00.000Z' },
			keys: { authFlow: 'digest' }
		});
		expect(evidenceOf(logged('POST', 'http://api.test/sandbox/clock'))).toBeNull();
	});
});

describe('sandboxFlowRecord', () => {
	it("says the record is the service's side alone, so the verdict does not call the app's page a success", () => {
		const link = evidenceOf({
			ref: 'p.1',
			host: 'authorisation',
			sandboxAt: '2030-01-01T00:00:00.000Z',
			durationMs: 2,
			request: { method: 'GET', url: 'http://auth.test/sso/student?response_type=code&client_id=app', headers: [], body: null },
			response: { status: 303, statusText: 'See Other', headers: [], body: '', truncated: false },
			keys: { clientId: 'app', authFlow: 'digest' }
		})!;
		const [flow] = reconstructFlows([link]);
		expect(sandboxFlowRecord(flow!, { authUrl: 'http://auth.test', accountsUrl: 'http://api.test' }).serviceSideOnly).toBe(true);
	});
});
