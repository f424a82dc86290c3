import { describe, expect, it } from 'vitest';
import { LIMITS, sandboxChoice } from '$lib/protocol';
import {
	annotateCallback,
	annotateMeExchange,
	annotateTokenExchange,
	redirectUriDiff,
	type WalkKnowledge
} from './diagnose';
import type { RecordedExchange } from '../exchange';
import type { HttpHeader, TransportFailure } from '../../http/exchange';

const LINK_REDIRECT = 'http://localhost:5173/callback?walk=w1';

function exchange(status: number, body: unknown, headers: HttpHeader[] = [], statusText = ''): RecordedExchange {
	return {
		id: 'e1',
		step: 'token',
		label: 'exchange the code',
		startedAt: '2025-03-01T10:00:00.000Z',
		durationMs: 5,
		request: { method: 'POST', url: 'https://accounts.example/oauth/token', headers: [], body: null },
		response: {
			status,
			statusText,
			headers: [{ name: 'Content-Type', value: 'application/json' }, ...headers],
			body: typeof body === 'string' ? body : JSON.stringify(body),
			truncated: false
		},
		failure: null,
		masked: []
	};
}

function failed(failure: TransportFailure): RecordedExchange {
	return { ...exchange(0, ''), response: null, failure };
}

const sandbox: WalkKnowledge = {
	target: 'sandbox',
	now: '2025-03-01T10:30:00.000Z',
	codeReceivedAt: '2025-03-01T10:00:00.000Z',
	linkRedirectUri: LINK_REDIRECT,
	sentRedirectUri: LINK_REDIRECT,
	linkClientId: 'demo',
	codeClientId: 'demo',
	sentClientId: 'demo',
	sentGrantType: 'authorization_code',
	issuedCode: 'c1',
	sentCode: 'c1'
};
const custom: WalkKnowledge = { ...sandbox, target: 'custom' };

const grantError = (description = 'The provided authorization grant is invalid.') =>
	exchange(400, { error: 'invalid_grant', error_description: description });

const tokenBody = {
	access_token: '••••••…abcd',
	token_type: 'Bearer',
	expires_in: LIMITS.accessTokenExpiresIn,
	refresh_token: '••••••…wxyz',
	created_at: 1740823200
};

describe('annotateTokenExchange: success', () => {
	it('validates the token response and explains each field', () => {
		const a = annotateTokenExchange(exchange(200, tokenBody, [{ name: 'Cache-Control', value: 'no-store' }]), sandbox);
		expect(a.outcome).toBe('success');
		expect(a.problems).toBeUndefined();
		expect(a.fields?.map((f) => f.name)).toEqual(['access_token', 'token_type', 'expires_in', 'refresh_token', 'created_at']);
		const field = (name: string) => a.fields?.find((f) => f.name === name);
		expect(field('access_token')?.explanation).toMatch(/opaque.*one user/i);
		expect(field('expires_in')?.explanation).toMatch(/2419199 seconds, about 28 days/);
		expect(field('created_at')?.explanation).toContain('2025-03-01T10:00:00.000Z');
		expect(field('access_token')?.value).toBe('••••••…abcd');
	});

	it('notes a missing Cache-Control: no-store without calling it a failure', () => {
		const a = annotateTokenExchange(exchange(200, tokenBody), sandbox);
		expect(a.outcome).toBe('success');
		expect(a.problems).toEqual([expect.stringMatching(/^Note: no `Cache-Control: no-store`/)]);
	});

	it('flags a 200 body that does not match the schema', () => {
		const a = annotateTokenExchange(
			exchange(200, { ...tokenBody, token_type: 'bearer', extra: 1 }, [{ name: 'Cache-Control', value: 'no-store' }]),
			sandbox
		);
		expect(a.title).toMatch(/does not match 2.3/);
		expect(a.problems?.some((p) => p.startsWith('token_type:'))).toBe(true);
		expect(a.problems?.some((p) => /extra/.test(p))).toBe(true);
		expect(a.fields?.find((f) => f.name === 'extra')?.explanation).toMatch(/Not a field/);
	});
});

