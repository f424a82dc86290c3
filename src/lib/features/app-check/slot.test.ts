import { describe, expect, it } from 'vitest';
import { CheckSlot } from './slot';

function clock(start = Date.parse('2026-01-01T10:00:00Z')) {
	const time = { now: start };
	return { time, now: () => time.now };
}

describe('the app check\'s one slot', () => {
	it('refuses others while held, saying when it frees at the latest (the run\'s time limit)', () => {
		const { time, now } = clock();
		const slot = new CheckSlot(180_000, 30_000, now);
		const a = slot.claim('a');
		expect(a.ok).toBe(true);
		time.now += 60_000;
		expect(slot.claim('b')).toEqual({
			ok: false,
			retryAfterSeconds: 120,
			message: 'An app check is already running on this server; it ends by 2026-01-01T10:03:00.000Z at the latest (in 120 s); try again then. The slot is then kept for you for 30 s.'
		});
		expect(slot.claim('a')).toMatchObject({ ok: false, message: expect.stringMatching(/^Your app check is still running on this server; it ends by 2026-01-01T10:03:00\.000Z/) });
	});

	it('goes first to those refused while it was held: the caller who held it cannot take it straight back', () => {
		const { time, now } = clock();
		const slot = new CheckSlot(180_000, 30_000, now);
		const a = slot.claim('a');
		expect(slot.claim('b').ok).toBe(false);
		if (a.ok) a.release();
		time.now += 1_000;
		expect(slot.claim('a')).toMatchObject({ ok: false, retryAfterSeconds: 29, message: expect.stringMatching(/^Others who were waiting for the app check go first/) });
		expect(slot.claim('c').ok).toBe(false);
		const b = slot.claim('b');
		expect(b.ok).toBe(true);
		if (b.ok) b.release();
		// Nobody was refused during b's run: anyone may take it.
		expect(slot.claim('a').ok).toBe(true);
	});

	it('frees a kept turn nobody took once its time is up; a release twice is one', () => {
		const { time, now } = clock();
		const slot = new CheckSlot(180_000, 30_000, now);
		const a = slot.claim('a');
		slot.claim('b');
		if (a.ok) {
			a.release();
			const c = slot.claim('c');
			expect(c.ok).toBe(false);
			a.release();
		}
		time.now += 30_000;
		const c = slot.claim('c');
		expect(c.ok).toBe(true);
		expect(slot.claim('b').ok).toBe(false);
	});
});
