import { describe, expect, it } from 'vitest';
import { CheckSlot, MAX_WAITING_PER_VISITOR } from './slot';

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

	it('keeps a place for at most a few callers of one visitor: a hundred sessions from one address cannot lock others out', () => {
		const { now } = clock();
		const slot = new CheckSlot(180_000, 30_000, now);
		const held = slot.claim('attacker-0', 'attacker');
		for (let i = 1; i <= 100; i++) slot.claim(`attacker-${i}`, 'attacker');
		// The victim, from elsewhere, still gets a place in the queue.
		expect(slot.claim('victim', 'victim-address')).toMatchObject({ ok: false, message: expect.stringContaining('kept for you') });
		if (held.ok) held.release();
		expect(slot.claim('victim', 'victim-address').ok).toBe(true);
		// Only the first few of the attacker's sessions had been kept a place.
		expect(slot.claim(`attacker-${MAX_WAITING_PER_VISITOR + 1}`, 'attacker')).toMatchObject({ ok: false, message: expect.not.stringContaining('kept for you') });
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
