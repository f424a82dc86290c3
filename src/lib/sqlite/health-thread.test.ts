import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseHealth } from './health-thread';
import { openCheckedDatabase } from './open-checked';
import { scrambleMiddlePage, writeDatabase } from './testing';

const OPTIONS = { what: 'The test database', freshStart: 'with nothing in it' };
let dir: string;
let path: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'health-thread-'));
	path = join(dir, 'data.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('databaseHealth', () => {
	it('reports a database damaged while in use, naming it, and a sound one as ok', async () => {
		writeDatabase(path);
		const db = openCheckedDatabase(path, OPTIONS);
		const databases = [{ path, what: 'test data' }];
		expect(await databaseHealth(databases, 0)).toEqual({ ok: true, problems: [] });
		scrambleMiddlePage(path);
		// The answer is reused for a while, then the file is checked again.
		expect((await databaseHealth(databases, 1000)).ok).toBe(true);
		const health = await databaseHealth(databases, 60_000);
		expect(health.ok).toBe(false);
		expect(health.problems).toEqual([{ database: 'data.db', what: 'test data', reason: expect.any(String) }]);
		db.close();
	});
});
