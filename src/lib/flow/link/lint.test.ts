import { describe, expect, it } from 'vitest';
import { SECTIONS, authorisationMessage, errorCause } from '$lib/protocol';
import { buildAuthorisationLink } from './link';
import { SECRET_VALUE_FINDING, lintLink, type Finding } from './lint';

const AUTH = 'https://auth.example';
const ACCOUNTS = 'https://accounts.example';
const base = {
	authUrl: AUTH,
	supergroup: 'student',
	responseType: 'code',
	clientId: 'demo',
	redirectUri: 'http://localhost:5173/callback',
	country: 'uk'
};
const context = { authUrl: AUTH, accountsUrl: ACCOUNTS };

function link(overrides: Partial<typeof base> & { extraLinkParams?: [string, string][] } = {}): string {
	return buildAuthorisationLink({ ...base, ...overrides });
}
function ids(findings: Finding[]): string[] {
	return findings.map((f) => f.id);
}
function only(findings: Finding[], id: string): Finding {
	const found = findings.filter((f) => f.id === id);
	expect(found, `one ${id} finding in ${JSON.stringify(ids(findings))}`).toHaveLength(1);
	return found[0]!;
}

describe('lintLink', () => {
	it('finds nothing in a correct link', () => {
		expect(lintLink(link(), context)).toEqual([]);
	});

	it('flags a link that is not a URL', () => {
		const f = only(lintLink('auth.example/sso/student?x', context), 'unparseable');
		expect(f.severity).toBe('error');
		expect(f.section).toBe(SECTIONS.authorisationPage);
	});

	it('flags response_type missing, and response_type other than code', () => {
		const missing = lintLink(link().replace('response_type=code&', ''), context);
		expect(only(missing, 'response-type-missing').severity).toBe('error');
		const token = only(lintLink(link({ responseType: 'token' }), context), 'response-type-not-code');
		expect(token.message).toContain('"token"');
		expect(token.fix).toMatch(/response_type=code/);
	});

	it('flags a missing client_id, redirect_uri and country', () => {
		expect(only(lintLink(link({ clientId: '' }), context), 'client-id-missing').severity).toBe('error');
		const noRedirect = link().replace(/&redirect_uri=[^&]*/, '');
		expect(only(lintLink(noRedirect, context), 'redirect-uri-missing').section).toBe(SECTIONS.authorisationPage);
		expect(only(lintLink(link().replace('&country=uk', ''), context), 'country-missing').severity).toBe('error');
	});

	it('quotes the 7.1 message the service will show, and the table\'s fix, for each missing parameter', () => {
		const cases = [
			['response-type-missing', link().replace('response_type=code&', ''), 'auth-unsupported-response-type', 'not-code'],
			['client-id-missing', link({ clientId: '' }), 'auth-invalid-client', 'missing'],
			['redirect-uri-missing', link().replace(/&redirect_uri=[^&]*/, ''), 'auth-invalid-redirect-uri', 'missing']
		] as const;
		for (const [id, raw, rowId, causeId] of cases) {
			const f = only(lintLink(raw, context), id);
			expect(f.message).toContain(`"${authorisationMessage(rowId)}"`);
			expect(f.fix).toBe(errorCause(rowId, causeId).fix);
		}
	});

	it('warns about a redirect URI that is not encoded as a URI component', () => {
		const raw = `${AUTH}/sso/student?response_type=code&client_id=demo&redirect_uri=http://localhost:5173/callback&country=uk`;
		const f = only(lintLink(raw, context), 'redirect-uri-not-encoded');
		expect(f.severity).toBe('warning');
		expect(f.section).toBe(SECTIONS.redirectExtras);
	});

	it('names the parameters an unencoded redirect URI leaked into the link, as an error', () => {
		const raw = `${AUTH}/sso/student?response_type=code&client_id=demo&redirect_uri=http://localhost/cb?a=1&b=2&country=uk`;
		const f = only(lintLink(raw, context), 'redirect-uri-not-encoded');
		expect(f.severity).toBe('error');
		expect(f.message).toContain('`b`');
		expect(f.message).toContain('"http://localhost/cb?a=1"');
		expect(f.message).not.toContain('`country`');
	});

	it('flags a redirect URI that does not decode to an absolute URI, and one encoded twice', () => {
		expect(only(lintLink(link({ redirectUri: '/callback' }), context), 'redirect-uri-not-absolute').message).toMatch(
			/not an absolute URI/
		);
		const twice = link().replace(/redirect_uri=([^&]*)/, (_, v: string) => `redirect_uri=${encodeURIComponent(v)}`);
		expect(only(lintLink(twice, context), 'redirect-uri-not-absolute').message).toMatch(/encoded twice/);
	});

	it('flags an extra `code` parameter on the redirect URI (it will be overwritten)', () => {
		const f = only(lintLink(link({ redirectUri: 'http://localhost/cb?code=mine' }), context), 'redirect-uri-code');
		expect(f.section).toBe(SECTIONS.redirectExtras);
		expect(f.message).toMatch(/overwrites/);
	});

	it('flags gb and suggests uk', () => {
		const f = only(lintLink(link({ country: 'gb' }), context), 'country-gb');
		expect(f.severity).toBe('error');
		expect(f.fix).toBe('Send `country=uk`.');
	});

	it('warns about an upper-case country, suggesting the lower-case one', () => {
		const f = only(lintLink(link({ country: 'FR' }), context), 'country-case');
		expect(f.severity).toBe('warning');
		expect(f.fix).toContain('country=fr');
		expect(only(lintLink(link({ country: 'GB' }), context), 'country-case').fix).toContain('country=uk');
	});

	it('flags a country that is not ISO 3166 alpha-2', () => {
		expect(only(lintLink(link({ country: 'xx' }), context), 'country-not-iso').severity).toBe('error');
		expect(only(lintLink(link({ country: 'gbr' }), context), 'country-not-iso').severity).toBe('error');
	});

	it('flags a supergroup outside the four, with a lower-case hint when it is one of them', () => {
		const f = only(lintLink(link({ supergroup: 'teachers' }), context), 'unknown-supergroup');
		expect(f.section).toBe(SECTIONS.supergroups);
		expect(f.message).toContain('student, graduate, key-worker, social-assistance');
		expect(only(lintLink(link({ supergroup: 'Student' }), context), 'unknown-supergroup').fix).toContain('/sso/student');
	});

	it('flags a path that is not /sso/{supergroup}', () => {
		const f = only(lintLink(link().replace('/sso/student', '/login'), context), 'path-not-sso');
		expect(f.message).toContain('/login');
	});

	it('flags a client_secret parameter in the link and in the redirect URI, without echoing it', () => {
		const inLink = lintLink(link({ extraLinkParams: [['client_secret', 'hunter2-value']] }), context);
		expect(only(inLink, 'client-secret-parameter').message).toMatch(/parameter of the link/);
		const inRedirect = lintLink(link({ redirectUri: 'https://app.example/cb?client_secret=hunter2-value' }), context);
		const f = only(inRedirect, 'client-secret-parameter');
		expect(f.severity).toBe('error');
		expect(f.message).toMatch(/parameter of the redirect URI/);
		expect(JSON.stringify([inLink, inRedirect])).not.toContain('hunter2');
	});

	it("flags the secret's value anywhere in the link, raw or encoded, and never shows it", () => {
		const secret = 's3cr:t/value';
		const places = [
			link({ extraLinkParams: [['note', secret]] }),
			link({ redirectUri: `https://app.example/cb?x=${encodeURIComponent(secret)}` }),
			link({ redirectUri: `https://app.example/${secret}` }),
			`${AUTH}/sso/student?response_type=code&client_id=demo&redirect_uri=https://app/cb?k=${secret}&country=uk`,
			`not a url ${secret}`
		];
		for (const place of places) {
			const findings = lintLink(place, { ...context, secret });
			expect(only(findings, SECRET_VALUE_FINDING).severity).toBe('error');
			const text = JSON.stringify(findings);
			expect(text).not.toContain(secret);
			expect(text).not.toContain(encodeURIComponent(secret));
			expect(text).not.toContain('s3cr');
		}
	});

	it('reports the secret once when it is the value of a client_secret parameter', () => {
		const findings = lintLink(link({ extraLinkParams: [['client_secret', 'abcdef123']] }), { ...context, secret: 'abcdef123' });
		expect(ids(findings).filter((id) => id.startsWith('client-secret'))).toEqual(['client-secret-parameter']);
	});

	it('does not search for the secret when it is not known', () => {
		expect(lintLink(link({ extraLinkParams: [['note', 'x']] }), { ...context, secret: '' })).toEqual([]);
	});

	it('flags a link pointed at the accounts host, by origin or by path', () => {
		const byOrigin = only(lintLink(link({ authUrl: ACCOUNTS }), context), 'accounts-host');
		expect(byOrigin.severity).toBe('error');
		const byPath = lintLink(`https://elsewhere.example/oauth/token?response_type=code&client_id=demo&redirect_uri=x&country=uk`, {});
		expect(ids(byPath)).toContain('accounts-host');
		expect(ids(byPath)).not.toContain('path-not-sso');
		expect(ids(lintLink('https://a.example/api/v3/me.json', {}))).toContain('accounts-host');
	});

	it('warns about a link pointed at another host than the target', () => {
		expect(only(lintLink(link({ authUrl: 'https://other.example' }), context), 'other-host').severity).toBe('warning');
	});

	it('warns about state (client libraries that check it reject every sign-in) and notes scope as not used', () => {
		const findings = lintLink(link({ extraLinkParams: [['state', 'xyz'], ['scope', 'openid']] }), context);
		const state = only(findings, 'state-parameter');
		expect(state.severity).toBe('warning');
		expect(state.section).toBe(SECTIONS.authentication);
		expect(state.message).toMatch(/never sends it back/);
		expect(state.message).toMatch(/Authlib and requests-oauthlib add `state` by default/);
		expect(state.message).toMatch(/state mismatch/);
		expect(state.fix).toMatch(/skip its `state` check/);
		expect(only(findings, 'scope-parameter').severity).toBe('info');
	});

	it('warns about a plain-http redirect URI off localhost, and not on localhost', () => {
		const f = only(lintLink(link({ redirectUri: 'http://app.example/cb' }), context), 'redirect-uri-http');
		expect(f.severity).toBe('warning');
		for (const host of ['localhost:5173', '127.0.0.1', '[::1]:8080'])
			expect(ids(lintLink(link({ redirectUri: `http://${host}/cb` }), context))).not.toContain('redirect-uri-http');
	});

	it('warns about a repeated parameter and a fragment', () => {
		expect(only(lintLink(`${link()}&country=fr`, context), 'duplicate-parameter').message).toContain('`country`');
		expect(only(lintLink(`${link()}#top`, context), 'link-fragment').severity).toBe('warning');
	});

	it('lists errors before warnings before notes', () => {
		const findings = lintLink(link({ country: 'gb', redirectUri: 'http://app.example/cb', extraLinkParams: [['scope', 'openid']] }), context);
		expect(findings.map((f) => f.severity)).toEqual(['error', 'warning', 'info']);
	});
});
