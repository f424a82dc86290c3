import { describe, expect, it } from 'vitest';
import { jsonBodyFields, requestClientId, requestParam, sentParam } from './request-params';
import { exchange } from './test-helpers';

const token = (body: string, type?: string) =>
	exchange('token', { method: 'POST', url: 'https://accounts.example.com/oauth/token', body, headers: type ? { 'Content-Type': type } : {} }).request;

describe('jsonBodyFields', () => {
	it("reads a JSON object body's string fields, told by its content type or its shape", () => {
		expect(jsonBodyFields(token('{"code":"abc","client_id":"shop","n":1}', 'application/json; charset=utf-8'))).toEqual({ code: 'abc', client_id: 'shop' });
		expect(jsonBodyFields(token('{"code":"abc"}'))).toEqual({ code: 'abc' });
	});

	it('is null for a form body, an array, and a body that does not parse', () => {
		expect(jsonBodyFields(token('code=abc&client_id=shop', 'application/x-www-form-urlencoded'))).toBeNull();
		expect(jsonBodyFields(token('["code"]', 'application/json'))).toBeNull();
		expect(jsonBodyFields(token('{"code":', 'application/json'))).toBeNull();
	});
});

describe('sentParam and requestClientId', () => {
	it("find what a JSON body carried, which requestParam (what the endpoint reads) does not", () => {
		const json = token('{"code":"abc","client_id":"shop"}', 'application/json');
		expect(requestParam(json, 'code')).toBeUndefined();
		expect(sentParam(json, 'code')).toBe('abc');
		expect(requestClientId(json)).toBe('shop');
	});
});
