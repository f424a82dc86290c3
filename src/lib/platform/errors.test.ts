import { error } from '@sveltejs/kit';
import type { RequestEvent } from '@sveltejs/kit';
import { describe, expect, it } from 'vitest';
import { apiRoute, notFound, sandboxOff } from './errors';

const event = {} as RequestEvent;
const answer = async (handler: () => Response) => {
	const response = await apiRoute(handler)(event);
	return { status: response.status, body: (await response.json()) as unknown };
};

describe('apiRoute', () => {
	it('answers an ExplorerError with its status and the body {error, message}', async () => {
		expect(await answer(() => { throw notFound('No run r-1.'); })).toEqual({ status: 404, body: { error: 'not-found', message: 'No run r-1.' } });
		expect(await answer(() => { throw sandboxOff('the lesson needs it.'); })).toEqual({
			status: 404,
			body: { error: 'sandbox-off', message: 'The built-in sandbox is turned off on this server (SANDBOX=off): the lesson needs it.' }
		});
	});

	it("answers SvelteKit's error() thrown inside a route with the same two keys", async () => {
		expect(await answer(() => error(400, 'The body must be JSON.'))).toEqual({ status: 400, body: { error: 'bad-request', message: 'The body must be JSON.' } });
		expect(await answer(() => error(429, { message: 'Slow down.' }))).toEqual({ status: 429, body: { error: 'too-many-requests', message: 'Slow down.' } });
	});

	it('lets a fault through as a fault (a 5xx from error(), anything else thrown)', async () => {
		await expect(apiRoute(() => error(500, 'broken'))(event)).rejects.toMatchObject({ status: 500 });
		await expect(apiRoute(() => { throw new TypeError('bug'); })(event)).rejects.toThrow(TypeError);
	});
});
