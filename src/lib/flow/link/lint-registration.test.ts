import { describe, expect, it } from 'vitest';
import { authorisationMessage } from '$lib/protocol';
import { buildAuthorisationLink } from './link';
import { lintLink, type Registration } from './lint';

const SANDBOX = 'http://localhost:3001';
const registration: Registration = {
	authUrl: SANDBOX,
	workspace: 'Default',
	clients: [{ clientId: 'demo-client', redirectUris: ['http://localhost:3000/callback'], countries: ['uk', 'ie'] }]
};
const base = {
	authUrl: SANDBOX,
	supergroup: 'student',
	responseType: 'code',
	clientId: 'demo-client',
	redirectUri: 'http://localhost:3000/callback?next=%2Fhome',
	country: 'uk'
};
const link = (overrides: Partial<typeof base> = {}) => buildAuthorisationLink({ ...base, ...overrides });
const found = (url: string) => lintLink(url, { authUrl: SANDBOX, registration });

describe('the link against the sandbox registration', () => {
	it('finds nothing in a link the registration allows (extra parameters on the redirect URI, country in any case)', () => {
		expect(found(link())).toEqual([]);
		expect(found(link({ country: 'IE' })).map((f) => f.id)).toEqual(['country-case']);
	});

	it('names an unknown client with the service’s answer and the workspace’s client ids', () => {
		const [finding, ...rest] = found(link({ clientId: 'demo-clinet' }));
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({ id: 'client-not-registered', severity: 'error' });
		expect(finding!.message).toContain('No client `demo-clinet` is registered in the sandbox workspace “Default”.');
		expect(finding!.message).toContain(authorisationMessage('auth-invalid-client'));
		expect(finding!.fix).toContain('`demo-client`');
	});

	it('names an unregistered redirect URI with the registered ones', () => {
		const [finding] = found(link({ redirectUri: 'http://localhost:3000/callback/' }));
		expect(finding).toMatchObject({ id: 'redirect-uri-not-registered', severity: 'error' });
		expect(finding!.message).toContain('`http://localhost:3000/callback/` is not registered for `demo-client`. Registered: `http://localhost:3000/callback`.');
		expect(finding!.message).toContain(authorisationMessage('auth-invalid-redirect-uri'));
	});

	it('names a country off the plan with the plan’s countries', () => {
		const [finding] = found(link({ country: 'fr' }));
		expect(finding).toMatchObject({ id: 'country-not-on-plan', severity: 'error' });
		expect(finding!.message).toContain("not on `demo-client`'s plan, which covers: `uk`, `ie`.");
	});

	it('checks only links to the sandbox, and only when a registration is given', () => {
		const elsewhere = link({ authUrl: 'https://auth.example', clientId: 'someone-else' });
		expect(lintLink(elsewhere, { registration })).toEqual([]);
		expect(lintLink(link({ clientId: 'someone-else' }))).toEqual([]);
	});
});