describe('annotateTokenExchange: invalid_grant causes from the walk', () => {
	it('a code already exchanged in this walk is `used`', () => {
		const a = annotateTokenExchange(grantError(), { ...sandbox, codeExchangedBefore: true });
		expect(a).toMatchObject({ outcome: 'error', rowId: 'token-invalid-grant', causeId: 'used', title: '400 invalid_grant' });
		expect(a.summary).toMatch(/already exchanged/);
		expect(a.fix).toMatch(/Exchange each code once/);
		expect(a.candidates).toHaveLength(1);
	});

	it('a code received more than 2 hours ago is `expired`', () => {
		const a = annotateTokenExchange(grantError(), { ...sandbox, now: '2025-03-01T12:13:00.000Z' });
		expect(a.causeId).toBe('expired');
		expect(a.summary).toMatch(/2 h 13 min ago/);
		expect(annotateTokenExchange(grantError(), { ...sandbox, now: '2025-03-01T11:59:00.000Z' }).causeId).toBeUndefined();
	});

	it('says a code just past its 2 hours expired, rather than "arrived 2 h ago; valid for 2 h"', () => {
		const a = annotateTokenExchange(grantError(), { ...sandbox, now: '2025-03-01T12:00:30.000Z' });
		expect(a.summary).toContain('The code arrived 2 h ago: it expired 30 s ago (a code is valid for 2 h).');
	});

	it('a different redirect_uri is `redirect-mismatch`, with a diff', () => {
		const sent = 'http://localhost:5173/callback';
		const a = annotateTokenExchange(grantError(), { ...sandbox, sentRedirectUri: sent });
		expect(a.causeId).toBe('redirect-mismatch');
		expect(a.redirectUriDiff).toEqual([{ part: 'query', a: '?walk=w1', b: '' }]);
	});

	it('a code from another client is `other-client`', () => {
		const a = annotateTokenExchange(grantError(), { ...sandbox, codeClientId: 'other', sentClientId: 'demo' });
		expect(a.causeId).toBe('other-client');
		expect(a.summary).toContain('"other"');
	});

	it('a code that is not the issued one is `unknown-code`', () => {
		expect(annotateTokenExchange(grantError(), { ...sandbox, sentCode: 'typo' }).causeId).toBe('unknown-code');
	});

	it("compares a code the sandbox's log shows by its tail with the whole one a HAR's redirect delivered", () => {
		const whole = 'Xk2d9aQv7LmP0sTuY3wZ6INE';
		const joined = (sentCode: string) => annotateTokenExchange(grantError(), { ...sandbox, issuedCode: whole, sentCode }).causeId;
		expect(joined('••••••6INE')).toBeUndefined();
		expect(joined('••••••Q9zz')).toBe('unknown-code');
		// Masked whole, the log shows nothing of it: nothing says it differs.
		expect(joined('••••••')).toBeUndefined();
	});

	it('against the sandbox with nothing known, lists every cause as possible', () => {
		const a = annotateTokenExchange(grantError(), sandbox);
		expect(a.causeId).toBeUndefined();
		expect(a.candidates.map((c) => c.likelihood)).toEqual(Array(6).fill('possible'));
		expect(a.summary).toMatch(/cannot tell/);
	});

	it('against a custom deployment, ranks candidates likely first and says it cannot be sure', () => {
		const a = annotateTokenExchange(grantError(), { ...custom, codeExchangedBefore: true });
		expect(a.candidates[0]).toMatchObject({ causeId: 'used', likelihood: 'likely' });
		expect(a.candidates.slice(1).every((c) => c.likelihood === 'possible')).toBe(true);
		expect(a.candidates).toHaveLength(6);
		expect(a.summary).toMatch(/does not say which cause applies\. Most likely/);
		expect(a.candidates.every((c) => c.fix.length > 0)).toBe(true);
	});

	it('uses the error_description when the walk knows nothing', () => {
		const a = annotateTokenExchange(grantError('The code has expired'), custom);
		expect(a.candidates[0]).toMatchObject({ causeId: 'expired', likelihood: 'likely' });
	});

	it('reads the sandbox\'s unknown code as `unknown-code`, though it says to pass the code "from the redirect"', () => {
		const unknown = grantError('The code is not one this service issued: pass the `code` from the redirect unchanged (decoded once).');
		expect(annotateTokenExchange(unknown, custom).causeId).toBe('unknown-code');
		const mismatch = grantError('`redirect_uri` does not match the one in the authorisation link exactly (extra query parameters included).');
		expect(annotateTokenExchange(mismatch, custom).causeId).toBe('redirect-mismatch');
	});
});

