import { describe, expect, it } from 'vitest';
import { openRunStore } from './runs';
import type { Run } from '$lib/support/run';
import { createRunRedactor, redactRun } from '$lib/support/redact';

const SECRET = 'a-very-secret-client-secret';
const TOKEN = 'AccessTokenValue0123456789abcdef';

function run(overrides: Partial<Run> = {}): Run {
	return {
		id: 'run-1',
		title: 'Walk against the sandbox',
		createdAt: '2026-11-22T10:00:00.000Z',
		target: { kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
		sandboxClock: null,
		link: 'http://localhost:3001/sso/student?response_type=code&client_id=demo-client&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback&country=uk',
		callback: { url: 'http://localhost:3000/callback?code=abc', receivedAt: '2026-11-22T10:00:05.000Z' },
		exchanges: [
			{
				id: 'x1',
				step: 'token',
				label: 'exchange the code (query)',
				startedAt: '2026-11-22T10:00:06.000Z',
				durationMs: 12,
				request: {
					method: 'POST',
					url: `http://localhost:3002/oauth/token?grant_type=authorization_code&code=abc&client_id=demo-client&client_secret=${SECRET}`,
					headers: [],
					body: null
				},
				response: {
					status: 200,
					statusText: 'OK',
					headers: [{ name: 'Content-Type', value: 'application/json' }],
					body: JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 2419199, refresh_token: 'RefreshTokenValue0123456789', created_at: 1 }),
					truncated: false
				},
				failure: null,
				masked: []
			}
		],
		redactions: [],
		source: 'walk',
		...overrides
	};
}

describe('run store', () => {
	it('stores a run redacted and gives it back by id', () => {
		const store = openRunStore(':memory:');
		store.save(run(), { clientSecrets: [SECRET], tokens: [TOKEN] });
		const stored = store.get('run-1')!;
		const text = JSON.stringify(stored);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(TOKEN);
		expect(stored.redactions.length).toBeGreaterThan(0);
		expect(stored.exchanges[0]!.response!.status).toBe(200);
	});

	it('lists runs newest first with their outcome, and searches them', () => {
		const store = openRunStore(':memory:');
		store.save(run(), {});
		store.save(run({ id: 'run-2', title: 'Customer ticket 4711', exchanges: [] }), {});
		expect(store.list().map((r) => r.id)).toEqual(['run-2', 'run-1']);
		expect(store.list({ query: '4711' }).map((r) => r.id)).toEqual(['run-2']);
		expect(store.list({ query: 'oauth/token' }).map((r) => r.id)).toEqual(['run-1']);
		expect(store.list({ query: '100%' })).toEqual([]);
		expect(store.list().find((r) => r.id === 'run-1')!.outcome).toBe('200 token');
	});

	it('redacts with the redactor it is given, as thoroughly as redactRun', () => {
		const store = openRunStore(':memory:');
		const secrets = { clientSecrets: [SECRET], tokens: [TOKEN] };
		const saved = store.save(run(), secrets, createRunRedactor());
		expect(saved).toEqual(redactRun(run(), secrets));
		expect(store.get('run-1')).toEqual(saved);
	});

	it('replaces a run saved again under the same id', () => {
		const store = openRunStore(':memory:');
		store.save(run(), {});
		store.save(run({ title: 'Renamed' }), {});
		expect(store.list()).toHaveLength(1);
		expect(store.get('run-1')!.title).toBe('Renamed');
	});

	it('answers undefined for an unknown id', () => {
		expect(openRunStore(':memory:').get('nope')).toBeUndefined();
	});
});
