import { describe, expect, it } from 'vitest';
import { checkAuthorizationRequest, decide, hasActiveVerification, redirectLocation, type AuthorizationRequest } from './authorize';
import { applyFixtures } from './fixtures';
import { openStore } from './store';
import { addDays } from '../dates';

const ORIGIN = 'http://localhost:3000';
const CALLBACK = `${ORIGIN}/callback`;

function setup() {
	const store = openStore(':memory:');
	applyFixtures(store, ORIGIN);
	return store;
}

function query(overrides: Record<string, string | null> = {}): URLSearchParams {
	const base: Record<string, string | null> = {
		response_type: 'code',
		client_id: 'demo-client',
		redirect_uri: CALLBACK,
		country: 'uk',
		...overrides
	};
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(base)) if (v !== null) q.append(k, v);
	return q;
}

function errorOf(result: ReturnType<typeof checkAuthorizationRequest>) {
	if (result.ok) throw new Error('expected an error');
	return result.error;
}

function validRequest(store: ReturnType<typeof setup>, redirectUri = CALLBACK): AuthorizationRequest {
	const result = checkAuthorizationRequest(store, 'student', query({ redirect_uri: redirectUri }));
	if (!result.ok) throw new Error('expected a valid request');
	return result.request;
}

describe('authorisation rules: 7.1 rows', () => {
	it('accepts a complete, valid request', () => {
		const result = checkAuthorizationRequest(setup(), 'student', query());
		expect(result.ok && result.request.client.client_id).toBe('demo-client');
	});
	it('invalid redirect URI: not registered', () => {
		const error = errorOf(checkAuthorizationRequest(setup(), 'student', query({ redirect_uri: 'http://evil.example/callback' })));
		expect(error).toMatchObject({ kind: 'row', rowId: 'auth-invalid-redirect-uri', causeId: 'not-registered', message: 'The redirect URI included is not valid.' });
	});
	it('invalid redirect URI: differs in scheme, port, path or trailing slash', () => {
		const store = setup();
		for (const uri of ['https://localhost:3000/callback', 'http://localhost:3001/callback', 'http://localhost:3000/callback/', 'http://localhost:3000/Callback']) {
			expect(errorOf(checkAuthorizationRequest(store, 'student', query({ redirect_uri: uri })))).toMatchObject({ rowId: 'auth-invalid-redirect-uri' });
		}
	});
	it('invalid redirect URI: missing or not absolute', () => {
		const store = setup();
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ redirect_uri: null })))).toMatchObject({ rowId: 'auth-invalid-redirect-uri', causeId: 'missing' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ redirect_uri: '/callback' })))).toMatchObject({ rowId: 'auth-invalid-redirect-uri', causeId: 'missing' });
	});
	it('invalid client: missing or unknown client_id', () => {
		const store = setup();
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ client_id: null })))).toMatchObject({ rowId: 'auth-invalid-client', causeId: 'missing' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ client_id: 'nope' })))).toMatchObject({ rowId: 'auth-invalid-client', causeId: 'unknown-client' });
	});
	it('unsupported response type: missing or not code', () => {
		const store = setup();
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ response_type: 'token' })))).toMatchObject({ rowId: 'auth-unsupported-response-type' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ response_type: null })))).toMatchObject({ rowId: 'auth-unsupported-response-type' });
	});
	it('a repeated parameter is an error, not a guess', () => {
		const q = query();
		q.append('client_id', 'demo-client');
		expect(errorOf(checkAuthorizationRequest(setup(), 'student', q))).toMatchObject({ rowId: 'auth-invalid-client' });
	});
});

