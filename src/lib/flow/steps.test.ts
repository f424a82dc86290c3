import { describe, expect, it } from 'vitest';
import { flowStepOf, stepOfRequest } from './steps';

const AUTH = 'http://auth.test';
const API = 'http://api.test';
const LINK = `${AUTH}/sso/student?response_type=code&client_id=app&redirect_uri=${encodeURIComponent('http://app.test/cb')}&country=uk`;
describe('flowStepOf', () => {
	it('names the link, the sandbox pages, the token endpoint and me.json; nothing else', () => {
		expect(flowStepOf('GET', LINK)).toBe('link');
		expect(flowStepOf('POST', `${AUTH}/flow/abc/consent`)).toBe('sign-in');
		expect(flowStepOf('POST', `${API}/oauth/token`)).toBe('token');
		expect(flowStepOf('GET', `${API}/api/v3/me.json`)).toBe('me');
		expect(flowStepOf('OPTIONS', `${API}/oauth/token`)).toBeNull();
		expect(flowStepOf('GET', `${API}/sandbox/state`)).toBeNull();
		expect(flowStepOf('GET', `${AUTH}/health`)).toBeNull();
	});
});

describe('stepOfRequest', () => {
	it('takes a /sso/ GET for the link only when it carries the link\'s parameters, since other sites have /sso/ paths', () => {
		expect(stepOfRequest('GET', LINK)).toBe('link');
		expect(stepOfRequest('GET', `${AUTH}/sso/student`)).toBeNull();
		expect(stepOfRequest('POST', `${API}/oauth/token`)).toBe('token');
		expect(stepOfRequest('OPTIONS', `${API}/oauth/token`)).toBeNull();
		expect(stepOfRequest('POST', `${AUTH}/flow/abc/consent`)).toBeNull();
		expect(stepOfRequest('GET', 'not a url')).toBeNull();
	});
});