describe('annotateTokenExchange: the other 7.2 rows', () => {
	it('invalid_request names the missing parameter from error_description', () => {
		const a = annotateTokenExchange(
			exchange(400, { error: 'invalid_request', error_description: 'Missing required parameter: redirect_uri.' }),
			sandbox
		);
		expect(a).toMatchObject({ rowId: 'token-invalid-request', causeId: 'missing-parameter' });
		expect(a.summary).toContain('`redirect_uri`');
	});

	it('invalid_request naming `code` is the cancel case, not `authorization_code`', () => {
		const missingCode = annotateTokenExchange(
			exchange(400, { error: 'invalid_request', error_description: 'Missing required parameter: code.' }),
			sandbox
		);
		expect(missingCode.causeId).toBe('missing-code');
		expect(missingCode.summary).toMatch(/cancel/);
		const other = annotateTokenExchange(
			exchange(400, { error: 'invalid_request', error_description: 'grant_type must be authorization_code; client_id missing' }),
			sandbox
		);
		expect(other.causeId).toBe('missing-parameter');
		expect(other.summary).toContain('`grant_type`');
	});

	it('unsupported_grant_type shows what was sent', () => {
		const a = annotateTokenExchange(
			exchange(400, { error: 'unsupported_grant_type', error_description: 'x' }),
			{ ...sandbox, sentGrantType: 'password' }
		);
		expect(a).toMatchObject({ rowId: 'token-unsupported-grant-type', causeId: 'wrong-grant-type' });
		expect(a.summary).toContain('"password"');
		expect(a.fix).toBe('Send `grant_type=authorization_code`.');
	});

	it('invalid_client: wrong secret, unknown client, missing credentials', () => {
		const body = (d: string) => exchange(401, { error: 'invalid_client', error_description: d });
		expect(annotateTokenExchange(body('Client secret does not match'), sandbox).causeId).toBe('wrong-secret');
		expect(annotateTokenExchange(body('Client authentication failed'), { ...sandbox, sentClientId: 'nobody' }).causeId).toBe(
			'unknown-client'
		);
		expect(annotateTokenExchange(body('Client authentication failed'), { ...sandbox, sentClientId: '' }).causeId).toBe(
			'missing-credentials'
		);
		const unknown = annotateTokenExchange(body('Client authentication failed'), custom);
		expect(unknown.causeId).toBeUndefined();
		expect(unknown.candidates.map((c) => c.causeId)).toEqual(['wrong-secret', 'unknown-client', 'missing-credentials']);
	});

	it('invalid_client for a dropped client_id: missing credentials only, not also "secret does not match"', () => {
		const dropped = exchange(401, { error: 'invalid_client', error_description: '`client_id` is missing; send client_id and client_secret (parameters or an Authorization: Basic header).' });
		for (const target of [sandbox, custom]) {
			const a = annotateTokenExchange(dropped, { ...target, sentClientId: undefined });
			expect(a.causeId).toBe('missing-credentials');
			expect(a.candidates.filter((c) => c.likelihood === 'likely').map((c) => c.causeId)).toEqual(['missing-credentials']);
		}
	});

	it("says each sentence once: the summary gives the evidence, the cause's text is shown beside it", () => {
		const a = annotateTokenExchange(grantError(), { ...sandbox, codeExchangedBefore: true });
		expect(a.summary).toBe('This code was already exchanged earlier in this walk.');
		const sentences = [a.summary, a.fix].join(' ').split(/(?<=\.)\s+/);
		expect(new Set(sentences).size).toBe(sentences.length);
	});

	it('notes a status that differs from the table for a known error', () => {
		const a = annotateTokenExchange(exchange(400, { error: 'invalid_client', error_description: 'secret' }), sandbox);
		expect(a.rowId).toBe('token-invalid-client');
		expect(a.problems).toEqual(['The table gives status 401 for invalid_client; this answer was 400.']);
	});
});

