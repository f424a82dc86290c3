/**
 * The app check's browser: Debian's Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH) through playwright-core,
 * headless. Never a browser Playwright downloads: the same one the browser tests use.
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Chromium is not installed where the check looks: the message says how to install it. */
export class ChromiumMissingError extends Error {
	constructor(readonly path: string) {
		super(`The app check needs Chromium, and there is none at ${path}: install it: apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary).`);
	}
}

export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
	return env['CHROMIUM_PATH']?.trim() || DEFAULT_CHROMIUM;
}

export async function launchChromium(options: { path?: string } = {}): Promise<Browser> {
	const path = options.path ?? chromiumPath();
	try {
		accessSync(path, constants.X_OK);
	} catch {
		throw new ChromiumMissingError(path);
	}
	return chromium.launch({ executablePath: path, headless: true, args: ARGS });
}
