/**
 * A damaged database stops the start, naming the file and what to do, and is left as it was; damage done while
 * the explorer runs turns its /health into a 503 naming the database. Each case starts an explorer of its own on
 * its own data directory.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTRA_EXPLORER_PORTS } from '../security/support/ports';
import { explorerPerTest, spawnExplorer } from '../security/support/servers';

const PORT = EXTRA_EXPLORER_PORTS.damagedDatabase;
const spawned = explorerPerTest('sfe-damaged-');

/** Starts an explorer on a data directory made once by a first run, then damaged by `damage`; answers its exit. */
async function startOnDamaged(damage: (dir: string) => void): Promise<{ code: number | null; output: string }> {
	const first = (spawned.server = spawnExplorer({ port: PORT, dataDir: spawned.dataDir }));
	await first.ready;
	first.process.kill('SIGTERM');
	await first.exited;
	damage(spawned.dataDir);
	const second = (spawned.server = spawnExplorer({ port: PORT, dataDir: spawned.dataDir }));
	second.ready.catch(() => undefined); // it is expected to exit instead
	const code = await Promise.race([second.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 15_000))]);
	expect(code, 'the explorer must not start on a damaged database').not.toBe('running');
	return { code: code as number | null, output: second.output() };
}

function overwrite(path: string, at: number, bytes: Buffer): void {
	const fd = openSync(path, 'r+');
	writeSync(fd, bytes, 0, bytes.length, at);
	closeSync(fd);
}

test("an emptied sandbox.db stops the start, naming the file, instead of fresh fixtures over the user's data", async () => {
	const file = join(spawned.dataDir, 'sandbox.db');
	const { code, output } = await startOnDamaged(() => writeFileSync(file, ''));
	expect(code).not.toBe(0);
	expect(output).toContain(file);
	expect(output).toMatch(/empty \(0 bytes\)/);
	expect(output).toMatch(/restore .* from a backup, or move it aside/i);
	expect(readFileSync(file).length, 'the emptied file is left as it was').toBe(0);
});

test('explorer.db with a bad header stops the start, naming the file', async () => {
	const file = join(spawned.dataDir, 'explorer.db');
	const { code, output } = await startOnDamaged(() => overwrite(file, 0, Buffer.from('not a SQLite database, not at all')));
	expect(code).not.toBe(0);
	expect(output).toContain(file);
	expect(output).toMatch(/cannot be used/);
});

test('a database emptied while the explorer runs makes /health answer 503 naming it', async () => {
	spawned.server = spawnExplorer({ port: PORT, dataDir: spawned.dataDir });
	await spawned.server.ready;
	expect((await fetch(`http://localhost:${PORT}/health`)).status).toBe(200);
	// (Bytes written into the file would not do here: the running explorer's recent pages are in its WAL file.)
	writeFileSync(join(spawned.dataDir, 'explorer.db'), '');
	// /health reuses a check's answer for 10 s.
	let answer: { status: number; body: { ok?: boolean; problems?: { database: string; reason: string }[] } } = { status: 0, body: {} };
	await expect
		.poll(
			async () => {
				const response = await fetch(`http://localhost:${PORT}/health`);
				answer = { status: response.status, body: (await response.json()) as typeof answer.body };
				return answer.status;
			},
			{ timeout: 20_000, intervals: [500] }
		)
		.toBe(503);
	expect(answer.body.ok).toBe(false);
	expect(answer.body.problems?.map((p) => p.database)).toEqual(['explorer.db']);
});