describe('annotateTokenExchange: answers outside the tables and transport failures', () => {
	it('a 500 is an error not in the tables, with what to check', () => {
		const a = annotateTokenExchange(exchange(500, 'oops', [], 'Internal Server Error'), custom);
		expect(a).toMatchObject({ outcome: 'error', title: "500 Internal Server Error: not in the interface's tables" });
		expect(a.rowId).toBeUndefined();
		expect(a.summary).toMatch(/No row of 7.2/);
		expect(a.fix).toMatch(/operator/);
	});

	it('an HTML page or garbage is explained, never thrown on', () => {
		const html = exchange(200, '<!doctype html><title>Login</title>', [{ name: 'Content-Type', value: 'text/html' }]);
		expect(annotateTokenExchange(html, custom).summary).toMatch(/HTML page/);
		expect(annotateTokenExchange(exchange(400, '{"error":'), custom).summary).toMatch(/not JSON/);
		expect(annotateTokenExchange(exchange(400, { error: 'slow_down', error_description: '' }), custom).summary).toMatch(
			/not one the tables describe/
		);
	});

	it('a redirect names where it pointed', () => {
		const a = annotateTokenExchange(exchange(302, '', [{ name: 'Location', value: 'https://login.example/' }]), custom);
		expect(a.title).toBe("302: not in the interface's tables");
		expect(a.summary).toContain('https://login.example/');
	});

	it("a 405 from the sandbox cites the sandbox's documented choice", () => {
		const a = annotateTokenExchange(exchange(405, { error: 'invalid_request', error_description: 'Use POST' }), sandbox);
		expect(a.notDescribed).toBe(sandboxChoice('wrong-method').sandbox);
		expect(annotateTokenExchange(exchange(405, ''), custom).notDescribed).toBeUndefined();
	});

	it('a transport failure is its own outcome with its message and fix', () => {
		const timeout = annotateTokenExchange(failed({ kind: 'timeout', message: 'no answer', timeoutMs: 10_000 }), custom);
		expect(timeout).toMatchObject({ outcome: 'transport', title: 'No complete answer in time' });
		expect(timeout.summary).toContain('waited 10 s');
		expect(timeout.summary).toContain('No response from the target (waited 10 s): no answer.');
		const stalled = annotateTokenExchange({ ...exchange(200, '{"acc'), failure: { kind: 'timeout', message: 'No complete answer within 3 s.', timeoutMs: 3000 } }, custom);
		expect(stalled.summary).toBe(
			"The target began to answer (200, then 5 characters of body) but the answer never completed (waited 3 s): No complete answer within 3 s. Nothing in the interface's tables applies to an incomplete answer."
		);
		expect(annotateTokenExchange(failed({ kind: 'refused', message: 'host not allowed' }), custom).fix).toMatch(/allowed hosts/);
		expect(annotateTokenExchange(failed({ kind: 'unreachable', message: 'ECONNREFUSED' }), custom).fix).toMatch(/running/);
	});

	it('a request with neither a response nor a failure was never sent: unsent, not a failure', () => {
		const unsent = annotateTokenExchange({ ...exchange(200, ''), response: null }, custom);
		expect(unsent).toMatchObject({ outcome: 'unsent', title: 'Not sent yet' });
		expect(unsent.fix).toMatch(/^Send it/);
	});

	it('a complete answer of broken JSON says what the parser found', () => {
		const a = annotateTokenExchange(exchange(200, '{"access_token":"abc","token_type":'), custom);
		expect(a.outcome).toBe('error');
		expect(a.summary).toMatch(/^The body is not JSON \(.*JSON.*\)\. No row of 7\.2 matches/);
	});
});

