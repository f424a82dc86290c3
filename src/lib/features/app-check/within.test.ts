import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { within } from './within';

describe('within', () => {
	it('is true when the event comes first, false at the time limit, and rejects when the run stops', async () => {
		expect(await within(Promise.resolve(), 5_000, new AbortController().signal)).toBe(true);
		expect(await within(new Promise(() => {}), 10, new AbortController().signal)).toBe(false);
		const stop = new AbortController();
		const waiting = within(new Promise(() => {}), 5_000, stop.signal);
		stop.abort(new Error('stopped'));
		await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('leaves no listener on the stop signal once settled, however many waits it served', async () => {
		const stop = new AbortController();
		for (let i = 0; i < 20; i++) await within(Promise.resolve(), 15_000, stop.signal);
		expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
	});
});
