import { describe, expect, it } from 'vitest';
import { appendQueryParams, buildAuthorisationLink, linkParts } from './link';

const input = {
	authUrl: 'https://auth.example/',
	supergroup: 'key-worker',
	responseType: 'code',
	clientId: 'demo client',
	redirectUri: 'http://localhost:5173/callback?walk=1&x=a b',
	country: 'uk'
};

describe('buildAuthorisationLink', () => {
	it('puts the supergroup in the path and the parameters in the interface order', () => {
		const link = buildAuthorisationLink(input);
		expect(link).toBe(
			'https://auth.example/sso/key-worker?response_type=code&client_id=demo%20client' +
				'&redirect_uri=http%3A%2F%2Flocalhost%3A5173%2Fcallback%3Fwalk%3D1%26x%3Da%20b&country=uk'
		);
	});
	it('encodes the redirect URI as one URI component, so it comes back whole', () => {
		const link = new URL(buildAuthorisationLink(input));
		expect(link.searchParams.get('redirect_uri')).toBe(input.redirectUri);
		expect([...link.searchParams.keys()]).toEqual(['response_type', 'client_id', 'redirect_uri', 'country']);
	});
	it('adds extra link parameters after country, encoded', () => {
		const link = buildAuthorisationLink({ ...input, extraLinkParams: [['state', 'a&b'], ['x y', '1']] });
		expect(link.endsWith('&country=uk&state=a%26b&x%20y=1')).toBe(true);
	});
});

describe('linkParts', () => {
	it('lists the supergroup segment, then each parameter raw and decoded once', () => {
		const parts = linkParts(buildAuthorisationLink(input));
		expect(parts[0]).toEqual({ name: 'supergroup', location: 'path', raw: 'key-worker', decoded: 'key-worker' });
		expect(parts.find((p) => p.name === 'redirect_uri')).toEqual({
			name: 'redirect_uri',
			location: 'query',
			raw: 'http%3A%2F%2Flocalhost%3A5173%2Fcallback%3Fwalk%3D1%26x%3Da%20b',
			decoded: input.redirectUri
		});
		expect(parts.map((p) => p.name)).toEqual(['supergroup', 'response_type', 'client_id', 'redirect_uri', 'country']);
	});
	it('shows how an unencoded redirect URI split the link', () => {
		const parts = linkParts('https://a.example/sso/student?redirect_uri=https://app/cb?a=1&b=2&country=uk');
		expect(parts.map((p) => [p.name, p.raw])).toEqual([
			['supergroup', 'student'],
			['redirect_uri', 'https://app/cb?a=1'],
			['b', '2'],
			['country', 'uk']
		]);
	});
	it('decodes only once, so a double-encoded value stays visibly encoded', () => {
		const parts = linkParts('https://a.example/sso/student?redirect_uri=https%253A%252F%252Fapp');
		expect(parts[1]?.decoded).toBe('https%3A%2F%2Fapp');
	});
	it('gives the whole path when it is not /sso/{supergroup}', () => {
		expect(linkParts('https://a.example/login?x=1')[0]).toEqual({
			name: 'path',
			location: 'path',
			raw: '/login',
			decoded: '/login'
		});
	});
});

describe('appendQueryParams', () => {
	it('adds a query string, or extends the existing one, before any fragment', () => {
		expect(appendQueryParams('http://localhost/callback', [['walk', 'a b']])).toBe('http://localhost/callback?walk=a%20b');
		expect(appendQueryParams('http://localhost/cb?x=1#top', [['y', '2']])).toBe('http://localhost/cb?x=1&y=2#top');
		expect(appendQueryParams('http://localhost/cb?', [['y', '2']])).toBe('http://localhost/cb?y=2');
	});
	it('leaves the URI alone when there is nothing to add', () => {
		expect(appendQueryParams('http://localhost/cb', [])).toBe('http://localhost/cb');
	});
});