describe('annotateMeExchange', () => {
	const ok = { target: 'sandbox' as const, sentUserAgent: true, sentToken: true, today: '2025-03-01' };

	it('renders the user for a person: sbid_number, each verification, days left, the key used', () => {
		const a = annotateMeExchange(
			exchange(200, { sbid_number: 'AB12CD3', verifications: [{ supergroup: 'key-worker', expires_on: '2025-03-11' }] }),
			ok
		);
		expect(a.outcome).toBe('success');
		expect(a.problems).toBeUndefined();
		expect(a.verificationKey).toBe('supergroup');
		expect(a.account).toEqual({ sbidNumber: 'AB12CD3', verificationKeys: ['supergroup'] });
		expect(a.verifications?.[0]).toMatchObject({ name: 'Key Worker', daysLeft: 10, lastValidDay: '2025-03-10' });
		expect(a.fields?.[0]).toMatchObject({ name: 'sbid_number', value: 'AB12CD3' });
		expect(a.fields?.[1]?.explanation).toMatch(/Active until 2025-03-10.*10 days left/);
		expect(a.summary).toContain('Key Worker');
	});

	it('reports the `group` key, and an empty list as normal', () => {
		const group = annotateMeExchange(
			exchange(200, { sbid_number: 'AB12CD3', verifications: [{ group: 'student', expires_on: '2026-01-01' }] }),
			ok
		);
		expect(group.verificationKey).toBe('group');
		expect(group.account?.verificationKeys).toEqual(['group']);
		expect(group.summary).toMatch(/key `group`/);
		const none = annotateMeExchange(exchange(200, { sbid_number: 'AB12CD3', verifications: [] }), ok);
		expect(none.summary).toMatch(/no active verification.*not an error/);
		expect(none.verificationKey).toBeUndefined();
	});

	it('flags a schema mismatch, a listed expired verification, and an accepted grant code', () => {
		const bad = annotateMeExchange(exchange(200, { sbid_number: 'short', verifications: [] }), ok);
		expect(bad.problems?.[0]).toMatch(/^sbid_number:/);
		expect(bad.account).toBeUndefined(); // the page shows no account read from a body that does not match 2.4
		const expired = annotateMeExchange(
			exchange(200, { sbid_number: 'AB12CD3', verifications: [{ supergroup: 'student', expires_on: '2025-03-01' }] }),
			{ ...ok, sentGrantCode: true }
		);
		expect(expired.problems).toEqual([
			expect.stringMatching(/grant code/),
			expect.stringMatching(/already expired/)
		]);
	});

	it('401 with no token, with the grant code, and with a bad token', () => {
		const e401 = exchange(401, { message: 'Unauthorized' });
		expect(annotateMeExchange(e401, { ...ok, sentToken: false })).toMatchObject({ rowId: 'me-unauthorized', causeId: 'missing-token' });
		expect(annotateMeExchange(e401, { ...ok, sentGrantCode: true }).causeId).toBe('grant-code');
		const bad = annotateMeExchange(e401, ok);
		expect(bad.causeId).toBe('invalid-token');
		expect(bad.fields).toEqual([{ name: 'message', value: 'Unauthorized', explanation: expect.any(String) }]);
	});

	it('403 without a User-Agent is the table row; with one, it is only possible', () => {
		const e403 = exchange(403, '');
		const noUa = annotateMeExchange(e403, { ...ok, sentUserAgent: false });
		expect(noUa).toMatchObject({ rowId: 'me-forbidden', causeId: 'missing-user-agent' });
		expect(noUa.fix).toMatch(/User-Agent/);
		const withUa = annotateMeExchange(e403, ok);
		expect(withUa.causeId).toBeUndefined();
		expect(withUa.candidates[0]?.likelihood).toBe('possible');
		expect(withUa.summary).toMatch(/does not fit/);
	});

	it('400 and 404 map to their single-cause rows', () => {
		expect(annotateMeExchange(exchange(400, ''), ok)).toMatchObject({ rowId: 'me-bad-request', causeId: 'missing-host' });
		const gone = annotateMeExchange(exchange(404, { message: 'gone' }), { ...ok, target: 'custom' });
		expect(gone).toMatchObject({ rowId: 'me-not-found', causeId: 'deletion-requested' });
	});

	it('answers outside 7.3 and transport failures', () => {
		expect(annotateMeExchange(exchange(502, 'bad gateway'), ok).summary).toMatch(/No row of 7.3/);
		expect(annotateMeExchange(failed({ kind: 'unreachable', message: 'down' }), ok).outcome).toBe('transport');
	});
});

