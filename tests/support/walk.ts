/**
 * Shared steps of the browser tests: the sandbox's sign-in dance (login, the verification step when the user has
 * none, consent) and the walk page's steps. Ports follow E2E_PORT, as playwright.config.ts does (support/ports.ts).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS_HOST, AUTH_HOST, DEMO_PASSWORD, DEMO_SECRET, EXPLORER, STUDENT } from '../security/support/ports';

export { ACCOUNTS_HOST, AUTH_HOST, DEMO_PASSWORD, DEMO_SECRET, EXPLORER, STUDENT };

export type Decision = 'authorise' | 'cancel';

/**
 * Waits until Svelte has hydrated the page: before that, buttons are server-rendered HTML and a click does
 * nothing. The signal is the delegated event handler Svelte 5 stores on an element under a symbol; the theme
 * selector of the layout is on every page. (Module scripts start after the load event, so `goto` alone races.)
 */
export async function hydrated(page: Page): Promise<void> {
	await page.waitForFunction(() => {
		const select = document.querySelector('header select');
		return select !== null && Object.getOwnPropertySymbols(select).length > 0;
	});
}

/** Opens an explorer page and waits until it works. */
export async function open(page: Page, path: string): Promise<void> {
	await page.goto(path);
	await hydrated(page);
}

/** Back to the shipped fixtures and real time, for a test that changed the sandbox. */
export async function resetSandbox(): Promise<void> {
	const response = await fetch(`${ACCOUNTS_HOST}/sandbox/reset`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}'
	});
	if (!response.ok) throw new Error(`POST /sandbox/reset answered ${response.status}`);
}

/**
 * On the sandbox's authorisation page: sign in when asked, submit the simulated proof when asked, then press
 * Authorise or Cancel. Ends when the browser is back on the explorer; returns the sandbox pages it went through.
 */
export async function signInAndDecide(page: Page, login: string, decision: Decision): Promise<string[]> {
	const seen = await decideOnSandbox(page, login, decision);
	await page.waitForURL((url) => url.origin === EXPLORER);
	await hydrated(page);
	return seen;
}

/**
 * signInAndDecide's steps for any client application: ends once Authorise or Cancel has been clicked, wherever the
 * redirect leads; returns the sandbox pages it went through.
 */
export async function decideOnSandbox(page: Page, login: string, decision: Decision): Promise<string[]> {
	await page.waitForURL((url) => url.origin === AUTH_HOST);
	const seen: string[] = [];
	for (let step = 0; step < 4; step++) {
		const kind = await page.locator('main[data-page]').getAttribute('data-page');
		seen.push(kind ?? '(none)');
		if (kind === 'login') {
			await page.getByLabel('Email').fill(login);
			await page.getByLabel('Password').fill(DEMO_PASSWORD);
			await page.getByRole('button', { name: 'Sign in' }).click();
		} else if (kind === 'verify') {
			await page.getByRole('button', { name: 'Submit proof' }).click();
		} else if (kind === 'consent') {
			await page.getByRole('button', { name: decision === 'authorise' ? 'Authorise' : 'Cancel' }).click();
			return seen;
		} else {
			throw new Error(`Unexpected sandbox page "${kind}": ${await page.locator('main').innerText()}`);
		}
		await page.waitForLoadState('domcontentloaded');
	}
	throw new Error('The sandbox sign-in did not reach the consent page');
}

/** The guided lesson done in full: cancel on the sandbox, then authorise; ends on the lesson page. */
export async function doLesson(page: Page, login = STUDENT): Promise<void> {
	await open(page, '/learn/cancel');
	await page.getByTestId('lesson-cancel').click();
	await signInAndDecide(page, login, 'cancel');
	await page.getByTestId('lesson-authorise').click();
	await signInAndDecide(page, login, 'authorise');
}

/** Steps 1 and 2 of the walk against the sandbox with the demo client: open the link, sign in, decide. */
export async function authorise(page: Page, login = STUDENT, decision: Decision = 'authorise'): Promise<string[]> {
	await open(page, '/');
	await page.getByTestId('open-link').click();
	const seen = await signInAndDecide(page, login, decision);
	await expect(page.getByTestId('callback-result')).toHaveAttribute('data-kind', decision === 'authorise' ? 'code' : 'cancel');
	return seen;
}

/** The annotation of the n-th exchange of a step (0 = first), once it is on the page. */
export function annotationOf(page: Page, step: 'token' | 'me', index: number): Locator {
	return page.getByTestId(`exchange-${step}`).nth(index).getByTestId('annotation');
}

/** Step 3: the plain exchange; waits for its annotation. */
export async function exchange(page: Page): Promise<Locator> {
	const before = await page.getByTestId('exchange-token').count();
	await page.getByTestId('exchange').click();
	const annotation = annotationOf(page, 'token', before);
	await expect(annotation).toBeVisible();
	return annotation;
}

/** One of the tamper buttons of step 3 (the <details> is opened first); waits for the new exchange's annotation. */
export async function tamper(page: Page, button: string, drop?: string): Promise<Locator> {
	const details = page.locator('details.tamper');
	if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
	if (drop) await page.getByLabel('Drop', { exact: true }).selectOption(drop);
	const before = await page.getByTestId('exchange-token').count();
	await details.getByRole('button', { name: button, exact: true }).click();
	const annotation = annotationOf(page, 'token', before);
	await expect(annotation).toBeVisible();
	return annotation;
}

/** Step 4 with the given toggles; waits for the new exchange's annotation. */
export async function callMe(
	page: Page,
	options: { userAgent?: boolean; credential?: 'token' | 'code' | 'none' } = {}
): Promise<Locator> {
	await page.getByTestId('me-user-agent').setChecked(options.userAgent ?? true);
	await page.getByTestId('me-credential').selectOption(options.credential ?? 'token');
	const before = await page.getByTestId('exchange-me').count();
	await page.getByTestId('read-me').click();
	const annotation = annotationOf(page, 'me', before);
	await expect(annotation).toBeVisible();
	return annotation;
}
