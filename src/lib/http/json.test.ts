import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, MAX_JSON_DEPTH, jsonParse, nestsDeeperThan, readJson } from './json';

describe('jsonParse', () => {
	it('parses JSON as JSON.parse does, up to MAX_JSON_DEPTH levels of nesting', () => {
		const deepest = `${'['.repeat(MAX_JSON_DEPTH)}1${']'.repeat(MAX_JSON_DEPTH)}`;
		expect(jsonParse(deepest)).toEqual(JSON.parse(deepest));
		expect(jsonParse('{"a":[1,{"b":"["}]}')).toEqual({ a: [1, { b: '[' }] });
	});

	it('refuses deeper nesting before parsing, counting no bracket inside a string', () => {
		expect(() => jsonParse(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toThrow(JsonTooDeepError);
		expect(nestsDeeperThan(`["${'['.repeat(1000)}", "\\"${'{'.repeat(1000)}"]`)).toBe(false);
		expect(nestsDeeperThan(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true);
		expect(readJson('[[[[1]]]]'.replace(/\[/g, '['.repeat(100)).replace(/]/g, ']'.repeat(100)))).toEqual({ ok: false, problem: `It nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.` });
	});
});
