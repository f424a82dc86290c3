/**
 * Records real browser HARs of a sign-in through the passport test app (tests/apps/passport-app) against the
 * sandbox, the way a customer's browser would save them: Chromium, the page's whole traffic, content embedded.
 * `sanitise` does what Chrome's default "sanitized" HAR export (since Chrome 130) does to such a file.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { Har } from '../../src/lib/features/runs/pure/har/har-schema';
import type { PassportAppVariant } from '../apps/passport-app';
import { SIGN_IN, startAppOnSandbox, type AppKnobs } from '../apps/sandbox-client';
import { AUTH_HOST, decideOnSandbox, type Decision } from './walk';

/**
 * - `good`: sign in, consent, land back on the app.
 * - `reload`: good, then open the callback URL again: the same code arrives twice.
 * - `redirect-next`: good with the `redirectNext` knob (the link's callback carries `?next=/home`).
 * - `cancel-loop`: cancel on the consent page.
 * - `state`: good with the `state` knob (passport's state: true).
 * Each ends when the browser lands on the app, or arrives at the authorisation link a second time (a loop).
 */
export type Journey = 'good' | 'reload' | 'redirect-next' | 'cancel-loop' | 'state';

export interface RecordSignInOptions {
	variant: PassportAppVariant;
	journey: Journey;
	/** More knobs for the app (the journey sets its own: redirect-next sets redirectNext, state sets state). */
	knobs?: Partial<Omit<AppKnobs, 'variant' | 'port'>>;
	/** Who signs in: a fixture user of the workspace (default SIGN_IN's student). */
	login?: string;
	/** The key of me.json's verification elements for the app's client (default `supergroup`). */
	verificationKey?: 'supergroup' | 'group';
	/** Where to write the HAR; a new temporary directory's sign-in.har by default. */
	harPath?: string;
}

export interface RecordedSignIn {
	harPath: string;
	/** The page the browser ended on, its status (null if none was answered) and its text. */
	finalUrl: string;
	finalStatus: number | null;
	finalText: string;
	/** Every URL the browser loaded on the authorisation link (`{auth host}/sso/...`), in order. */
	linkArrivals: string[];
	/** Every URL the browser loaded on the app's callback, in order (with its `code` when there was one). */
	callbackArrivals: string[];
	/** The app's origin in this recording. */
	appUrl: string;
}

const JOURNEY_KNOBS: Record<Journey, Partial<AppKnobs>> = {
	good: {},
	reload: {},
	'redirect-next': { redirectNext: true },
	'cancel-loop': {},
	state: { state: true }
};

/** Waits until the browser lands on the app, or on the authorisation host once the link has been loaded `loops` times. */
async function landing(page: Page, appUrl: string, linkArrivals: string[], loops: number): Promise<void> {
	await page.waitForURL((url) => url.origin === appUrl || (url.origin === AUTH_HOST && linkArrivals.length >= loops));
}

/** Drives Chromium through one journey, recording a HAR; the app and its sandbox workspace are gone afterwards. */
export async function recordSignIn(browser: Browser, options: RecordSignInOptions): Promise<RecordedSignIn> {
	const { journey, variant } = options;
	const harPath = options.harPath ?? join(await mkdtemp(join(tmpdir(), 'passport-har-')), 'sign-in.har');
	const running = await startAppOnSandbox({ ...options.knobs, ...JOURNEY_KNOBS[journey], variant }, { verificationKey: options.verificationKey });
	const appUrl = running.app.url;
	const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed', mode: 'full' } });
	try {
		const page = await context.newPage();
		const linkArrivals: string[] = [];
		const callbackArrivals: string[] = [];
		const final: { status: number | null } = { status: null };
		page.on('request', (request) => {
			if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
			const url = request.url();
			if (url.startsWith(`${AUTH_HOST}/sso/`)) linkArrivals.push(url);
			if (url.startsWith(running.app.callbackUrl)) callbackArrivals.push(url);
		});
		/** The app's pages' bodies, read as they arrive: a page navigated away from at once can lose its body from the HAR. */
		const appBodies: Promise<unknown>[] = [];
		page.on('response', (response) => {
			const request = response.request();
			if (request.isNavigationRequest() && request.frame() === page.mainFrame()) final.status = response.status();
			if (response.url().startsWith(appUrl)) appBodies.push(response.body().catch(() => null));
		});

		await page.goto(`${appUrl}/login`);
		const decision: Decision = journey === 'cancel-loop' ? 'cancel' : 'authorise';
		await decideOnSandbox(page, options.login ?? SIGN_IN.login, decision);
		await landing(page, appUrl, linkArrivals, 2);
		if (journey === 'reload') {
			const callback = callbackArrivals[0];
			if (!callback) throw new Error(`The sign-in never reached the app's callback (ended on ${page.url()})`);
			// The first arrival's redirect to /home must finish, its body read, first: going on at once could cut /home's
			// answer from the HAR.
			await page.waitForURL((url) => url.origin === appUrl && url.pathname === '/home');
			await Promise.all(appBodies);
			await page.goto(callback); // waits for its load
		}
		const finalText = await page.locator('body').innerText();
		return { harPath, finalUrl: page.url(), finalStatus: final.status, finalText, linkArrivals, callbackArrivals, appUrl };
	} finally {
		await context.close(); // writes the HAR
		await running.close();
	}
}

const SANITISED_HEADERS = new Set(['cookie', 'set-cookie', 'authorization']);

/** Chrome's sanitized export: no Cookie, Set-Cookie or Authorization header, and empty `cookies` arrays. */
export function sanitise(har: Har): Har {
	const copy = structuredClone(har);
	for (const entry of copy.log.entries) {
		for (const message of [entry.request, entry.response]) {
			message.headers = message.headers.filter((h) => !SANITISED_HEADERS.has(h.name.toLowerCase()));
			message.cookies = [];
		}
	}
	return copy;
}

/** Writes the sanitised copy of a HAR file beside it (`x.sanitized.har`); returns its path. */
export async function sanitiseFile(harPath: string): Promise<string> {
	const har = await readHar(harPath);
	const path = harPath.replace(/(\.har)?$/, '.sanitized.har');
	await writeFile(path, JSON.stringify(sanitise(har), null, 2));
	return path;
}

/** A HAR file as written (Playwright's recordHar or a browser's export). */
export async function readHar(harPath: string): Promise<Har> {
	return JSON.parse(await readFile(harPath, 'utf8')) as Har;
}
