import { describe, expect, it } from 'vitest';
import { buildMeRequest, buildTokenRequest, USER_AGENT } from './requests';

const input = {
	accountsUrl: 'https://accounts.example.com/',
	code: 'c0de',
	redirectUri: 'http://localhost:3000/callback?x=1 2',
	clientId: 'demo client',
	clientSecret: 's3cr:et&'
};
const query = (url: string) => [...new URL(url).searchParams];
const header = (request: { headers: { name: string; value: string }[] }, name: string) =>
	request.headers.find((h) => h.name === name)?.value;

describe('buildTokenRequest', () => {
	it('query (the interface’s form): POST with every parameter in the query string, each a URI component, no body', () => {
		const request = buildTokenRequest({ ...input, transport: 'query' });
		expect(request.method).toBe('POST');
		expect(request.body).toBeNull();
		expect(request.url).toBe(
			'https://accounts.example.com/oauth/token?grant_type=authorization_code&code=c0de' +
				'&redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcallback%3Fx%3D1%202&client_id=demo%20client&client_secret=s3cr%3Aet%26'
		);
		expect(request.headers).toEqual([
			{ name: 'User-Agent', value: USER_AGENT },
			{ name: 'Accept', value: 'application/json' }
		]);
	});

	it('form: the same parameters in an x-www-form-urlencoded body, none in the URL', () => {
		const request = buildTokenRequest({ ...input, transport: 'form' });
		expect(request.url).toBe('https://accounts.example.com/oauth/token');
		expect(header(request, 'Content-Type')).toBe('application/x-www-form-urlencoded');
		expect([...new URLSearchParams(request.body!)]).toEqual([
			['grant_type', 'authorization_code'],
			['code', 'c0de'],
			['redirect_uri', input.redirectUri],
			['client_id', 'demo client'],
			['client_secret', 's3cr:et&']
		]);
	});

	it.each([
		['basic', 'Basic'],
		['bearer', 'Bearer']
	] as const)('%s: base64(urlenc(id):urlenc(secret)) in Authorization, the rest in the query', (transport, scheme) => {
		const request = buildTokenRequest({ ...input, transport });
		const [prefix, payload] = header(request, 'Authorization')!.split(' ');
		expect(prefix).toBe(scheme);
		expect(Buffer.from(payload!, 'base64').toString()).toBe('demo%20client:s3cr%3Aet%26');
		expect(query(request.url).map(([name]) => name)).toEqual(['grant_type', 'code', 'redirect_uri']);
		expect(request.body).toBeNull();
	});

	it('leaves out omitted and absent parameters, and sends another grant_type when asked', () => {
		const request = buildTokenRequest({ ...input, code: undefined, grantType: 'password', omit: ['redirect_uri'], transport: 'query' });
		expect(query(request.url)).toEqual([
			['grant_type', 'password'],
			['client_id', 'demo client'],
			['client_secret', 's3cr:et&']
		]);
	});

	it('tampers as asked, one vocabulary for the walk and the scenarios: a redirect_uri with an extra parameter, a wrong secret, another grant_type', () => {
		const request = buildTokenRequest({ ...input, transport: 'query', tamper: { redirectUriExtra: true, wrongSecret: true, grantType: 'password' } });
		expect(query(request.url)).toEqual([
			['grant_type', 'password'],
			['code', 'c0de'],
			['redirect_uri', 'http://localhost:3000/callback?x=1 2&tampered=1'],
			['client_id', 'demo client'],
			['client_secret', 's3cr:et&-wrong']
		]);
		const plain = buildTokenRequest({ ...input, redirectUri: 'http://localhost:3000/callback', transport: 'query', tamper: { redirectUriExtra: true } });
		expect(new URL(plain.url).searchParams.get('redirect_uri')).toBe('http://localhost:3000/callback?tampered=1');
		expect(buildTokenRequest({ ...input, transport: 'query', tamper: {} }).url).toBe(buildTokenRequest({ ...input, transport: 'query' }).url);
	});

	it('header transports without any credential send no Authorization header', () => {
		const request = buildTokenRequest({ ...input, transport: 'basic', omit: ['client_id', 'client_secret'] });
		expect(header(request, 'Authorization')).toBeUndefined();
	});
});

describe('buildMeRequest', () => {
	const base = { accountsUrl: 'https://accounts.example.com', token: 'tok en' };

	it('header: GET me.json with Authorization: Bearer and a User-Agent', () => {
		expect(buildMeRequest({ ...base, transport: 'header', userAgent: true })).toEqual({
			method: 'GET',
			url: 'https://accounts.example.com/api/v3/me.json',
			headers: [
				{ name: 'User-Agent', value: USER_AGENT },
				{ name: 'Accept', value: 'application/json' },
				{ name: 'Authorization', value: 'Bearer tok en' }
			],
			body: null
		});
	});

	it('query: the token in access_token, no Authorization header', () => {
		const request = buildMeRequest({ ...base, transport: 'query', userAgent: true });
		expect(query(request.url)).toEqual([['access_token', 'tok en']]);
		expect(header(request, 'Authorization')).toBeUndefined();
	});

	it('no User-Agent when asked; no token at all when none is given', () => {
		const request = buildMeRequest({ accountsUrl: base.accountsUrl, transport: 'header', userAgent: false });
		expect(request.headers).toEqual([{ name: 'Accept', value: 'application/json' }]);
		expect(request.url).toBe('https://accounts.example.com/api/v3/me.json');
	});
});
