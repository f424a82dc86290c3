import { describe, expect, it } from 'vitest';
import type { LoggedExchange } from '$lib/http/logged-exchange';
import { evidenceOf } from './log-evidence';

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
