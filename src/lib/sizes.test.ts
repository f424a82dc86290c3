/**
 * The house's size rules: no source file over 400 lines unless it is data, and no folder holding more than 20
 * source files of its own (its subfolders' files are theirs). Tests are not counted: a test file is as long as the
 * behaviours it holds. `npm run check` runs this test beside the layers test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;
const MAX_FILES_PER_FOLDER = 20;
/** Data, not code, which may be longer: the interface's error tables, the scenario library. */
const DATA = new Set(['src/lib/protocol/errors.ts', 'src/lib/features/scenarios/pure/library.ts']);

const isSource = (name: string) => /\.(ts|js|svelte)$/.test(name) && !/\.test\.ts$/.test(name);

/** Each folder under `dir` with its own source files, as paths from the project's root. */
function folders(root: string, dir: string): { folder: string; files: string[] }[] {
	const entries = readdirSync(join(root, dir), { withFileTypes: true });
	const files = entries.filter((e) => e.isFile() && isSource(e.name)).map((e) => join(dir, e.name));
	return [{ folder: dir, files }, ...entries.filter((e) => e.isDirectory()).flatMap((e) => folders(root, join(dir, e.name)))];
}

/** The files over MAX_LINES lines that are not data, as `path: n lines`. */
function tooLong(files: { path: string; lines: number }[]): string[] {
	return files.filter((f) => f.lines > MAX_LINES && !DATA.has(f.path)).map((f) => `${f.path}: ${f.lines} lines`);
}

/** The folders with more than MAX_FILES_PER_FOLDER source files of their own, as `folder: n files`. */
function crowded(found: { folder: string; files: string[] }[]): string[] {
	return found.filter((f) => f.files.length > MAX_FILES_PER_FOLDER).map((f) => `${f.folder}: ${f.files.length} files`);
}

describe('sizes', () => {
	const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
	const found = folders(root, 'src');
	const lines = (path: string) => readFileSync(join(root, path), 'utf8').split('\n').length - 1;

	it(`no source file is over ${MAX_LINES} lines unless it is data`, () => {
		expect(tooLong(found.flatMap((f) => f.files).map((path) => ({ path, lines: lines(path) })))).toEqual([]);
	});

	it(`no folder holds more than ${MAX_FILES_PER_FOLDER} source files of its own`, () => {
		expect(crowded(found)).toEqual([]);
	});

	it('names what breaks a rule, and lets data be long', () => {
		expect(tooLong([{ path: 'src/lib/a.ts', lines: 401 }, { path: 'src/lib/b.ts', lines: 400 }, { path: 'src/lib/features/scenarios/pure/library.ts', lines: 900 }])).toEqual(['src/lib/a.ts: 401 lines']);
		const many = Array.from({ length: 21 }, (_, i) => `src/lib/x/f${i}.ts`);
		expect(crowded([{ folder: 'src/lib/x', files: many }, { folder: 'src/lib/y', files: many.slice(1) }])).toEqual(['src/lib/x: 21 files']);
	});
});
