/**
 * Every explorer API error has one body shape, `{error, message}` (platform/errors.ts): a script can test `error`,
 * a person reads `message`. Walks the API's refusals, each as a script would meet it, and checks status and shape.
 */
import { expect, test } from '@playwright/test';
import { EXPLORER } from './security/support/ports';

interface Refusal {
	what: string;
	method: 'GET' | 'POST';
	path: string;
	body?: string;
	headers?: Record<string, string>;
	status: number;
	error: string;
}

const json = { 'content-type': 'application/json' };

const REFUSALS: Refusal[] = [
	{ what: 'an unknown walk action', method: 'POST', path: '/api/walk/fly', body: '{}', headers: json, status: 404, error: 'not-found' },
	{ what: 'a walk step whose body is not JSON', method: 'POST', path: '/api/walk/start', body: 'link=x', headers: json, status: 400, error: 'bad-request' },
	{ what: 'a walk step with a field of the wrong type', method: 'POST', path: '/api/walk/start', body: '{"link":42}', headers: json, status: 400, error: 'bad-request' },
	{ what: 'revealing a token of no exchange', method: 'POST', path: '/api/walk/reveal', body: '{"exchangeId":"none","kind":"access_token"}', headers: json, status: 404, error: 'not-found' },
	{ what: 'a lesson outcome that does not exist', method: 'POST', path: '/api/lesson', body: '{"outcome":"fly"}', headers: json, status: 400, error: 'bad-request' },
	{ what: 'an import of an unknown kind', method: 'POST', path: '/api/import?kind=pdf', body: 'x', headers: { 'content-type': 'application/octet-stream' }, status: 400, error: 'bad-request' },
	{ what: 'an import whose text is no HAR', method: 'POST', path: '/api/import', body: '{"kind":"har","text":"not a har"}', headers: json, status: 400, error: 'bad-request' },
	{ what: 'an unknown scenario', method: 'POST', path: '/api/scenarios/no-such-scenario', body: '{}', headers: json, status: 404, error: 'not-found' },
	{ what: 'the export of an unknown run', method: 'GET', path: '/runs/no-such-run/export/markdown', status: 404, error: 'not-found' },
	{ what: 'evidence for an unknown run', method: 'POST', path: '/runs/no-such-run/evidence', body: '{"kind":"sandbox-log"}', headers: json, status: 404, error: 'not-found' },
	{ what: 'the live events of an unknown client', method: 'GET', path: '/live/no-such-client/events', status: 404, error: 'not-found' },
	{ what: 'the outcome rules of an unknown client', method: 'GET', path: '/live/no-such-client/outcomes', status: 404, error: 'not-found' },
	{ what: 'outcome rules changed without a body', method: 'POST', path: '/live/demo-client/outcomes', body: 'nothing', headers: json, status: 400, error: 'bad-request' },
	{ what: 'an app check of an unknown client', method: 'POST', path: '/live/no-such-client/app-check', body: '{"start_url":"http://localhost:1/"}', headers: json, status: 404, error: 'not-found' },
	{ what: 'a write from another site', method: 'POST', path: '/api/walk/view', body: '{}', headers: { ...json, origin: 'https://elsewhere.example' }, status: 403, error: 'forbidden' }
];

test('every explorer API refusal answers {error, message}, with a stable code and a message to act on', async () => {
	const seen: string[] = [];
	for (const refusal of REFUSALS) {
		const response = await fetch(`${EXPLORER}${refusal.path}`, { method: refusal.method, body: refusal.body, headers: refusal.headers });
		expect(response.status, refusal.what).toBe(refusal.status);
		expect(response.headers.get('content-type'), refusal.what).toMatch(/^application\/json/);
		const body = (await response.json()) as Record<string, unknown>;
		expect(Object.keys(body).sort(), refusal.what).toEqual(['error', 'message']);
		expect(body.error, refusal.what).toBe(refusal.error);
		expect(typeof body.message === 'string' && body.message.length > 10, refusal.what).toBe(true);
		expect(body.message, refusal.what).not.toMatch(/\n\s+at /);
		seen.push(refusal.what);
	}
	expect(seen).toHaveLength(REFUSALS.length);
});
