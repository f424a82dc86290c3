/**
 * Which Chromium the browser tests and the app check drive, found the same way for both: CHROMIUM_PATH, then
 * `chromium`, `chromium-browser` or `google-chrome` on the PATH, then a browser Playwright installed (its
 * registry's path for this playwright-core). None: a one-line message saying what to run.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

export const NO_CHROMIUM =
	"No Chromium found (CHROMIUM_PATH; chromium, chromium-browser or google-chrome on the PATH; Playwright's browsers): run `npx playwright install chromium` (on Debian as root: `apt-get install -y chromium`), or set CHROMIUM_PATH to a Chromium binary.";

export type ChromiumLookup = { ok: true; path: string } | { ok: false; message: string };

function isExecutableFile(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** Where playwright-core's registry puts its Chromium (PLAYWRIGHT_BROWSERS_PATH or the user's cache), installed or not. */
function playwrightChromium(): string | null {
	try {
		return chromium.executablePath();
	} catch {
		return null; // a platform Playwright has no build for
	}
}

/** The first of `names` found as an executable file on the PATH, in the order of `names`. */
export function findOnPath(names: readonly string[], env: Record<string, string | undefined> = process.env): string | null {
	const dirs = (env['PATH'] ?? '').split(delimiter).filter((dir) => dir !== '');
	for (const name of names) {
		for (const dir of dirs) {
			if (isExecutableFile(join(dir, name))) return join(dir, name);
		}
	}
	return null;
}

export function findChromium(env: Record<string, string | undefined> = process.env, playwrightPath: () => string | null = playwrightChromium): ChromiumLookup {
	const chosen = env['CHROMIUM_PATH']?.trim();
	if (chosen) {
		// A path the user chose is never silently replaced by another browser.
		if (isExecutableFile(chosen)) return { ok: true, path: chosen };
		return { ok: false, message: `CHROMIUM_PATH is ${chosen}, which is not an executable file: point it at a Chromium binary, or unset it to look on the PATH.` };
	}
	const onPath = findOnPath(CHROMIUM_NAMES, env);
	if (onPath) return { ok: true, path: onPath };
	const installed = playwrightPath();
	if (installed && isExecutableFile(installed)) return { ok: true, path: installed };
	return { ok: false, message: NO_CHROMIUM };
}

/** The Chromium to launch; throws the lookup's message when there is none. */
export function requireChromium(env: Record<string, string | undefined> = process.env): string {
	const found = findChromium(env);
	if (!found.ok) throw new Error(found.message);
	return found.path;
}
