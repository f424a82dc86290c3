import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { describeTarget, exchangeHeadline, newRun, walkedHereNote, walkTitle } from './run';
import { parseCurl } from './curl-import';
import { harToRun } from './har/har';

const answered = (step: 'token' | 'me', status: number) => ({ step, response: { status }, failure: null });

describe('walkTitle', () => {
	it('says how the walk ended: the last exchange, with the row and likely cause it matched', () => {
		expect(walkTitle({ where: 'Sandbox', clientId: 'demo-client', cancelled: false, last: { exchange: answered('me', 200) } })).toBe(
			'Sandbox walk, demo-client: me.json 200'
		);
		expect(
			walkTitle({
				where: 'Sandbox',
				clientId: 'demo-client',
				cancelled: false,
				last: { exchange: answered('token', 400), annotation: { rowId: 'token-invalid-grant', causeId: 'used' } }
			})
		).toBe('Sandbox walk, demo-client: token 400 invalid_grant (7.2: used)');
	});

	it('says "cancelled" for a cancelled sign-in, and "code received" before anything was exchanged', () => {
		expect(walkTitle({ where: 'accounts.example', clientId: 'c', cancelled: true })).toBe('accounts.example walk, c: cancelled');
		expect(walkTitle({ where: 'Sandbox', clientId: 'c', cancelled: false })).toBe('Sandbox walk, c: code received');
	});
});

describe('exchangeHeadline', () => {
	it('names a transport failure, and a row without an error code by its table', () => {
		expect(exchangeHeadline({ step: 'token', response: null, failure: { kind: 'timeout' } })).toBe('token not answered (timeout)');
		expect(exchangeHeadline(answered('me', 401), { rowId: 'me-unauthorized' })).toMatch(/^me\.json 401 \(7\.3\)$/);
	});
});

describe('newRun', () => {
	const parts = { source: 'walk', title: 'A walk', createdAt: '2026-01-01T10:00:00.000Z', target: { kind: 'sandbox', authUrl: 'http://a', accountsUrl: 'http://b' } } as const;

	it('makes every field of a run: what was not given was not recorded, and the id is fresh unless given', () => {
		const made = newRun(parts);
		expect(made).toEqual({ ...parts, id: expect.any(String), sandboxClock: null, link: null, callback: null, exchanges: [], redactions: [] });
		expect(newRun(parts).id).not.toBe(made.id);
		expect(newRun({ ...parts, id: 'kept', link: 'http://a/sso/student' })).toMatchObject({ id: 'kept', link: 'http://a/sso/student' });
	});

	it('makes the imports: a pasted curl command and a browser HAR have the fields it gives, and no other', () => {
		const fields = Object.keys(newRun(parts)).sort();
		const curl = parseCurl("curl -X POST 'https://accounts.example.com/oauth/token?grant_type=authorization_code&code=c'");
		const har = harToRun(readFileSync(new URL('./har/fixtures/success.har.json', import.meta.url), 'utf8'));
		expect(curl.ok && Object.keys(curl.run).sort()).toEqual(fields);
		expect(har.ok && Object.keys(har.run).sort()).toEqual(fields);
	});
});

describe('describeTarget', () => {
	it('names the built-in sandbox, else the hosts reached, saying which was not recorded', () => {
		expect(describeTarget({ kind: 'sandbox', authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' })).toBe('the built-in sandbox');
		expect(describeTarget({ kind: 'custom', authUrl: 'https://auth.example.com', accountsUrl: 'https://accounts.example.com' })).toBe(
			'authorisation host https://auth.example.com, accounts host https://accounts.example.com'
		);
		expect(describeTarget({ kind: 'custom', authUrl: 'http://localhost:8301', accountsUrl: '' })).toBe('authorisation host http://localhost:8301, accounts host not recorded');
		expect(describeTarget({ kind: 'custom', authUrl: '', accountsUrl: '' })).toBe('not recorded');
	});
});

describe('walkedHereNote', () => {
	const ORIGIN = 'http://localhost:3000';
	const WALKED = `${ORIGIN}/callback`;
	const link = (redirect: string) => `http://localhost:3001/sso/student?response_type=code&client_id=demo-client&redirect_uri=${encodeURIComponent(redirect)}&country=uk`;
	const token = { step: 'token' } as Parameters<typeof walkedHereNote>[0]['exchanges'][number];

	it("says a browser's recording of a walk here lacks the explorer's server's calls, and how to add them on the sandbox", () => {
		const note = walkedHereNote({ link: link(`${ORIGIN}/callback`), exchanges: [], source: 'har' }, WALKED, true);
		expect(note).toMatch(/^this recording is of a walk in this explorer .* the explorer's server made the token exchange and the me\.json call/);
		expect(note).toContain("'Sandbox log for this client'");
		expect(walkedHereNote({ link: link(`${ORIGIN}/callback`), exchanges: [], source: 'har' }, WALKED, false)).not.toContain('Sandbox log');
	});

	it("is null for an app's own redirect URI, a record that holds the calls, and a walk itself", () => {
		expect(walkedHereNote({ link: link('https://shop.example.com/cb'), exchanges: [], source: 'har' }, WALKED, true)).toBeNull();
		expect(walkedHereNote({ link: link(`${ORIGIN}/callback`), exchanges: [token], source: 'har' }, WALKED, true)).toBeNull();
		expect(walkedHereNote({ link: link(`${ORIGIN}/callback`), exchanges: [], source: 'walk' }, WALKED, true)).toBeNull();
	});
});
