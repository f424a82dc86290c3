/**
 * The app check's browser: the Chromium the browser tests use (src/lib/chromium.ts: CHROMIUM_PATH, the PATH,
 * Playwright's own), through playwright-core, headless.
 */
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '$lib/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function launchChromium(): Promise<Browser> {
	const found = findChromium();
	if (!found.ok) throw new Error(`The app check needs Chromium. ${found.message}`); // says what to install or set
	return chromium.launch({ executablePath: found.path, headless: true, args: ARGS });
}