describe('authorisation rules: sandbox choices', () => {
	it('unknown supergroup is shown before anything else', () => {
		const error = errorOf(checkAuthorizationRequest(setup(), 'students', query({ client_id: null })));
		expect(error).toMatchObject({ kind: 'choice', choiceId: 'unknown-supergroup' });
	});
	it('checks in the order client_id, redirect_uri, response_type, country', () => {
		const store = setup();
		const all = { client_id: 'nope', redirect_uri: 'http://evil.example/', response_type: 'token', country: 'zz' };
		expect(errorOf(checkAuthorizationRequest(store, 'student', query(all)))).toMatchObject({ rowId: 'auth-invalid-client' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ ...all, client_id: 'demo-client' })))).toMatchObject({ rowId: 'auth-invalid-redirect-uri' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ ...all, client_id: 'demo-client', redirect_uri: CALLBACK })))).toMatchObject({ rowId: 'auth-unsupported-response-type' });
	});
	it('country outside the plan, missing, or gb: shown, naming the plan', () => {
		const store = setup();
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ country: 'es' })))).toMatchObject({ kind: 'choice', choiceId: 'country-outside-plan' });
		expect(errorOf(checkAuthorizationRequest(store, 'student', query({ country: null })))).toMatchObject({ choiceId: 'country-outside-plan' });
		const gb = errorOf(checkAuthorizationRequest(store, 'student', query({ country: 'gb' })));
		expect(gb.message).toContain('`uk`, not `gb`');
		expect(gb.message).toContain('uk, ie, fr, de, us');
	});
	it('compares countries case-insensitively', () => {
		const result = checkAuthorizationRequest(setup(), 'student', query({ country: 'UK' }));
		expect(result.ok && result.request.country).toBe('uk');
	});
	it('ignores state and scope', () => {
		expect(checkAuthorizationRequest(setup(), 'student', query({ state: 'xyz', scope: 'openid' })).ok).toBe(true);
	});
});

describe('authorisation rules: redirect (4.1.1)', () => {
	it('treats a redirect URI with extra query parameters as the registered one', () => {
		expect(checkAuthorizationRequest(setup(), 'student', query({ redirect_uri: `${CALLBACK}?shop=42` })).ok).toBe(true);
	});
	it('authorise: adds code and keeps the extra parameters byte for byte', () => {
		const store = setup();
		const user = store.getUserByLogin('student@example.com')!;
		const { location } = decide(validRequest(store, `${CALLBACK}?shop=42&next=%2Fa%20b`), user.id, 'authorize', 'test');
		expect(location).toMatch(/^http:\/\/localhost:3000\/callback\?shop=42&next=%2Fa%20b&code=[A-Za-z0-9_-]{43}$/);
	});
	it('authorise: overwrites an extra code parameter', () => {
		const store = setup();
		const user = store.getUserByLogin('student@example.com')!;
		const { location } = decide(validRequest(store, `${CALLBACK}?code=stale&a=1`), user.id, 'authorize', 'test');
		const params = new URL(location).searchParams;
		expect(params.getAll('code')).toHaveLength(1);
		expect(params.get('code')).not.toBe('stale');
		expect(params.get('a')).toBe('1');
	});
	it('binds the code to the client, the user and the exact redirect URI', () => {
		const store = setup();
		const user = store.getUserByLogin('student@example.com')!;
		const redirectUri = `${CALLBACK}?a=1`;
		const code = new URL(decide(validRequest(store, redirectUri), user.id, 'authorize', 'test').location).searchParams.get('code')!;
		expect(store.exchangeCode(code, 'demo-client', CALLBACK)).toEqual({ ok: false, cause: 'redirect-mismatch' });
		const exchange = store.exchangeCode(code, 'demo-client', redirectUri);
		expect(exchange.ok && exchange.userId).toBe(user.id);
	});
	it('cancel: no code, extra parameters kept, a stray code removed', () => {
		const store = setup();
		expect(decide(validRequest(store, `${CALLBACK}?code=stale&a=1`), 1, 'cancel', 'test')).toEqual({ location: `${CALLBACK}?a=1` });
		expect(decide(validRequest(store), 1, 'cancel', 'test')).toEqual({ location: CALLBACK });
	});
	it('recognises an encoded `code` name as code', () => {
		expect(redirectLocation('https://a.example/cb?co%64e=1&b=2', null)).toBe('https://a.example/cb?b=2');
	});
});

describe('active verification', () => {
	it('is active until the day before expires_on', () => {
		const store = setup();
		const user = store.getUserByLogin('new@example.com')!;
		expect(hasActiveVerification(store, user, 'student')).toBe(false);
		const today = store.addVerification(user.id, 'student', store.today());
		expect(hasActiveVerification(store, today, 'student')).toBe(false);
		const tomorrow = store.addVerification(user.id, 'student', addDays(store.today(), 1));
		expect(hasActiveVerification(store, tomorrow, 'student')).toBe(true);
		expect(hasActiveVerification(store, tomorrow, 'graduate')).toBe(false);
	});
	it('expired fixture user has no active verification', () => {
		const store = setup();
		expect(hasActiveVerification(store, store.getUserByLogin('expired@example.com')!, 'student')).toBe(false);
	});
});
