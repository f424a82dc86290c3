import { describe, expect, it } from 'vitest';
import { correlationValues, requestNames } from './correlation';

const request = (url: string, options: { body?: string; headers?: [string, string][] } = {}) => ({
	url,
	headers: (options.headers ?? []).map(([name, value]) => ({ name, value })),
	body: options.body ?? null
});
const response = (options: { location?: string; body?: string }) => ({
	headers: options.location === undefined ? [] : [{ name: 'Location', value: options.location }],
	body: options.body ?? ''
});

describe('correlationValues', () => {
	it('reads the link\'s client and the sign-in flow it starts, and a page\'s flow from its path', () => {
		expect(correlationValues(request('http://a.test/sso/student?client_id=app&response_type=code'), response({ location: '/flow/F1' }))).toEqual({ clientId: 'app', authFlow: 'F1', issued: [] });
		expect(correlationValues(request('/flow/F1/consent'), response({ location: 'http://app.test/cb?x=1&code=C1' }))).toEqual({ authFlow: 'F1', code: 'C1', issued: [] });
	});

	it('reads a token request\'s client (form, JSON or Basic credentials), its code or refresh token, and the tokens issued', () => {
		const issued = response({ body: '{"access_token":"A1","refresh_token":"R1"}' });
		expect(correlationValues(request('http://b.test/oauth/token', { body: 'grant_type=authorization_code&client_id=app&code=C1' }), issued)).toEqual({ clientId: 'app', code: 'C1', issued: ['A1', 'R1'] });
		expect(correlationValues(request('http://b.test/oauth/token', { body: '{"code":"C2","client_id":"json-app"}' }), null)).toMatchObject({ clientId: 'json-app', code: 'C2', issued: [] });
		expect(correlationValues(request('http://b.test/oauth/token?grant_type=refresh_token&refresh_token=R1', { headers: [['Authorization', `Basic ${btoa('basic-app:secret')}`]] }), null)).toMatchObject({ clientId: 'basic-app', presented: 'R1' });
	});

	it('reads the token me.json presented, in the header or the query', () => {
		expect(correlationValues(request('http://b.test/api/v3/me.json', { headers: [['authorization', 'Bearer A1']] }), null)).toEqual({ presented: 'A1', issued: [] });
		expect(correlationValues(request('http://b.test/api/v3/me.json?access_token=A2'), null)).toEqual({ presented: 'A2', issued: [] });
	});
});

describe('requestNames', () => {
	it('reads the same names from parameters already parsed as correlationValues reads from the request as sent', () => {
		const params = new Map([['client_id', 'app'], ['code', 'C1'], ['refresh_token', 'R1']]);
		expect(requestNames('token', (name) => params.get(name), `Basic ${btoa('basic-app:secret')}`)).toEqual({ clientId: 'basic-app', code: 'C1', presented: 'R1' });
		expect(requestNames('me', (name) => params.get(name), 'Bearer A1')).toEqual({ presented: 'A1' });
		expect(requestNames('other', (name) => params.get(name), '')).toEqual({ clientId: 'app' });
	});
});
