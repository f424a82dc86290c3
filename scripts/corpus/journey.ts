/**
 * Drives Chromium through a case's journey on the app, as the integrator's user would, recording a HAR the way a
 * browser saves one (the page's whole traffic, content embedded). Ends when the browser is back on the app, or
 * reaches the sign-in link a second time (a loop), or the sign-in page shows an error (7.1).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Journey } from '../../tests/corpus/cases';

const PASSWORD = 'password';
const WAIT_MS = 15_000;

export interface JourneyResult {
	harPath: string;
	finalUrl: string;
	finalText: string;
}

/** The sandbox's sign-in steps until Authorise or Cancel is clicked (true); false on a page that is none of them (an error, 7.1). */
async function decide(page: Page, login: string, decision: Journey['decision']): Promise<boolean> {
	for (let step = 0; step < 4; step++) {
		const kind = await page.locator('main[data-page]').getAttribute('data-page', { timeout: WAIT_MS }).catch(() => null);
		if (kind === 'login') {
			await page.getByLabel('Email').fill(login);
			await page.getByLabel('Password').fill(PASSWORD);
			await page.getByRole('button', { name: 'Sign in' }).click();
		} else if (kind === 'verify') {
			await page.getByRole('button', { name: 'Submit proof' }).click();
		} else if (kind === 'consent') {
			await page.getByRole('button', { name: decision === 'authorise' ? 'Authorise' : 'Cancel' }).click();
			return true;
		} else {
			return false;
		}
		await page.waitForLoadState('domcontentloaded');
	}
	return false;
}

/** The app's /login; once more after a network error (Chromium under load has failed to resolve localhost once). */
async function openLogin(page: Page, url: string): Promise<void> {
	try {
		await page.goto(url);
	} catch (error) {
		if (!(error instanceof Error) || !/net::ERR_/.test(error.message)) throw error;
		await page.waitForTimeout(500);
		await page.goto(url);
	}
}

export async function runJourney(browser: Browser, journey: Journey, app: { origin: string; callbackUrl: string }, authUrl: string): Promise<JourneyResult> {
	const harPath = join(mkdtempSync(join(tmpdir(), 'corpus-har-')), 'sign-in.har');
	const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed', mode: 'full' } });
	try {
		const page = await context.newPage();
		let linkArrivals = 0;
		const callbacks: string[] = [];
		page.on('request', (request) => {
			if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
			if (request.url().startsWith(`${authUrl}/sso/`)) linkArrivals++;
			if (request.url().startsWith(app.callbackUrl)) callbacks.push(request.url());
		});
		await openLogin(page, `${app.origin}/login`);
		const decided = new URL(page.url()).origin === authUrl && (await decide(page, journey.login ?? 'student@example.com', journey.decision));
		if (decided) await page.waitForURL((url) => url.origin === app.origin || linkArrivals >= 2, { timeout: WAIT_MS }).catch(() => undefined);
		await page.waitForLoadState('load').catch(() => undefined);
		if (journey.reload && callbacks[0]) {
			await page.waitForTimeout(300);
			await page.goto(callbacks[0]).catch(() => undefined);
		}
		// The page's own requests (a single-page app's API calls) and the last body must be in the HAR before it closes.
		await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
		const finalText = await page.locator('body').innerText().catch(() => '');
		return { harPath, finalUrl: page.url(), finalText };
	} finally {
		await context.close();
	}
}
