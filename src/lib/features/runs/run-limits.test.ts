import { afterEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExplorerError } from '$lib/platform/errors';
import { exchange, run } from '$lib/features/runs/pure/test-helpers';
import type { Run } from '$lib/features/runs/pure/run';
import { checkOwnerLimits, checkStoreLimit } from './run-limits';
import { openRunStore } from './store';

const LIMITS = { runsPerOwner: 3, bytesPerOwner: 40_000, runsPerVisitor: 5, bytesPerVisitor: 60_000 };

/** A run whose one exchange's response body is `bodyChars` long: its stored size follows it. */
const sized = (id: string, bodyChars = 100): Run =>
	run({ id, exchanges: [exchange('me', { url: 'https://accounts.example.com/api/v3/me.json' }, { status: 200, body: 'b'.repeat(bodyChars) }, `${id}-x`)] });

function refusal(save: () => unknown): ExplorerError {
	try {
		save();
	} catch (error) {
		if (error instanceof ExplorerError) return error;
		throw error;
	}
	throw new Error('the save was not refused');
}

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dbPath(): string {
	const dir = mkdtempSync(join(tmpdir(), 'run-limits-'));
	dirs.push(dir);
	return join(dir, 'explorer.db');
}

describe('checkOwnerLimits', () => {
	it('lets a save reach a limit, and refuses one that goes past it with what to do', () => {
		expect(() => checkOwnerLimits({ runs: 2, bytes: 0 }, { runs: 3, bytes: 10 }, LIMITS)).not.toThrow();
		const past = refusal(() => checkOwnerLimits({ runs: 3, bytes: 0 }, { runs: 4, bytes: 10 }, LIMITS));
		expect(past).toMatchObject({ status: 409, code: 'quota-exceeded' });
		expect(past.message).toContain('You have 3 saved runs');
		expect(past.message).toContain('Delete runs you no longer need on /runs');
		expect(refusal(() => checkOwnerLimits({ runs: 1, bytes: 39_000 }, { runs: 1, bytes: 41_000 }, LIMITS)).message).toMatch(/would take 41 KB, more than the 40 KB/);
	});

	it('lets a save through that adds nothing, even for an owner already past a limit (the limits were lowered)', () => {
		expect(() => checkOwnerLimits({ runs: 9, bytes: 90_000 }, { runs: 9, bytes: 90_000 }, LIMITS)).not.toThrow();
		expect(() => checkOwnerLimits({ runs: 9, bytes: 90_000 }, { runs: 9, bytes: 80_000 }, LIMITS)).not.toThrow();
	});
});

describe('checkStoreLimit', () => {
	it('refuses once the store has reached its limit, naming the setting', () => {
		expect(() => checkStoreLimit(1023, 1024)).not.toThrow();
		expect(refusal(() => checkStoreLimit(1024, 1024)).message).toContain('SAVED_RUNS_MAX_MB');
	});
});

