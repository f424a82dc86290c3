import { describe, expect, it } from 'vitest';
import { codeFromOtherClient, saveEffect, splitRedirectUri, unsavedFields } from './walk';

describe('splitRedirectUri', () => {
	it('splits the registered part from extra parameters', () => {
		expect(splitRedirectUri('http://localhost:3000/callback?shop=12&lang=en')).toEqual({
			base: 'http://localhost:3000/callback',
			extras: [
				['shop', '12'],
				['lang', 'en']
			]
		});
	});
	it('keeps a URI without a query whole', () => {
		expect(splitRedirectUri('https://app.example/cb')).toEqual({ base: 'https://app.example/cb', extras: [] });
	});
});

describe('codeFromOtherClient', () => {
	const link = 'http://localhost:3001/sso/student?response_type=code&client_id=demo-client&redirect_uri=x&country=uk';
	const code = { url: 'http://localhost:3000/callback?code=c', receivedAt: '', result: { kind: 'code' as const, code: 'c' } } as never;
	it('names the client a held code was issued to when the walk’s client changed since', () => {
		expect(codeFromOtherClient({ link, callback: code, client: { clientId: 'group-key-client' } as never })).toBe('demo-client');
	});
	it('is null for the same client, or without a code', () => {
		expect(codeFromOtherClient({ link, callback: code, client: { clientId: 'demo-client' } as never })).toBeNull();
		expect(codeFromOtherClient({ link, callback: null, client: { clientId: 'group-key-client' } as never })).toBeNull();
	});
});

describe('saveEffect', () => {
	const view = {
		target: { kind: 'sandbox' as const, authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
		client: { clientId: 'demo-client', secret: { set: true } },
		link: 'http://localhost:3001/sso/student?client_id=demo-client',
		callback: { result: { kind: 'code', code: 'c' } },
		exchanges: [{}]
	} as never;
	const sandbox = { kind: 'sandbox' as const };
	it('says a held code is kept across a change of client, for the tamper', () => {
		expect(saveEffect(view, { target: sandbox, clientId: 'group-key-client', clientSecret: 's' })).toMatch(/keeps the code.*group-key-client's credentials, as a tamper.*new run/);
	});
	it('says a change of target starts a new walk', () => {
		expect(saveEffect(view, { target: { kind: 'custom', authUrl: 'https://a.example', accountsUrl: 'https://b.example' }, clientId: 'demo-client' })).toMatch(/new walk starts/);
	});
	it('says the secret held stays with the old target unless one is typed for the new one', () => {
		const custom = { kind: 'custom' as const, authUrl: 'https://a.example', accountsUrl: 'https://b.example' };
		expect(saveEffect(view, { target: custom, clientId: 'demo-client' })).toMatch(/new walk starts.*secret held is for the current target only/);
		expect(saveEffect(view, { target: custom, clientId: 'demo-client', clientSecret: 's' })).not.toMatch(/secret/);
		const notBegun = { ...(view as object), link: null, callback: null } as never;
		expect(saveEffect(notBegun, { target: custom, clientId: 'demo-client' })).toMatch(/^The client secret held is for the current target only/);
	});
		it('says nothing when nothing that matters changes', () => {
		expect(saveEffect(view, { target: sandbox, clientId: 'demo-client' })).toBeNull();
	});
});

describe('unsavedFields', () => {
	const view = {
		target: { kind: 'sandbox' as const, authUrl: 'http://localhost:3001', accountsUrl: 'http://localhost:3002' },
		client: { clientId: 'demo-client', redirectUri: 'http://localhost:3000/callback', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] }
	} as never;
	const saved = { target: { kind: 'sandbox' as const }, clientId: 'demo-client', redirectUri: 'http://localhost:3000/callback', supergroup: 'student', country: 'uk', responseType: 'code', extraLinkParams: [] as [string, string][] };
	it('is empty when the form shows the saved settings (an empty extra parameter row is no change)', () => {
		expect(unsavedFields(view, saved)).toEqual([]);
		expect(unsavedFields(view, { ...saved, extraLinkParams: [['', '']] })).toEqual([]);
	});
	it('names each field the form changed', () => {
		expect(unsavedFields(view, { ...saved, country: 'fr', extraLinkParams: [['state', 'x']], clientSecret: 's' })).toEqual(['client secret', 'country', 'extra link parameters']);
		expect(unsavedFields(view, { ...saved, target: { kind: 'custom', authUrl: 'https://a.example', accountsUrl: 'https://b.example' } })).toEqual(['target']);
	});
});
