import { describe, expect, it } from 'vitest';
import { SECRET_PARAMETERS, isSecretParameter, secretHeader, showing } from './secrets';

describe('the secrets vocabulary', () => {
	it('hides the client secret and passwords whole everywhere', () => {
		for (const name of ['client_secret', 'password']) {
			expect([showing(name, 'log'), showing(name, 'view'), showing(name, 'run')]).toEqual(['hidden', 'hidden', 'hidden']);
		}
	});
	it('keeps a tail of tokens in the log and the view, and hides them whole in a saved run', () => {
		for (const name of ['access_token', 'refresh_token']) {
			expect([showing(name, 'log'), showing(name, 'view'), showing(name, 'run')]).toEqual(['tail', 'tail', 'hidden']);
		}
	});
	it('keeps grant codes for a diagnosis but for the log, which keeps their tail', () => {
		expect([showing('code', 'log'), showing('code', 'view'), showing('code', 'run')]).toEqual(['tail', 'kept', 'kept']);
	});
	it('knows parameters by their exact name only, and shows every other one', () => {
		expect(SECRET_PARAMETERS.every(isSecretParameter)).toBe(true);
		for (const name of ['Client_Secret', 'client_id', 'toString', '__proto__', 'constructor', '']) {
			expect(isSecretParameter(name)).toBe(false);
			expect(showing(name, 'run')).toBe('kept');
		}
	});
	it('names the headers that carry credentials, in any case', () => {
		expect(secretHeader('Authorization')).toBe('authorization');
		expect(secretHeader('proxy-authorization')).toBe('authorization');
		expect(secretHeader('COOKIE')).toBe('cookie');
		expect(secretHeader('Set-Cookie')).toBe('set-cookie');
		for (const name of ['Location', 'Content-Type', 'toString', '__proto__']) expect(secretHeader(name)).toBeUndefined();
	});
});