describe('run store: what one owner may keep', () => {
	it('refuses the owner a run past their count, writing nothing, and keeps other owners saving', () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		for (const id of ['r1', 'r2', 'r3']) store.save(sized(id), {}, 'alice');
		expect(refusal(() => store.save(sized('r4'), {}, 'alice')).code).toBe('quota-exceeded');
		expect(store.get('r4')).toBeUndefined();
		expect(store.usage('alice').runs).toBe(3);
		// Saving one of theirs again still works: it adds no run.
		expect(() => store.save({ ...sized('r1'), title: 'renamed' }, {}, 'alice')).not.toThrow();
		expect(store.get('r1')?.title).toBe('renamed');
		expect(() => store.save(sized('b1'), {}, 'bob')).not.toThrow();
	});

	it('makes room again when the owner deletes a run', () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		for (const id of ['r1', 'r2', 'r3']) store.save(sized(id), {}, 'alice');
		expect(store.remove('r2')).toBe(true);
		expect(store.usage('alice').runs).toBe(2);
		expect(() => store.save(sized('r4'), {}, 'alice')).not.toThrow();
	});

	it('counts what the runs take: a run grown past the owner\'s bytes is refused, and the run as saved before stays', () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		store.save(sized('r1', 1_000), {}, 'alice');
		const small = store.usage('alice').bytes;
		expect(small).toBeGreaterThan(1_000);
		expect(small).toBeLessThan(3_000);
		expect(refusal(() => store.save(sized('r1', 50_000), {}, 'alice')).message).toMatch(/would take \d+ KB, more than the 40 KB/);
		expect(store.get('r1')?.exchanges[0]?.response?.body).toHaveLength(1_000);
		expect(store.usage('alice').bytes).toBe(small);
	});

	it('counts a run against the owner it was first saved by', () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		store.save(sized('r1'), {}, 'alice');
		store.save(sized('r1', 2_000), {}, 'bob');
		expect(store.usage('alice').runs).toBe(1);
		expect(store.usage('alice').bytes).toBeGreaterThan(2_000);
		expect(store.usage('bob')).toEqual({ runs: 0, bytes: 0 });
		expect(store.ownerOf('r1')).toEqual({ owner: 'alice' });
		expect(store.ownerOf('nope')).toBeUndefined();
	});

	it("bounds what one address saves in a day across its sessions: a cookieless visitor (a new owner each save) is refused past it", () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		for (let i = 1; i <= 5; i++) store.save(sized(`v${i}`), {}, `session-${i}`, { visitor: 'addr-1' });
		const refused = refusal(() => store.save(sized('v6'), {}, 'session-6', { visitor: 'addr-1' }));
		expect(refused).toMatchObject({ status: 429, code: 'too-many-requests' });
		expect(refused.message).toContain('Your address has saved 5 runs in the last 24 hours, across all its sessions; one address may save at most 5 runs a day');
		expect(store.get('v6')).toBeUndefined();
		// Another address, and this machine's saves (no visitor), are not held back by it.
		expect(() => store.save(sized('w1'), {}, 'session-7', { visitor: 'addr-2' })).not.toThrow();
		expect(() => store.save(sized('m1'), {}, 'session-8')).not.toThrow();
		// A run saved again counts against the address that first saved it (it adds no run), and a deletion makes room.
		expect(() => store.save({ ...sized('v1'), title: 'again' }, {}, 'session-1', { visitor: 'addr-2' })).not.toThrow();
		expect(store.remove('v2')).toBe(true);
		expect(() => store.save(sized('v6'), {}, 'session-6', { visitor: 'addr-1' })).not.toThrow();
	});

	it("refuses a visitor's runs past their bytes, however many sessions they came from", () => {
		const store = openRunStore(':memory:', { perOwner: LIMITS });
		store.save(sized('a', 30_000), {}, 's1', { visitor: 'addr-1' });
		expect(refusal(() => store.save(sized('b', 35_000), {}, 's2', { visitor: 'addr-1' })).message).toMatch(/Your address has saved \d+ KB of runs in the last 24 hours.*at most \d+ KB a day/);
	});

	it('counts a visitor over a sliding day: saves a day old no longer count, so an address is never locked out for good', () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			vi.setSystemTime(new Date('2026-01-01T09:00:00Z'));
			const store = openRunStore(':memory:', { perOwner: LIMITS });
			for (let i = 1; i <= 5; i++) store.save(sized(`d${i}`), {}, `s${i}`, { visitor: 'addr-1' });
			expect(refusal(() => store.save(sized('d6'), {}, 's6', { visitor: 'addr-1' })).code).toBe('too-many-requests');
			expect(store.visitorUsage('addr-1').runs).toBe(5);
			expect(store.visitorUsage('addr-2')).toEqual({ runs: 0, bytes: 0 });
			vi.setSystemTime(new Date('2026-01-02T09:00:01Z'));
			// What /runs shows the address: its day's saves, across its sessions.
			expect(store.visitorUsage('addr-1')).toEqual({ runs: 0, bytes: 0 });
			expect(() => store.save(sized('d6', 30_000), {}, 's6', { visitor: 'addr-1' })).not.toThrow();
			expect(store.visitorUsage('addr-1').runs).toBe(1);
			expect(store.visitorUsage('addr-1').bytes).toBeGreaterThan(30_000);
			// An old run growing now counts against no visitor's day (with it, this day would hold over 60 KB).
			expect(() => store.save(sized('d1', 35_000), {}, 's1', { visitor: 'addr-1' })).not.toThrow();
			expect(refusal(() => store.save(sized('d7', 35_000), {}, 's7', { visitor: 'addr-1' })).code).toBe('too-many-requests');
		} finally {
			vi.useRealTimers();
		}
	});

	it('knows the usage of a store opened afresh, from the table', () => {
		const path = dbPath();
		const first = openRunStore(path, { perOwner: LIMITS });
		for (const id of ['r1', 'r2', 'r3']) first.save(sized(id), {}, 'alice');
		const usage = first.usage('alice');
		first.close();
		const again = openRunStore(path, { perOwner: LIMITS });
		expect(again.usage('alice')).toEqual(usage);
		expect(refusal(() => again.save(sized('r4'), {}, 'alice')).code).toBe('quota-exceeded');
		again.close();
	});

	it('counts the visitors of a version 5 database from its next saves: its runs count against no visitor', () => {
		const path = dbPath();
		const before = openRunStore(path, { perOwner: LIMITS });
		for (const id of ['r1', 'r2', 'r3', 'r4', 'r5']) before.save(sized(id), {}, `s-${id}`, { visitor: 'addr-1' });
		before.close();
		const db = new Database(path);
		db.exec('DROP INDEX runs_visitor; ALTER TABLE runs DROP COLUMN visitor; ALTER TABLE runs DROP COLUMN visitor_ms;');
		db.pragma('user_version = 5');
		db.close();
		const store = openRunStore(path, { perOwner: LIMITS });
		expect(store.get('r1')).toBeDefined();
		expect(() => store.save(sized('r6'), {}, 's-r6', { visitor: 'addr-1' })).not.toThrow();
		store.close();
	});

	it('measures the runs of a version 4 database once, when it is opened (store.test.ts makes older ones)', () => {
		const path = dbPath();
		const before = openRunStore(path);
		before.save(sized('r1', 5_000), {}, 'alice');
		const usage = before.usage('alice');
		before.close();
		const db = new Database(path);
		db.exec('DROP INDEX runs_visitor; ALTER TABLE runs DROP COLUMN visitor; ALTER TABLE runs DROP COLUMN visitor_ms; ALTER TABLE runs DROP COLUMN stored_bytes; ALTER TABLE run_exchanges DROP COLUMN bytes;');
		db.pragma('user_version = 4');
		db.close();
		const store = openRunStore(path);
		expect(store.usage('alice')).toEqual(usage);
		store.close();
	});
});

describe('run store: what the whole store may take', () => {
	it('refuses every save once the database holds SAVED_RUNS_MAX_MB, and saves again once runs are deleted', () => {
		const path = dbPath();
		// 1 MB: a few runs of 400 KB fill it.
		const store = openRunStore(path, { maxMb: 1 });
		const saved: string[] = [];
		let refused: ExplorerError | null = null;
		for (let i = 0; i < 10 && !refused; i++) {
			try {
				store.save(sized(`r${i}`, 400_000), {}, `owner-${i}`);
				saved.push(`r${i}`);
			} catch (error) {
				if (!(error instanceof ExplorerError)) throw error;
				refused = error;
			}
		}
		expect(refused?.message).toContain('SAVED_RUNS_MAX_MB');
		expect(saved.length).toBeGreaterThan(0);
		expect(saved.length).toBeLessThan(10);
		for (const id of saved) store.remove(id);
		expect(() => store.save(sized('after', 1_000), {}, 'someone')).not.toThrow();
		store.close();
	});
});