describe('annotateCallback', () => {
	it('a cancel is its own outcome, never an error', () => {
		const a = annotateCallback({ kind: 'cancel', preserved: [{ name: 'walk', value: 'w1' }], missingExtras: [] });
		expect(a.outcome).toBe('cancel');
		expect(a.summary).toMatch(/not an error/);
		expect(a.summary).toMatch(/preserved: walk/);
		expect(a.problems).toBeUndefined();
	});
	it('a code is a success with the 2-hour limit; missing extras are a problem', () => {
		const a = annotateCallback({ kind: 'code', code: 'c', preserved: [], missingExtras: [{ name: 'walk', value: 'w1' }] });
		expect(a.outcome).toBe('success');
		expect(a.summary).toMatch(/within 2 h/);
		expect(a.problems?.[0]).toMatch(/walk/);
	});
	it('an unexpected redirect is an error with its reason', () => {
		expect(annotateCallback({ kind: 'unexpected', reason: 'why' })).toMatchObject({ outcome: 'error', summary: 'why' });
	});
});

describe('redirectUriDiff', () => {
	it('lists each differing part as written', () => {
		expect(redirectUriDiff('https://app.example/cb?x=1', 'http://app.example:80/cb/?x=1')).toEqual([
			{ part: 'scheme', a: 'https', b: 'http' },
			{ part: 'authority', a: 'app.example', b: 'app.example:80' },
			{ part: 'path', a: '/cb', b: '/cb/' }
		]);
		expect(redirectUriDiff('http://h/cb?a=1&b=2', 'http://h/cb?b=2&a=1')).toEqual([
			{ part: 'query', a: '?a=1&b=2', b: '?b=2&a=1' }
		]);
		expect(redirectUriDiff('http://h/cb', 'http://h/cb')).toEqual([]);
	});
});

describe('annotations never throw on odd values', () => {
	it('a created_at out of any date range is explained, not thrown on', () => {
		const a = annotateTokenExchange(exchange(200, { ...tokenBody, created_at: 1e20 }), sandbox);
		expect(a.fields?.find((f) => f.name === 'created_at')?.explanation).toMatch(/Unix timestamp/);
	});
	it('a 200 that is JSON but not an object is a mismatch, not a crash', () => {
		expect(annotateTokenExchange(exchange(200, 'null'), sandbox).title).toMatch(/does not match/);
		expect(annotateMeExchange(exchange(200, '[1]'), { target: 'custom', sentToken: true, sentUserAgent: true }).title).toMatch(
			/does not match/
		);
	});
});
