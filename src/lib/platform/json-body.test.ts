import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExplorerError } from './errors';
import { readJsonBody } from './json-body';

const request = (body: string) => new Request('http://localhost/api', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const Schema = z.object({ start_url: z.string() });

async function refusal(body: string): Promise<ExplorerError> {
	const error = await readJsonBody(request(body), Schema, '{"start_url": "http://localhost:4000/login"}').then(
		() => null,
		(e: unknown) => e
	);
	expect(error).toBeInstanceOf(ExplorerError);
	return error as ExplorerError;
}

describe('readJsonBody', () => {
	it('gives the parsed body', async () => {
		expect(await readJsonBody(request('{"start_url":"http://app"}'), Schema, '{}')).toEqual({ start_url: 'http://app' });
	});

	it('refuses a body that is not JSON with a 400 that shows what to send', async () => {
		const error = await refusal('start_url=http://app');
		expect(error.status).toBe(400);
		expect(error.message).toBe('The request body must be JSON, e.g. {"start_url": "http://localhost:4000/login"}.');
	});

	it('refuses JSON nested deeper than any request, before parsing it', async () => {
		const error = await refusal(`{"start_url": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
		expect(error.status).toBe(400);
		expect(error.message).toBe('The request body must be JSON, e.g. {"start_url": "http://localhost:4000/login"}. It nests arrays or objects more than 256 levels deep.');
	});

	it("refuses JSON the schema does not take, naming each field that is wrong", async () => {
		const error = await refusal('{"start_url": 4}');
		expect(error.status).toBe(400);
		expect(error.message).toMatch(/^start_url: /);
	});
});
