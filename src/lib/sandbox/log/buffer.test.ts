import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type Database from 'better-sqlite3';
import { openDatabase } from '../store/schema';
import { openLogBuffer, type LogBuffer } from './buffer';
import { exchangeRef } from './test-entries';

describe('the request log buffer', () => {
	let db: Database.Database;
	let buffer: LogBuffer;
	let built: string[];

	beforeEach(() => {
		vi.useFakeTimers();
		db = openDatabase(':memory:');
		buffer = openLogBuffer(db);
		built = [];
	});
	afterEach(() => {
		db.close();
		vi.useRealTimers();
	});

	function logMany(workspace: string, count: number, prefix = workspace): void {
		for (let i = 0; i < count; i++) {
			const ref = `${prefix}-${i}`;
			buffer.log(workspace, {
				host: 'accounts',
				entry: {
					build: () => {
						built.push(ref);
						return exchangeRef(ref);
					}
				}
			});
		}
	}
	const written = (workspace?: string) =>
		(workspace === undefined
			? db.prepare('SELECT count(*) AS n FROM request_log').get()
			: db.prepare('SELECT count(*) AS n FROM request_log WHERE workspace = ?').get(workspace)) as { n: number };

	it('writes nothing while requests keep coming, then writes a slice per turn of the event loop', () => {
		logMany('a', 60);
		vi.advanceTimersByTime(199);
		expect(written().n).toBe(0);
		vi.advanceTimersByTime(1); // idle for 200 ms: the write starts, on the next turn
		expect(written().n).toBe(0);
		vi.advanceTimersToNextTimer();
		expect(written().n).toBe(25);
		expect(built).toHaveLength(25);
		vi.advanceTimersToNextTimer();
		expect(written().n).toBe(50);
		vi.advanceTimersToNextTimer();
		expect(written().n).toBe(60);
		expect(built).toEqual(Array.from({ length: 60 }, (_, i) => `a-${i}`));
	});

	it('a reader of the log gets every entry, in order, when a sliced write is under way', () => {
		logMany('a', 40);
		vi.advanceTimersByTime(200);
		vi.advanceTimersToNextTimer();
		expect(written().n).toBe(25);
		logMany('a', 3, 'later');
		const refs = buffer.recent('a', 100).map((row) => row.entry.ref);
		expect(refs).toEqual([...['later-2', 'later-1', 'later-0'], ...Array.from({ length: 40 }, (_, i) => `a-${39 - i}`)]);
		vi.runAllTimers();
		expect(written().n).toBe(43);
	});

	it("a workspace's waiting entries are dropped, written or not, when it is cleared mid-write, and the others' stay", () => {
		logMany('a', 30);
		logMany('b', 30);
		vi.advanceTimersByTime(200);
		vi.advanceTimersToNextTimer();
		expect(written('a').n).toBe(25);
		buffer.discardWaiting('a');
		buffer.discardWaiting('b');
		logMany('c', 2);
		buffer.flush();
		expect(written('a').n).toBe(25);
		expect(written('b').n).toBe(0);
		expect(written('c').n).toBe(2);
	});

	it('keeps the newest entries of a burst only, building none of the others', () => {
		logMany('a', 1200);
		buffer.flush();
		expect(written().n).toBe(500);
		expect(built).toHaveLength(500);
		expect(built[0]).toBe('a-700');
	});
});
