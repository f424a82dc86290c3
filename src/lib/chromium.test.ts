import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CHROMIUM, findChromium } from './chromium';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'chromium-lookup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An executable file at dir/sub/name (or a plain one when `executable` is false). */
function fakeBinary(sub: string, name: string, executable = true): string {
	mkdirSync(join(dir, sub), { recursive: true });
	const path = join(dir, sub, name);
	writeFileSync(path, '#!/bin/sh\n');
	chmodSync(path, executable ? 0o755 : 0o644);
	return path;
}

const noPlaywright = () => null;

describe('findChromium', () => {
	it('takes CHROMIUM_PATH before anything on the PATH', () => {
		const chosen = fakeBinary('custom', 'my-chrome');
		fakeBinary('bin', 'chromium');
		expect(findChromium({ CHROMIUM_PATH: chosen, PATH: join(dir, 'bin') }, noPlaywright)).toEqual({ ok: true, path: chosen });
	});

	it('says so when CHROMIUM_PATH is not an executable file, rather than driving another browser', () => {
		const chosen = fakeBinary('custom', 'not-executable', false);
		fakeBinary('bin', 'chromium');
		const found = findChromium({ CHROMIUM_PATH: chosen, PATH: join(dir, 'bin') }, noPlaywright);
		expect(found).toEqual({ ok: false, message: expect.stringContaining(`CHROMIUM_PATH is ${chosen}, which is not an executable file`) });
	});

	it('prefers chromium, then chromium-browser, then google-chrome, wherever each is on the PATH', () => {
		fakeBinary('a', 'google-chrome');
		fakeBinary('b', 'chromium-browser');
		const path = [join(dir, 'a'), join(dir, 'b')].join(delimiter);
		expect(findChromium({ PATH: path }, noPlaywright)).toEqual({ ok: true, path: join(dir, 'b', 'chromium-browser') });
		fakeBinary('c', 'chromium');
		expect(findChromium({ PATH: `${path}${delimiter}${join(dir, 'c')}` }, noPlaywright)).toEqual({ ok: true, path: join(dir, 'c', 'chromium') });
	});

	it('skips a name on the PATH that is not executable', () => {
		fakeBinary('a', 'chromium', false);
		fakeBinary('b', 'google-chrome');
		expect(findChromium({ PATH: [join(dir, 'a'), join(dir, 'b')].join(delimiter) }, noPlaywright)).toEqual({ ok: true, path: join(dir, 'b', 'google-chrome') });
	});

	it("falls back to the browser Playwright installed, when it is there", () => {
		const installed = fakeBinary('ms-playwright', 'chrome');
		expect(findChromium({ PATH: join(dir, 'empty') }, () => installed)).toEqual({ ok: true, path: installed });
		expect(findChromium({ PATH: join(dir, 'empty') }, () => join(dir, 'ms-playwright', 'missing'))).toEqual({ ok: false, message: NO_CHROMIUM });
	});

	it('with none, says in one line what to run', () => {
		const found = findChromium({ PATH: '' }, noPlaywright);
		expect(found).toEqual({ ok: false, message: NO_CHROMIUM });
		expect(NO_CHROMIUM).not.toContain('\n');
		expect(NO_CHROMIUM).toContain('npx playwright install chromium');
	});
});

describe('npm test on a machine without a browser', () => {
	it('stops before the browser tests with the one line, and installs nothing it may not', () => {
		// No Chromium on the PATH (nor apt-get: nothing may be installed), none chosen, and Playwright's browsers in an
		// empty folder: what a fresh machine with only Node looks like to the pre-test check.
		const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-chromium.ts'], {
			env: { PATH: join(dir, 'empty'), HOME: dir, PLAYWRIGHT_BROWSERS_PATH: join(dir, 'browsers') },
			encoding: 'utf8',
			timeout: 50_000
		});
		expect(result.stderr.trim()).toBe(NO_CHROMIUM);
		expect(result.stdout).toBe('');
		expect(result.status).toBe(1);
	}, 60_000);

	it('passes where a Chromium is found, naming it', () => {
		const chosen = fakeBinary('custom', 'chromium');
		const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-chromium.ts'], {
			env: { PATH: join(dir, 'empty'), HOME: dir, CHROMIUM_PATH: chosen },
			encoding: 'utf8',
			timeout: 50_000
		});
		expect(result.stdout.trim()).toBe(`Chromium for the browser tests: ${chosen}`);
		expect(result.status).toBe(0);
	}, 60_000);
});
